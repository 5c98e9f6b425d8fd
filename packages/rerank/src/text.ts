import { stemmer } from "stemmer";

const STOPWORDS = new Set(
  ("a an and are as at be been being by can could did do does for from had has have how i if in into is it its " +
    "may might must no not of on or our shall should so such than that the their them then there these they this " +
    "those to under upon was we were what when where whether which while who whom why will with would you your " +
    "any all each other about also within without between per")
    .split(" "),
);

/** Porter stems of words seen so far: a corpus has tens of thousands of distinct words, stemming each once. */
const stemOfWord = new Map<string, string>();
const STEM_MEMO_LIMIT = 200_000;

function stemWord(word: string): string {
  let stem = stemOfWord.get(word);
  if (stem === undefined) {
    if (stemOfWord.size >= STEM_MEMO_LIMIT) stemOfWord.clear();
    stem = stemmer(word);
    stemOfWord.set(word, stem);
  }
  return stem;
}

const WORD_BREAK = /[^\p{L}\p{N}]+/u;

/** One analysed token: its stem and its position in the stopword-free sequence. */
export interface Token {
  stem: string;
  pos: number;
}

/**
 * Lower-cases, splits on anything that is not a letter or digit, drops stopwords and one-letter tokens,
 * and Porter-stems the rest. Positions count kept tokens, so phrases skip stopwords on both sides.
 */
export function analyze(text: string): Token[] {
  const out: Token[] = [];
  for (const raw of text.toLowerCase().split(WORD_BREAK)) {
    if (raw.length < 2 || STOPWORDS.has(raw)) continue;
    out.push({ stem: stemWord(raw), pos: out.length });
  }
  return out;
}

/** Stems of {@link analyze}, in order. */
export function stems(text: string): string[] {
  const out: string[] = [];
  for (const raw of lowerWords(text)) if (raw.length >= 2 && !STOPWORDS.has(raw)) out.push(stemWord(raw));
  return out;
}

/** The lower-cased pieces of a text between runs of non-letters/digits (some empty), before stopwords are dropped. */
export function lowerWords(text: string): string[] {
  return text.toLowerCase().split(WORD_BREAK);
}

/** The stem {@link stems} keeps for one piece of {@link lowerWords}, or undefined when it drops it (a stopword, under two characters). */
export function keptStem(word: string): string | undefined {
  return word.length >= 2 && !STOPWORDS.has(word) ? stemWord(word) : undefined;
}

/** Consecutive n-grams of a stem sequence, joined with a space. */
export function ngrams(seq: string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= seq.length; i++) out.push(seq.slice(i, i + n).join(" "));
  return out;
}

/**
 * Length (in tokens) of the shortest window of `seq` containing every stem of `wanted` that occurs in
 * `seq`, and how many distinct wanted stems it covers. Returns `{covered: 0}` when none occurs.
 */
export function minimalWindow(seq: string[], wanted: ReadonlySet<string>): { covered: number; width: number } {
  const present = new Set(seq.filter((s) => wanted.has(s)));
  const need = present.size;
  if (need === 0) return { covered: 0, width: 0 };
  const counts = new Map<string, number>();
  let have = 0;
  let best = Infinity;
  let left = 0;
  for (let right = 0; right < seq.length; right++) {
    const s = seq[right];
    if (!present.has(s)) continue;
    const c = (counts.get(s) ?? 0) + 1;
    counts.set(s, c);
    if (c === 1) have++;
    while (have === need) {
      best = Math.min(best, right - left + 1);
      const l = seq[left];
      if (present.has(l)) {
        const lc = (counts.get(l) ?? 0) - 1;
        counts.set(l, lc);
        if (lc === 0) have--;
      }
      left++;
    }
  }
  return { covered: need, width: best };
}
