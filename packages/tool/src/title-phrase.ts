import type { ScoredId } from "@hierdoc/core";
import type { Catalog } from "./catalog.js";

/** Words at most, for a query to be read as a section title. */
const MAX_QUERY_WORDS = 6;
/** More matching sections than this means the phrase is too common to be a title lookup. */
const MAX_SECTIONS = 3;
/** Exact-leg score of a title phrase hit: below own-id hits (4), above unit and bare-number hits. */
export const TITLE_PHRASE_SCORE = 3.5;

/**
 * Finds sections whose title contains a short query as a whole phrase ("right to erasure" →
 * "Article 17 — Right to erasure (‘right to be forgotten’)"): a user who types a section's title means
 * that section, as surely as one who types its number. Built lazily from the catalog.
 */
export class TitlePhraseIndex {
  private titles: Titles | null = null;

  constructor(private readonly catalog: Catalog) {}

  /** Forgets the titles (call after the catalog changed). */
  invalidate(): void {
    this.titles = null;
  }

  /** The first chunk of each section whose title holds the query as a phrase; empty when none or too many. */
  lookup(query: string): ScoredId[] {
    const q = normalize(query);
    const words = q.split(" ").filter(Boolean);
    if (words.length === 0 || words.length > MAX_QUERY_WORDS || !/\p{L}/u.test(q)) return [];
    const needle = ` ${q} `;
    const { texts, textTitles, chunks, byWord } = this.build();
    // A title holding the phrase holds each of its words as a word: only the titles of the rarest one are read.
    let candidates: number[] | undefined;
    for (const w of words) {
      const list = byWord.get(w);
      if (!list) return [];
      if (!candidates || list.length < candidates.length) candidates = list;
    }
    const found: number[] = [];
    for (const t of candidates!) {
      if (!texts[t].includes(needle)) continue;
      for (const title of textTitles[t]) found.push(title);
      if (found.length > MAX_SECTIONS) return [];
    }
    const hits: ScoredId[] = [];
    for (const title of found.sort((a, b) => a - b)) {
      const chunk = chunks[title];
      const id = typeof chunk === "string" ? chunk : this.catalog.entriesOf(chunk.sourcePath).find((e) => e.chunkIndex === chunk.chunkIndex)?.id;
      if (id !== undefined) hits.push({ id, score: TITLE_PHRASE_SCORE });
    }
    return hits;
  }

  private build(): Titles {
    if (this.titles) return this.titles;
    // The first chunk of each section (by source, then section id), read without joining keys.
    // A served-in-place catalog decodes no id here: its chunks are kept by source and index, the id read on a hit.
    const first = new Map<string, Map<string, { chunkIndex: number; chunk: TitleChunk; title: string; sectionId: string }>>();
    for (const e of this.catalog.all({ ids: false })) {
      if (!e.sectionTitle) continue;
      const chunk = e.id || { sourcePath: e.sourcePath, chunkIndex: e.chunkIndex };
      let sections = first.get(e.sourcePath);
      if (!sections) first.set(e.sourcePath, (sections = new Map()));
      const seen = sections.get(e.sectionId);
      if (!seen) sections.set(e.sectionId, { chunkIndex: e.chunkIndex, chunk, title: e.sectionTitle, sectionId: e.sectionId });
      else if (e.chunkIndex < seen.chunkIndex) Object.assign(seen, { chunkIndex: e.chunkIndex, chunk, title: e.sectionTitle });
    }
    const titles: Titles = { texts: [], textTitles: [], chunks: [], byWord: new Map() };
    // Distinct titles are normalised and indexed once (sections of many files repeat them).
    const textOf = new Map<string, number>();
    const stripped = new Map<string, { sectionId: string; title: string }>();
    for (const sections of first.values()) {
      for (const t of sections.values()) {
        let s = stripped.get(t.title);
        if (s?.sectionId !== t.sectionId) stripped.set(t.title, (s = { sectionId: t.sectionId, title: stripId(t.title, t.sectionId) }));
        if (!s.title) continue;
        let text = textOf.get(s.title);
        if (text === undefined) {
          const norm = normalize(s.title);
          textOf.set(s.title, (text = titles.texts.push(` ${norm} `) - 1));
          titles.textTitles.push([]);
          for (const w of new Set(norm.split(" "))) {
            if (!w) continue;
            const list = titles.byWord.get(w);
            if (list) list.push(text);
            else titles.byWord.set(w, [text]);
          }
        }
        titles.textTitles[text].push(titles.chunks.push(t.chunk) - 1);
      }
    }
    return (this.titles = titles);
  }
}

/** A section's first chunk: its id, or its source and index when the catalog is served in place. */
type TitleChunk = string | { sourcePath: string; chunkIndex: number };

/**
 * Distinct section titles (normalised, space-padded), the sections (by number, ascending) each is the title
 * of, the first chunk of each section, and the titles each word is in (ascending).
 */
interface Titles {
  texts: string[];
  textTitles: number[][];
  chunks: TitleChunk[];
  byWord: Map<string, number[]>;
}

/** The title without its leading number: "Article 17 — Right to erasure" → "Right to erasure". */
function stripId(title: string, sectionId: string): string {
  const t = title.trim();
  if (sectionId && t.toLowerCase().startsWith(sectionId.toLowerCase())) return t.slice(sectionId.length).replace(/^[\s.:—–-]+/, "");
  return t.replace(/^[§\s]*[\p{N}][\p{N}.()\p{L}]*[\s.:—–-]+/u, "");
}

function normalize(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
