const QUOTES = /[‘’“”"'`«»„‚]/g;
const DASHES = /[‐‑‒–—―]/g;

/**
 * Canonical lookup form of a defined term: Unicode-normalised, lower-cased, quotes stripped, dashes unified,
 * whitespace collapsed, and surrounding punctuation removed. Use it to compare a user's query with
 * {@link DefinitionEntry.termNormalized}. Never throws.
 */
export function normalizeTerm(term: string): string {
  return term
    .normalize("NFKC")
    .replace(QUOTES, "")
    .replace(DASHES, "-")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/^[\s.,;:()[\]*_-]+|[\s.,;:()[\]*_-]+$/g, "")
    .trim();
}

const WORD = /[\p{L}\p{N}]+(?:[-_'’][\p{L}\p{N}]+)*/gu;

/** One word of a text with its offsets, as the term matcher sees it. */
export interface WordToken {
  /** The word as written. */
  raw: string;
  /** Lower-cased, singular form used for matching. */
  key: string;
  start: number;
  end: number;
}

/**
 * Reduces an English word to a singular key so that plural and singular forms of a term meet
 * ("processes" → "process", "parties" → "party", "data" stays "data"). Expects a lower-cased word.
 */
export function singularKey(word: string): string {
  const w = word.replace(/[’']s$/u, "");
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(?:ss|ch|sh|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Splits text into words with offsets and singular keys (the matcher's tokenizer). */
export function wordTokens(text: string): WordToken[] {
  const out: WordToken[] = [];
  for (const m of text.matchAll(WORD)) {
    const raw = m[0];
    const start = m.index ?? 0;
    out.push({ raw, key: singularKey(raw.toLowerCase().replace(/’/g, "'")), start, end: start + raw.length });
  }
  return out;
}
