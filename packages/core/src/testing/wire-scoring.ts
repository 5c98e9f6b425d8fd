import { cosine } from "./fixtures.js";

/**
 * Cosine similarity of two equal-length number sequences (plain arrays from a JSON request, or typed
 * arrays), 0 when either is all zeros. For fake servers that score what a client sent. Same arithmetic as
 * {@link cosine} (which only reads `length` and indexes), without converting to 32-bit floats.
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return cosine(a as Float32Array, b as Float32Array);
}

/** Lower-cased letter/digit runs of `text`, without `stopWords`. */
export function wordTokens(text: string, stopWords: ReadonlySet<string> = new Set()): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !stopWords.has(t));
}

/**
 * Okapi BM25 (k1 = 1.2, b = 0.75, Lucene's idf `ln(1 + (N − n + 0.5) / (n + 0.5))`) of each item's text
 * against the distinct words of `query`, over {@link wordTokens}: items with a positive score, best first
 * (ties keep input order). A stand-in for a search engine's full-text leg in wire tests, not a reference.
 */
export function bm25Rank<T>(
  items: T[],
  query: string,
  textOf: (item: T) => string,
  stopWords: ReadonlySet<string> = new Set(),
): Array<{ item: T; score: number }> {
  const terms = new Set(wordTokens(query, stopWords));
  const docs = items.map((item) => ({ item, toks: cachedTokens(textOf(item), stopWords) }));
  const avg = docs.reduce((s, d) => s + d.toks.length, 0) / Math.max(1, docs.length);
  const df = new Map([...terms].map((t) => [t, docs.filter((d) => d.toks.includes(t)).length]));
  return docs
    .map(({ item, toks }) => {
      let score = 0;
      for (const t of terms) {
        const tf = toks.filter((x) => x === t).length;
        if (tf === 0) continue;
        const n = df.get(t)!;
        const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
        score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * toks.length) / avg));
      }
      return { item, score };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score);
}

/** Tokens of recently scored texts: fakes score the same stored texts on every query (and every page of one). */
const tokenCache = new Map<string, string[]>();
const TOKEN_CACHE_LIMIT = 50_000;

function cachedTokens(text: string, stopWords: ReadonlySet<string>): string[] {
  if (stopWords.size > 0) return wordTokens(text, stopWords);
  let toks = tokenCache.get(text);
  if (toks === undefined) {
    if (tokenCache.size >= TOKEN_CACHE_LIMIT) tokenCache.clear();
    tokenCache.set(text, (toks = wordTokens(text)));
  }
  return toks;
}
