import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Chunk, ConvertedDocument, Section } from "@hierdoc/core";
import * as chunker from "@hierdoc/chunker";

/** The shared corpora folder, read in place. */
export const corpora = fileURLToPath(new URL("../../../../shared/corpora", import.meta.url));
/** True when the shared corpora are present. */
export const haveCorpora = existsSync(corpora);
/** Suffix for test names when the corpora are absent. */
export const skipReason = haveCorpora ? "" : " (skipped: ../shared/corpora not present)";

type Parse = (doc: ConvertedDocument, o: { maxChunkTokens: number }) => { sections: Section[]; chunks: Chunk[] };
const realParse = (chunker as unknown as { parseDocument?: Parse }).parseDocument;
/** Which parser the gold checks use: the real chunker once it exports parseDocument. */
export const parserName = realParse ? "@hierdoc/chunker" : "heading fallback";

/** Reads a corpus file as a converted document. */
export function loadDoc(rel: string, format: "markdown" | "text"): ConvertedDocument {
  const text = readFileSync(join(corpora, rel), "utf8");
  return { sourcePath: basename(rel), fileType: format, format, text };
}

/** Reads a JSON-lines gold file. */
export function readJsonl<T>(rel: string): T[] {
  return readFileSync(join(corpora, rel), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** Fallback id of a markdown heading, mirroring the chunker's conventions ("§ 478.11", "Article 4", "9.3.1"). */
function headingId(h: string): string {
  let m = /^§{1,2}\s*([0-9][0-9A-Za-z.\-–]*?)\.?(?=[\s—–:]|$)/.exec(h);
  if (m) return `§ ${m[1]}`;
  m = /^(?:article)\s+(\d+[a-z]?)/i.exec(h);
  if (m) return `Article ${m[1]}`;
  m = /^(title|part|subpart|chapter|subchapter|section|appendix)\s+([\dA-Z.]*[\dA-Z]|[IVXLC]+)/i.exec(h);
  if (m) {
    if (/^appendix$/i.test(m[1]) && /\./.test(m[2])) return m[2];
    return `${m[1][0].toUpperCase()}${m[1].slice(1).toLowerCase()} ${m[2]}`;
  }
  m = /^(\d+(?:\.\d+)*)\.?(?=\s|$)/.exec(h);
  if (m) return m[1];
  return h;
}

/** A plain-text unit line: "2.1.1.(1)<TAB>…", "PART 5.12.3.1.Guidance.4<TAB>…", "APP4.A4.9.5 …". */
const TEXT_UNIT = /^((?:PART|Part)\s+[\w.()]+|APP\d+[\w.()]*|\d+[\w.()]*(?:\.Guidance[^\t]*)?)[\t ]/gm;

function fallbackParse(doc: ConvertedDocument): { sections: Section[]; chunks: Chunk[] } {
  const heads: Array<{ level: number; title: string; start: number; id?: string }> = [];
  if (doc.format === "text") {
    for (const m of doc.text.matchAll(TEXT_UNIT)) heads.push({ level: 1, title: m[1], start: m.index ?? 0, id: m[1] });
  }
  for (const m of doc.format === "markdown" ? doc.text.matchAll(/^(#{1,6})\s+(.*?)\s*$/gm) : []) {
    heads.push({ level: m[1].length, title: m[2], start: m.index ?? 0 });
  }
  const sections: Section[] = [];
  const stack: Section[] = [];
  heads.forEach((h, i) => {
    let end = doc.text.length;
    for (let k = i + 1; k < heads.length; k++) {
      if (heads[k].level <= h.level) {
        end = heads[k].start;
        break;
      }
    }
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    const s: Section = {
      sectionId: h.id ?? headingId(h.title),
      aliases: [],
      title: h.title,
      level: h.level,
      parentChain: stack.map((p) => p.title),
      parentIds: stack.map((p) => p.sectionId),
      start: h.start,
      end,
    };
    sections.push(s);
    stack.push(s);
  });
  const chunks: Chunk[] = heads.map((h, i) => {
    const end = heads[i + 1]?.start ?? doc.text.length;
    return {
      id: `${doc.sourcePath}_chunk_${i}`,
      sourcePath: doc.sourcePath,
      chunkIndex: i,
      content: doc.text.slice(h.start, end),
      start: h.start,
      end,
      sectionId: sections[i].sectionId,
      sectionTitle: h.title,
      parentChain: sections[i].parentChain,
      chunkType: "content",
      tokens: 0,
      unitIds: [],
    };
  });
  return { sections, chunks };
}

/** Sections and chunks of a document: the real chunker when it has landed, else a heading-only fallback. */
export function parse(doc: ConvertedDocument, parser: "chunker" | "fallback" = "chunker"): { sections: Section[]; chunks: Chunk[] } {
  if (realParse && parser === "chunker") return realParse(doc, { maxChunkTokens: 800 });
  return fallbackParse(doc);
}

/** Precision / recall / F1 as percentages with one decimal. */
export function prf(tp: number, found: number, gold: number): { precision: number; recall: number } {
  const r1 = (x: number) => Math.round(x * 1000) / 10;
  return { precision: r1(found ? tp / found : 0), recall: r1(gold ? tp / gold : 0) };
}

/** Resolver entries for a parsed document: every section with the chunk where it starts. */
export function resolverEntries(
  sourcePath: string,
  sections: Section[],
  chunks: Chunk[],
): Array<{ sourcePath: string; sectionId: string; aliases: string[]; chunkId: string }> {
  const sorted = [...chunks].sort((a, b) => a.start - b.start);
  return sections.map((s) => {
    const chunk = sorted.find((c) => c.start <= s.start && s.start < c.end) ?? sorted.find((c) => c.start >= s.start);
    return { sourcePath, sectionId: s.sectionId, aliases: s.aliases, chunkId: chunk?.id ?? "" };
  });
}
