import type { StemVocabulary } from "./stem-vocabulary.js";

/**
 * What one scan of a text found of the query ({@link QueryTerms.scan}); buffers reused from text to text,
 * valid until the next scan.
 */
export interface TermScan {
  /** Occurrences of each distinct query stem, in {@link QueryTerms.stems} order of first occurrence. */
  tf: Int32Array;
  /** 1 where the text holds the distinct query bigram (index as in {@link QueryTerms.bigramOfEntry}). */
  bigrams: Uint8Array;
  /** 1 where the text holds the distinct query trigram. */
  trigrams: Uint8Array;
  /** Distinct query stems present. */
  covered: number;
  /** Width in stems of the shortest window holding every present query stem (0 when none is present). */
  width: number;
}

/**
 * A query's stems as slots (0 .. size-1, the distinct stems in order of first occurrence) with its bigrams
 * and trigrams numbered, built once per query. While bound ({@link QueryTerms.bind} … {@link QueryTerms.unbind})
 * the owner's slot table maps a stem id to its slot, so scanning a text is one pass over its ids.
 */
export class QueryTerms {
  /** The query's stems in order (repeats kept). */
  readonly seq: string[];
  /** The distinct stems, in order of first occurrence. */
  readonly stems: string[];
  /** How many distinct stems. */
  readonly size: number;
  /** For each bigram of the stem sequence (in order, repeats kept): its distinct bigram index. */
  readonly bigramOfEntry: Int32Array;
  /** For each trigram of the stem sequence (in order, repeats kept): its distinct trigram index. */
  readonly trigramOfEntry: Int32Array;
  private readonly ids: Int32Array;
  /** Distinct bigram index of slot pair `a * size + b`, or -1. */
  private readonly bigramIndex: Int32Array;
  /** Slots of each distinct trigram, three per trigram. */
  private readonly trigramSlots: Int32Array;
  private readonly trigramCount: number;
  private slots: Int32Array = new Int32Array(0);
  private readonly scanOut: TermScan;
  private readonly counts: Int32Array;
  private hitPos = new Int32Array(64);
  private hitSlot = new Int32Array(64);

  constructor(seq: string[], vocabulary: StemVocabulary) {
    this.seq = seq;
    const slotOf = new Map<string, number>();
    for (const s of seq) if (!slotOf.has(s)) slotOf.set(s, slotOf.size);
    this.stems = [...slotOf.keys()];
    const d = (this.size = this.stems.length);
    this.ids = Int32Array.from(this.stems, (s) => vocabulary.idOf(s));
    const slotSeq = seq.map((s) => slotOf.get(s)!);
    this.bigramIndex = new Int32Array(d * d).fill(-1);
    let bigrams = 0;
    this.bigramOfEntry = new Int32Array(Math.max(0, seq.length - 1));
    for (let i = 0; i + 2 <= seq.length; i++) {
      const key = slotSeq[i] * d + slotSeq[i + 1];
      if (this.bigramIndex[key] < 0) this.bigramIndex[key] = bigrams++;
      this.bigramOfEntry[i] = this.bigramIndex[key];
    }
    const trigramKeys = new Map<number, number>();
    const tri: number[] = [];
    this.trigramOfEntry = new Int32Array(Math.max(0, seq.length - 2));
    for (let i = 0; i + 3 <= seq.length; i++) {
      const key = (slotSeq[i] * d + slotSeq[i + 1]) * d + slotSeq[i + 2];
      let t = trigramKeys.get(key);
      if (t === undefined) {
        t = trigramKeys.size;
        trigramKeys.set(key, t);
        tri.push(slotSeq[i], slotSeq[i + 1], slotSeq[i + 2]);
      }
      this.trigramOfEntry[i] = t;
    }
    this.trigramSlots = Int32Array.from(tri);
    this.trigramCount = trigramKeys.size;
    this.counts = new Int32Array(d);
    this.scanOut = { tf: new Int32Array(d), bigrams: new Uint8Array(bigrams), trigrams: new Uint8Array(this.trigramCount), covered: 0, width: 0 };
  }

  /** Maps the query's stem ids to slots in `slots` (an owner's table, -1 everywhere else, longer than every id scanned). */
  bind(slots: Int32Array): void {
    this.slots = slots;
    for (let j = 0; j < this.size; j++) slots[this.ids[j]] = j;
  }

  /** Restores -1 in the owner's slot table. */
  unbind(): void {
    for (let j = 0; j < this.size; j++) this.slots[this.ids[j]] = -1;
    this.slots = new Int32Array(0);
  }

  /** Which query stems of `slot` order occur in `ids` (1/0 into `out`); returns how many. */
  presence(ids: Int32Array, out: Uint8Array): number {
    out.fill(0);
    let n = 0;
    const slots = this.slots;
    for (let p = 0; p < ids.length; p++) {
      const j = slots[ids[p]];
      if (j >= 0 && out[j] === 0) {
        out[j] = 1;
        n++;
      }
    }
    return n;
  }

  /** One pass over a text's stem ids: query-stem counts, query bigrams and trigrams present, the shortest window. */
  scan(ids: Int32Array): TermScan {
    const out = this.scanOut;
    const { tf, bigrams, trigrams } = out;
    tf.fill(0);
    bigrams.fill(0);
    trigrams.fill(0);
    if (this.hitPos.length < ids.length) {
      this.hitPos = new Int32Array(ids.length);
      this.hitSlot = new Int32Array(ids.length);
    }
    const { slots, hitPos, hitSlot, bigramIndex, trigramSlots, trigramCount } = this;
    const d = this.size;
    let hits = 0;
    let covered = 0;
    let prev = -1;
    let prev2 = -1;
    for (let p = 0; p < ids.length; p++) {
      const j = slots[ids[p]];
      if (j >= 0) {
        if (tf[j]++ === 0) covered++;
        hitPos[hits] = p;
        hitSlot[hits++] = j;
        if (prev >= 0) {
          const b = bigramIndex[prev * d + j];
          if (b >= 0) {
            bigrams[b] = 1;
            if (prev2 >= 0) {
              for (let t = 0; t < trigramCount; t++) {
                if (trigramSlots[3 * t] === prev2 && trigramSlots[3 * t + 1] === prev && trigramSlots[3 * t + 2] === j) trigrams[t] = 1;
              }
            }
          }
        }
      }
      prev2 = prev;
      prev = j;
    }
    out.covered = covered;
    out.width = covered === 0 ? 0 : this.window(hits, covered);
    return out;
  }

  /** Shortest span of hit positions holding all `need` distinct slots (two pointers over the hits). */
  private window(hits: number, need: number): number {
    const { counts, hitPos, hitSlot } = this;
    counts.fill(0);
    let have = 0;
    let best = Infinity;
    let left = 0;
    for (let right = 0; right < hits; right++) {
      if (counts[hitSlot[right]]++ === 0) have++;
      while (have === need) {
        best = Math.min(best, hitPos[right] - hitPos[left] + 1);
        if (--counts[hitSlot[left]] === 0) have--;
        left++;
      }
    }
    return best;
  }
}
