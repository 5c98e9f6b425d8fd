import { keptStem, lowerWords } from "./text.js";

/** Distinct words remembered with their stem id; past this the memo restarts (stem ids stay valid). */
const WORD_MEMO_LIMIT = 200_000;

const FNV_OFFSET = 2166136261;
const FNV_PRIME = 16777619;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** For UTF-16 code units of 128 and above: 0 not classified yet, 1 a letter or digit, 2 neither. */
const unitClass = new Uint8Array(65536);

/** Whether a (non-surrogate) UTF-16 code unit is a letter or digit, as `\p{L}` / `\p{N}` say. */
function isWordUnit(ch: number): boolean {
  if (ch < 128) return (ch >= 97 && ch <= 122) || (ch >= 48 && ch <= 57) || (ch >= 65 && ch <= 90);
  let k = unitClass[ch];
  if (k === 0) {
    k = WORD_CHAR.test(String.fromCharCode(ch)) ? 1 : 2;
    unitClass[ch] = k;
  }
  return k === 1;
}

/**
 * Numbers the stems of analysed texts: each distinct stem gets a small integer id, so a text becomes an
 * `Int32Array` of stem ids ({@link StemVocabulary.idsOf}, the same stems in the same order as `stems()`)
 * and per-query lookups index typed arrays instead of hashing strings. Ids are dense from 0 and never
 * reused; a vocabulary only grows (its owner replaces it, with every analysis holding its ids, when it is
 * too large: {@link StemVocabulary.size}). Words are looked up in place in the lower-cased text (an
 * open-addressing table of FNV-1a hashes), so a known word costs no substring.
 */
export class StemVocabulary {
  private readonly idOfStem = new Map<string, number>();
  private readonly stemOfId: string[] = [];
  // The word memo: `table` holds entry + 1 (0 = empty) at hash-probed slots; an entry is a word, its hash
  // and its stem id (-1 for a word `stems()` drops: stopword, one character).
  private table = new Int32Array(1 << 12);
  private words: string[] = [];
  private hashes: number[] = [];
  private wordIds: number[] = [];
  private buffer = new Int32Array(1024);
  private n = 0;
  private readonly wordMemoLimit: number;

  /** `wordMemoLimit`: distinct words remembered before the word memo starts over (default 200,000). */
  constructor(options: { wordMemoLimit?: number } = {}) {
    this.wordMemoLimit = options.wordMemoLimit ?? WORD_MEMO_LIMIT;
  }

  /** How many distinct stems have an id (ids are `0 .. size - 1`). */
  get size(): number {
    return this.stemOfId.length;
  }

  /** The id of a stem, numbering it when it is new. */
  idOf(stem: string): number {
    let id = this.idOfStem.get(stem);
    if (id === undefined) {
      id = this.stemOfId.length;
      this.idOfStem.set(stem, id);
      this.stemOfId.push(stem);
    }
    return id;
  }

  /** The stem an id stands for. */
  stemOf(id: number): string {
    return this.stemOfId[id];
  }

  /**
   * The stem ids of a text: `stems(text)` as ids, in order. Words are runs of letters and digits of the
   * lower-cased text; a text with surrogate pairs (letters outside the BMP) is split by `lowerWords`.
   */
  idsOf(text: string): Int32Array {
    const lower = text.toLowerCase();
    this.n = 0;
    let start = -1;
    let h = FNV_OFFSET;
    for (let i = 0; i <= lower.length; i++) {
      const ch = i < lower.length ? lower.charCodeAt(i) : 32;
      if (ch >= 0xd800 && ch <= 0xdfff) return this.idsOfWords(text);
      if (isWordUnit(ch)) {
        if (start < 0) {
          start = i;
          h = FNV_OFFSET;
        }
        h = Math.imul(h ^ ch, FNV_PRIME);
      } else if (start >= 0) {
        if (i - start >= 2) this.push(this.wordId(lower, start, i - start, h));
        start = -1;
      }
    }
    return this.buffer.slice(0, this.n);
  }

  /** {@link idsOf} through `lowerWords` (the regular-expression split `stems()` uses). */
  private idsOfWords(text: string): Int32Array {
    this.n = 0;
    for (const word of lowerWords(text)) {
      if (word.length < 2) continue;
      let h = FNV_OFFSET;
      for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
      this.push(this.wordId(word, 0, word.length, h));
    }
    return this.buffer.slice(0, this.n);
  }

  private push(id: number): void {
    if (id < 0) return;
    if (this.n === this.buffer.length) {
      const grown = new Int32Array(this.n * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.n++] = id;
  }

  /** The stem id (or -1) of the word `text[start, start + length)` whose FNV-1a hash is `h`. */
  private wordId(text: string, start: number, length: number, h: number): number {
    const mask = this.table.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = this.table[slot] - 1;
      if (e < 0) break;
      if (this.hashes[e] === h && this.words[e].length === length && text.startsWith(this.words[e], start)) return this.wordIds[e];
    }
    const word = text.substring(start, start + length);
    const stem = keptStem(word);
    const id = stem === undefined ? -1 : this.idOf(stem);
    if (this.words.length >= this.wordMemoLimit) this.clearWords();
    this.words.push(word);
    this.hashes.push(h);
    this.wordIds.push(id);
    if (this.words.length * 2 > this.table.length) this.rehash(this.table.length * 2);
    else this.place(this.words.length - 1);
    return id;
  }

  private place(e: number): void {
    const mask = this.table.length - 1;
    let slot = this.hashes[e] & mask;
    while (this.table[slot] !== 0) slot = (slot + 1) & mask;
    this.table[slot] = e + 1;
  }

  private rehash(size: number): void {
    this.table = new Int32Array(size);
    for (let e = 0; e < this.words.length; e++) this.place(e);
  }

  private clearWords(): void {
    this.words = [];
    this.hashes = [];
    this.wordIds = [];
    this.table = new Int32Array(1 << 12);
  }
}
