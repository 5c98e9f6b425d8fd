/**
 * A read-only word → row lookup over UTF-8 vocabulary bytes, with a precomputed open-addressing hash table,
 * so loading needs no per-word JS string or Map entry (building a Map of 341k words costs ~0.3–0.5 s).
 *
 * Hash: FNV-1a over the UTF-16 code units of the word, then the murmur3 32-bit finaliser (fmix32);
 * slot = hash & (size − 1); linear probing; a slot
 * holds row + 1 (0 = empty). Table size is the power of two ≥ 3 × rows (load ≤ 1/3).
 */
export class GloveVocabulary {
  /** UTF-8 bytes of all words, back to back. */
  readonly bytes: Uint8Array;
  /** rows + 1 byte offsets into `bytes`: word r is bytes[offsets[r], offsets[r + 1]). */
  readonly offsets: Uint32Array;
  /** Open-addressing table of row + 1 (0 = empty); length is a power of two. */
  readonly table: Int32Array;
  private readonly mask: number;
  private readonly decoder = new TextDecoder();

  constructor(bytes: Uint8Array, offsets: Uint32Array, table: Int32Array) {
    this.bytes = bytes;
    this.offsets = offsets;
    this.table = table;
    this.mask = table.length - 1;
  }

  /** Number of words. */
  get size(): number {
    return this.offsets.length - 1;
  }

  /** Builds the vocabulary for `words` (row = index). A repeated word keeps its first row. */
  static fromWords(words: readonly string[]): GloveVocabulary {
    const encoder = new TextEncoder();
    const encoded = words.map((w) => encoder.encode(w));
    const offsets = new Uint32Array(words.length + 1);
    for (let i = 0; i < words.length; i++) offsets[i + 1] = offsets[i] + encoded[i].length;
    const bytes = new Uint8Array(offsets[words.length]);
    encoded.forEach((e, i) => bytes.set(e, offsets[i]));
    let size = 1;
    while (size < words.length * 3) size *= 2;
    const vocabulary = new GloveVocabulary(bytes, offsets, new Int32Array(size));
    words.forEach((word, row) => vocabulary.insert(word, row));
    return vocabulary;
  }

  private insert(word: string, row: number): void {
    let slot = fnv1a16(word) & this.mask;
    for (;;) {
      const entry = this.table[slot];
      if (entry === 0) {
        this.table[slot] = row + 1;
        return;
      }
      if (this.equals(entry - 1, word)) return;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Row of `word`, or undefined. */
  rowOf(word: string): number | undefined {
    let slot = fnv1a16(word) & this.mask;
    for (;;) {
      const entry = this.table[slot];
      if (entry === 0) return undefined;
      if (this.equals(entry - 1, word)) return entry - 1;
      slot = (slot + 1) & this.mask;
    }
  }

  /** The word at `row`. */
  wordAt(row: number): string {
    return this.decoder.decode(this.bytes.subarray(this.offsets[row], this.offsets[row + 1]));
  }

  private equals(row: number, word: string): boolean {
    const start = this.offsets[row];
    const end = this.offsets[row + 1];
    if (end - start < word.length) return false;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      if (c >= 0x80) return this.wordAt(row) === word;
      if (this.bytes[start + i] !== c) return false;
    }
    return end - start === word.length;
  }
}

/** FNV-1a over UTF-16 code units, then the murmur3 finaliser so the low bits (the slot) depend on every bit. */
function fnv1a16(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
