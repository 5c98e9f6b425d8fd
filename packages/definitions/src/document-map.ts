import type { Chunk, ConvertedDocument, Section } from "@hierdoc/core";

/** A block of text (markdown paragraph or text line) with its offsets in the converted text. */
export interface Paragraph {
  text: string;
  start: number;
  end: number;
}

const TITLE_PREFIX =
  /^\s*(?:§+\s*)?(?:(?:article|section|part|subpart|chapter|subchapter|rule|appendix|annex|schedule|title)\s+)?(?:\d[\w.()]*|[IVXLC]+|[A-Z])(?=[\s.:—–-])[\s.:—–-]*/i;
const DEFINITIONS_TITLE =
  /^(?:definitions?|glossary|terminology|meaning of terms|defined terms|terms used|interpretations?|(?:key\s+)?terms\s*\.?$)\b/i;

/**
 * True when a heading names a definitions section: after its number, it starts with "Definitions",
 * "Glossary", "Terminology", "Meaning of terms", "Defined terms", "Interpretation" or is "Terms".
 */
export function isDefinitionsTitle(title: string): boolean {
  return DEFINITIONS_TITLE.test(title.replace(TITLE_PREFIX, "").trim());
}

/**
 * Splits the converted text into paragraphs: blank-line separated blocks for markdown, single lines for
 * plain text (where every structural unit starts a line). Offsets point into `doc.text`.
 */
export function paragraphs(doc: ConvertedDocument): Paragraph[] {
  const out: Paragraph[] = [];
  const text = doc.text;
  const lineRe = /[^\r\n]*(?:\r\n|\r|\n|$)/g;
  let block: Paragraph | null = null;
  const flush = () => {
    if (block && block.text.trim()) out.push(block);
    block = null;
  };
  for (const m of text.matchAll(lineRe)) {
    if (m[0] === "") break;
    const start = m.index ?? 0;
    const line = m[0].replace(/[\r\n]+$/, "");
    const end = start + line.length;
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = doc.format === "markdown" && /^\s{0,3}#{1,6}\s/.test(line);
    if (doc.format === "text" || heading) {
      flush();
      out.push({ text: line, start, end });
      continue;
    }
    if (block) {
      const b: Paragraph = block;
      block = { text: text.slice(b.start, end), start: b.start, end };
    } else block = { text: line, start, end };
  }
  flush();
  return out;
}

/** Finds the innermost section and the chunk that contain an offset. */
export class DocumentMap {
  private readonly sections: Section[];
  private readonly chunks: Chunk[];
  private readonly defCache = new Map<Section, "own" | "parent" | null>();
  private readonly byId = new Map<string, Section>();

  constructor(sections: Section[], chunks: Chunk[]) {
    this.sections = [...sections].sort((a, b) => a.start - b.start || b.end - a.end);
    this.chunks = [...chunks].sort((a, b) => a.start - b.start);
    for (const s of this.sections) if (!this.byId.has(s.sectionId)) this.byId.set(s.sectionId, s);
  }

  /** The deepest section whose `[start, end)` contains `offset`, or null before the first heading. */
  sectionAt(offset: number): Section | null {
    const i = lastAtOrBefore(this.sections, offset);
    for (let k = i; k >= 0; k--) if (offset < this.sections[k].end) return this.sections[k];
    return null;
  }

  /** The chunk containing `offset`, else the closest chunk before it, else the first chunk. */
  chunkAt(offset: number): Chunk | null {
    const i = lastAtOrBefore(this.chunks, offset);
    if (i >= 0) return this.chunks[i];
    return this.chunks[0] ?? null;
  }

  /**
   * The heading-level section a unit belongs to: walks up from paragraph units the chunker reports as
   * sections ("§ 478.11(2)(b)" → "§ 478.11", "Article 4(3)" → "Article 4").
   */
  baseSection(section: Section | null): Section | null {
    let s = section;
    while (s) {
      const parentId = s.parentIds[s.parentIds.length - 1];
      if (parentId === undefined || !isUnitOf(s.sectionId, parentId)) return s;
      const parent = this.byId.get(parentId);
      if (!parent) return s;
      s = parent;
    }
    return s;
  }

  /**
   * Whether the section is a definitions section: `"own"` when its heading section's title names
   * definitions, `"parent"` when only the parent's does (RFC "3. Terminology and Core Concepts" > "3.7"),
   * else null.
   */
  definitionsScope(section: Section | null): "own" | "parent" | null {
    const base = this.baseSection(section);
    if (!base) return null;
    const cached = this.defCache.get(base);
    if (cached !== undefined) return cached;
    const parentId = base.parentIds[base.parentIds.length - 1];
    const parent = parentId === undefined ? undefined : this.byId.get(parentId);
    const result = isDefinitionsTitle(base.title) ? "own" : parent && isDefinitionsTitle(parent.title) ? "parent" : null;
    this.defCache.set(base, result);
    return result;
  }

  /** True when the section or its parent is a definitions section by its heading. */
  inDefinitions(section: Section | null): boolean {
    return this.definitionsScope(section) !== null;
  }
}

/** True when `id` is a paragraph unit of `parentId` ("Article 4(1)" of "Article 4", "2.1.1.(1)" of "2.1.1"). */
export function isUnitOf(id: string, parentId: string): boolean {
  if (!id.startsWith(parentId) || id === parentId) return false;
  return /^\.?(?:\(\w{1,6}\)\.?)+$/.test(id.slice(parentId.length));
}

function lastAtOrBefore(items: ReadonlyArray<{ start: number }>, offset: number): number {
  let lo = 0;
  let hi = items.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].start <= offset) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}
