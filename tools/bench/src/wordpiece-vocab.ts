import { WORDPIECE_SPECIAL_TOKENS, wordPieceTokenizerJson } from "@hierdoc/embeddings/testing";
// A WordPiece vocabulary of a real model's size built from English text, so a benchmark tokenizer splits
// text into about as many tokens as a real BERT tokenizer would (whole common words, `##` suffixes for
// the rest), and the tokenizer.json transformers.js reads for it.

/** BERT's special tokens, in the order written at the start of the vocabulary. */
export const SPECIAL_TOKENS = WORDPIECE_SPECIAL_TOKENS;

const ASCII_PUNCT = "!-\\/:-@\\[-`{-~";
const PIECE = new RegExp(`[^\\s\\p{P}${ASCII_PUNCT}]+|[\\p{P}${ASCII_PUNCT}]`, "gu");

/**
 * BERT's basic tokenization as `BertNormalizer` (lowercase, accents stripped) and `BertPreTokenizer`
 * (whitespace, then every punctuation character alone) apply it.
 */
export function basicTokens(text: string): string[] {
  return text.toLowerCase().normalize("NFD").replace(/\p{Mn}/gu, "").match(PIECE) ?? [];
}

/** Options of {@link buildWordPieceVocabulary}. */
export interface VocabularyOptions {
  /** Total entries including special tokens; default 30522 (BERT uncased). */
  size?: number;
  /** How many `##` continuation pieces besides single characters; default 5800 (about BERT uncased's share). */
  suffixPieces?: number;
}

/**
 * Builds a vocabulary of exactly `size` entries from `texts`: special tokens, every character seen (alone
 * and as `##c`), the most frequent word endings (2–6 characters) as `##` pieces, then the most frequent
 * words. Greedy longest-match WordPiece over it splits common words whole and rare words into a prefix
 * and suffixes, as a trained BERT vocabulary does. Generated `[unusedN]` entries pad a too-small corpus.
 */
export function buildWordPieceVocabulary(texts: Iterable<string>, options: VocabularyOptions = {}): string[] {
  const size = options.size ?? 30522;
  const counts = new Map<string, number>();
  for (const text of texts) for (const t of basicTokens(text)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const chars = new Set<string>();
  for (let c = 33; c < 127; c++) chars.add(String.fromCharCode(c).toLowerCase());
  for (const w of counts.keys()) for (const c of w) chars.add(c);
  const suffixCounts = new Map<string, number>();
  for (const [w, n] of counts) {
    if (w.length < 4) continue;
    for (let k = 2; k <= Math.min(6, w.length - 2); k++) {
      const s = w.slice(-k);
      suffixCounts.set(s, (suffixCounts.get(s) ?? 0) + n);
    }
  }
  const byCount = <T>(m: Map<T, number>): T[] => [...m.entries()].sort((a, b) => b[1] - a[1] || (String(a[0]) < String(b[0]) ? -1 : 1)).map(([k]) => k);
  const vocab: string[] = [...SPECIAL_TOKENS];
  const seen = new Set<string>(vocab);
  const add = (t: string): void => {
    if (vocab.length < size && !seen.has(t)) {
      seen.add(t);
      vocab.push(t);
    }
  };
  for (const c of [...chars].sort()) add(c);
  for (const c of [...chars].sort()) add(`##${c}`);
  for (const s of byCount(suffixCounts).slice(0, options.suffixPieces ?? 5800)) add(`##${s}`);
  for (const w of byCount(counts)) add(w);
  for (let i = 0; vocab.length < size; i++) add(`[unused${i}]`);
  return vocab;
}

/** Greedy longest-match-first WordPiece of one basic token (as the `WordPiece` model applies it). */
export function wordPieces(word: string, vocab: ReadonlySet<string>, maxChars = 100): string[] {
  if (word.length > maxChars) return ["[UNK]"];
  const out: string[] = [];
  for (let start = 0; start < word.length; ) {
    let end = word.length;
    let piece: string | undefined;
    while (end > start) {
      const sub = (start > 0 ? "##" : "") + word.slice(start, end);
      if (vocab.has(sub)) {
        piece = sub;
        break;
      }
      end--;
    }
    if (piece === undefined) return ["[UNK]"];
    out.push(piece);
    start = end;
  }
  return out;
}

/** The `tokenizer.json` for a vocabulary (the same builder the tiny test models use). */
export { wordPieceTokenizerJson };
