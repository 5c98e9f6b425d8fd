import { keptStem, lowerWords } from "./text.js";

/** Distinct words remembered with their stem id; past this the memo restarts (ids stay valid). */
const WORD_MEMO_LIMIT = 200_000;

/**
 * Numbers the stems of analysed texts: each distinct stem gets a small integer id, so a text becomes an
 * `Int32Array` of stem ids ({@link StemVocabulary.idsOf}, the same stems in the same order as `stems()`)
 * and per-query lookups index typed arrays instead of hashing strings. Ids are dense from 0 and never
 * reused; a vocabulary only grows (its owner replaces it, with every analysis holding its ids, when it is
 * too large: {@link StemVocabulary.size}).
 */
export class StemVocabulary {
  private readonly idOfStem = new Map<string, number>();
  /** Stem id of each lower-cased word seen, -1 for a dropped word (stopword, one character). */
  private readonly idOfWord = new Map<string, number>();
  private readonly stemOfId: string[] = [];
  private buffer = new Int32Array(1024);

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

  /** The stem ids of a text: `stems(text)` as ids, in order. */
  idsOf(text: string): Int32Array {
    let n = 0;
    for (const word of lowerWords(text)) {
      let id = this.idOfWord.get(word);
      if (id === undefined) {
        const stem = keptStem(word);
        id = stem === undefined ? -1 : this.idOf(stem);
        if (this.idOfWord.size >= WORD_MEMO_LIMIT) this.idOfWord.clear();
        this.idOfWord.set(word, id);
      }
      if (id < 0) continue;
      if (n === this.buffer.length) {
        const grown = new Int32Array(n * 2);
        grown.set(this.buffer);
        this.buffer = grown;
      }
      this.buffer[n++] = id;
    }
    return this.buffer.slice(0, n);
  }
}
