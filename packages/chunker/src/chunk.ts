import type { Chunk } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";
import { classifyChunk } from "./classify.js";
import { splitRange, skipSpace, trimEndAt } from "./split.js";
import type { SectionNode } from "./structure.js";
import { countTokens, estimateTokens } from "./tokens.js";

/** Chunking options (see the package README for how they interact). */
export interface ChunkOptions {
  /** Hard upper bound of every chunk, in cl100k tokens. Default 800. */
  maxChunkTokens?: number;
  /**
   * Size up to which sibling numbered paragraphs ("(a)", "(1)") merge into one chunk when their section
   * does not fit in `maxChunkTokens` as a whole. Default 350.
   */
  targetChunkTokens?: number;
  /**
   * Markdown block scanner: `auto` (default) uses a linear CommonMark scan and falls back to remark-parse
   * when the document nests blocks in lists or quotes; `remark` always parses with remark-parse.
   */
  markdownEngine?: "auto" | "remark";
}

interface Raw {
  start: number;
  end: number;
  section: SectionNode | undefined;
  /** Ids of heading-only ancestor sections whose headings were merged in front of this piece. */
  headings?: string[];
}

const BIG_SEGMENT = 40_000;

/** Resolves and validates chunk options. @throws HierdocError E_INVALID_ARGUMENT for a limit below 8. */
export function resolveOptions(options: ChunkOptions = {}): { max: number; target: number } {
  const max = options.maxChunkTokens ?? 800;
  if (!Number.isInteger(max) || max < 8) {
    throw new HierdocError("E_INVALID_ARGUMENT", `maxChunkTokens must be an integer >= 8 (got ${String(max)})`, {
      details: { path: "chunking.max_chunk_tokens" },
    });
  }
  const target = Math.min(max, options.targetChunkTokens ?? Math.min(350, max));
  if (!Number.isInteger(target) || target < 1) {
    throw new HierdocError("E_INVALID_ARGUMENT", `targetChunkTokens must be a positive integer (got ${String(target)})`);
  }
  return { max, target };
}

/**
 * Cuts a document into chunks along its section tree: a section's own text is one chunk when it fits
 * in `max`; otherwise its numbered paragraphs merge in order up to `target`, and any remaining long
 * piece splits at sentence boundaries. Chunks never span removed ranges (page furniture, front matter).
 */
export function chunkSections(
  text: string,
  sourcePath: string,
  nodes: SectionNode[],
  removed: Array<[number, number]>,
  atomic: Array<[number, number]>,
  options: ChunkOptions = {},
  preambleTitle = "",
): Chunk[] {
  const { max, target } = resolveOptions(options);
  const cuts = new Set<number>([0, text.length]);
  for (const n of nodes) cuts.add(n.start);
  for (const [s, e] of removed) {
    cuts.add(s);
    cuts.add(e);
  }
  const bounds = [...cuts].sort((x, y) => x - y);
  const at = new Map<number, number>();
  const prefix = new Float64Array(bounds.length);
  bounds.forEach((b, i) => at.set(b, i));
  const exact = new Map<number, { end: number; tokens: number }>();
  for (let i = 1; i < bounds.length; i++) prefix[i] = prefix[i - 1] + estimateTokens(text, bounds[i - 1], bounds[i]);
  const tok = (s: number, e: number): number => prefix[at.get(e)!] - prefix[at.get(s)!];
  /** Whether `[s, e)` fits in `limit` tokens: decided by the estimate when clear, else counted (memoised). */
  const fits = (s: number, e: number, limit: number): boolean => {
    const est = tok(s, e);
    if (est <= limit * 0.55) return true;
    if (est >= limit * 1.8 || e - s > BIG_SEGMENT) return false;
    const a = skipSpace(text, s, e);
    const b = trimEndAt(text, a, e);
    const known = exact.get(a);
    if (known && known.end === b) return known.tokens <= limit;
    const t = countTokens(text.slice(a, b));
    exact.set(a, { end: b, tokens: t });
    return t <= limit;
  };

  const raws: Raw[] = [];
  const headingOf = (n: SectionNode): SectionNode => {
    let cur = n;
    while (cur.paragraph && cur.parent >= 0) cur = nodes[cur.parent];
    return cur;
  };
  const own = (n: SectionNode, s: number, e: number, paras: SectionNode[]): void => {
    const section = headingOf(n);
    if (paras.length === 0 || fits(s, e, max)) {
      raws.push({ start: s, end: e, section });
      return;
    }
    let gs = s;
    let ge = paras[0].start;
    let gt = tok(gs, ge);
    const flush = (): void => {
      if (ge > gs) raws.push({ start: gs, end: ge, section });
    };
    for (const p of paras) {
      const tp = tok(p.start, p.end);
      if (tp > target && !fits(p.start, p.end, max)) {
        flush();
        own(p, p.start, p.end, p.children.map((c) => nodes[c]));
        gs = ge = p.end;
        gt = 0;
      } else if (ge > gs && gt + tp > target) {
        flush();
        gs = p.start;
        ge = p.end;
        gt = tp;
      } else {
        ge = p.end;
        gt += tp;
      }
    }
    if (ge < e) ge = e;
    flush();
  };
  const visit = (n: SectionNode): void => {
    const kids = n.children.map((c) => nodes[c]);
    const paras = kids.filter((k) => k.paragraph);
    const heads = kids.filter((k) => !k.paragraph);
    own(n, n.start, heads.length > 0 ? heads[0].start : n.end, paras);
    for (const h of heads) visit(h);
  };
  const firstStart = nodes.length > 0 ? nodes[0].start : text.length;
  if (firstStart > 0) raws.push({ start: 0, end: firstStart, section: undefined });
  for (const n of nodes) if (n.parent < 0) visit(n);

  const merged = mergeHeadingOnly(text, nodes, raws, (s, e) => fits(s, e, max));
  const chunks: Chunk[] = [];
  const unitStarts = nodes.filter((n) => n.paragraph);
  let ui = 0;
  let ri = 0;
  const removedSorted = [...removed].sort((x, y) => x[0] - y[0]);
  for (const raw of merged) {
    for (const [s, e] of subtract(raw.start, raw.end, removedSorted, () => ri, (v) => (ri = v))) {
      const a = skipSpace(text, s, e);
      const b = trimEndAt(text, a, e);
      if (b <= a) continue;
      let pieces: Array<{ start: number; end: number; tokens: number }>;
      if (b - a > BIG_SEGMENT) pieces = splitRange(text, a, b, max, atomic);
      else {
        const known = exact.get(a);
        const t = known && known.end === b ? known.tokens : countTokens(text.slice(a, b));
        pieces = t <= max ? [{ start: a, end: b, tokens: t }] : splitRange(text, a, b, max, atomic);
      }
      for (const p of pieces) {
        while (ui < unitStarts.length && unitStarts[ui].start < p.start) ui++;
        const unitIds: string[] = p.start === skipSpace(text, raw.start, raw.end) ? [...(raw.headings ?? [])] : [];
        for (let k = ui; k < unitStarts.length && unitStarts[k].start < p.end; k++) unitIds.push(unitStarts[k].sectionId);
        const content = text.slice(p.start, p.end);
        const sec = raw.section;
        const sectionTitle = sec ? sec.title : preambleTitle;
        const parentChain = sec ? sec.parentChain : [];
        chunks.push({
          id: `${sourcePath}_chunk_${chunks.length}`,
          sourcePath,
          chunkIndex: chunks.length,
          content,
          start: p.start,
          end: p.end,
          sectionId: sec ? sec.sectionId : preambleTitle,
          sectionTitle,
          parentChain,
          chunkType: classifyChunk(content, sectionTitle, parentChain),
          tokens: p.tokens,
          unitIds,
        });
      }
    }
  }
  return chunks;
}

/**
 * A heading with no text of its own ("## Chapter III", "### Section 3 — Rectification and erasure") is not
 * a useful chunk: it matches every query about its title and says nothing. Such a piece is merged in
 * front of the next piece when that piece belongs to one of its descendants and the two fit together;
 * the heading's section id is kept as a unit id of the merged chunk, so exact lookups still find it.
 */
function mergeHeadingOnly(text: string, nodes: SectionNode[], raws: Raw[], fitsTogether: (s: number, e: number) => boolean): Raw[] {
  const out: Raw[] = [];
  const isDescendant = (child: SectionNode, ancestor: SectionNode): boolean => {
    for (let p = child.parent; p >= 0; p = nodes[p].parent) if (nodes[p] === ancestor) return true;
    return false;
  };
  for (let i = 0; i < raws.length; i++) {
    const r = raws[i];
    const next = raws[i + 1];
    if (
      r.section &&
      next?.section &&
      next.start === r.end &&
      isHeadingOnly(text, r) &&
      isDescendant(next.section, r.section) &&
      fitsTogether(r.start, next.end)
    ) {
      raws[i + 1] = { ...next, start: r.start, headings: [...(r.headings ?? []), r.section.sectionId] };
      continue;
    }
    out.push(r);
  }
  return out;
}

function isHeadingOnly(text: string, r: Raw): boolean {
  const body = text.slice(r.start, r.end).replace(/^\s*[^\n]*\n?(?:[=-]{2,}\s*\n)?/, "");
  return body.split(/\s+/).filter(Boolean).length < 5;
}

function subtract(
  s: number,
  e: number,
  removed: Array<[number, number]>,
  getIdx: () => number,
  setIdx: (v: number) => void,
): Array<[number, number]> {
  let i = getIdx();
  while (i < removed.length && removed[i][1] <= s) i++;
  setIdx(i);
  const out: Array<[number, number]> = [];
  let cur = s;
  for (let k = i; k < removed.length && removed[k][0] < e; k++) {
    const [rs, re] = removed[k];
    if (rs > cur) out.push([cur, Math.min(rs, e)]);
    cur = Math.max(cur, re);
  }
  if (cur < e) out.push([cur, e]);
  return out;
}
