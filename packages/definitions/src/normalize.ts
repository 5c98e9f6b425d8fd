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

/** Words whose matching key {@link wordKey} remembers (most text reuses a small vocabulary). */
const KEY_MEMO_LIMIT = 65_536;
const keyMemo = new Map<string, string>();

/**
 * The matching key of one word as written: lower-cased, curly apostrophe straightened, singular
 * ({@link singularKey}). Remembers recent words, so a text's common words cost one map lookup.
 */
export function wordKey(raw: string): string {
  let key = keyMemo.get(raw);
  if (key === undefined) {
    key = singularKey(raw.toLowerCase().replace(/’/g, "'"));
    if (keyMemo.size >= KEY_MEMO_LIMIT) keyMemo.clear();
    keyMemo.set(raw, key);
  }
  return key;
}

/** Splits text into words with offsets and singular keys (the matcher's tokenizer). */
export function wordTokens(text: string): WordToken[] {
  const out: WordToken[] = [];
  for (const m of text.matchAll(WORD)) {
    const raw = m[0];
    const start = m.index ?? 0;
    out.push({ raw, key: wordKey(raw), start, end: start + raw.length });
  }
  return out;
}

/**
 * The words of a text as two parallel lists, as written and as keys ({@link wordKey}): {@link wordTokens}
 * without an object or offsets per word, for matchers that scan many texts.
 */
export function wordKeys(text: string): { raws: string[]; keys: string[] } {
  const raws: string[] = [];
  const keys: string[] = [];
  const re = new RegExp(WORD.source, WORD.flags);
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    raws.push(m[0]);
    keys.push(wordKey(m[0]));
  }
  return { raws, keys };
}
