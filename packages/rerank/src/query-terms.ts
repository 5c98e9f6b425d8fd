import type { StemVocabulary } from "./stem-vocabulary.js";

/** Distinct query stems up to which bigrams are looked up in a dense `size × size` table (64 KB), a Map past it. */
const DENSE_LIMIT = 128;

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
  /** Distinct bigram index of slot pair `a * size + b` (-1: none); a Map past {@link DENSE_LIMIT} distinct stems. */
  private readonly bigramIndex: Int32Array | Map<number, number>;
  /** Trigrams by their first bigram: those of bigram `h` are `headThird/headTrigram[headStart[h] .. headStart[h + 1])`. */
  private readonly headStart: Int32Array;
  private readonly headThird: Int32Array;
  private readonly headTrigram: Int32Array;
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
    const index = d <= DENSE_LIMIT ? new Int32Array(d * d).fill(-1) : new Map<number, number>();
    this.bigramIndex = index;
    let bigrams = 0;
    this.bigramOfEntry = new Int32Array(Math.max(0, seq.length - 1));
    for (let i = 0; i + 2 <= seq.length; i++) {
      const key = slotSeq[i] * d + slotSeq[i + 1];
      let b = index instanceof Map ? (index.get(key) ?? -1) : index[key];
      if (b < 0) {
        b = bigrams++;
        if (index instanceof Map) index.set(key, b);
        else index[key] = b;
      }
      this.bigramOfEntry[i] = b;
    }
    // Distinct trigrams, then grouped by their first bigram (which is always a query bigram).
    const trigramKeys = new Map<string, number>();
    const firsts: number[] = [];
    const thirds: number[] = [];
    this.trigramOfEntry = new Int32Array(Math.max(0, seq.length - 2));
    for (let i = 0; i + 3 <= seq.length; i++) {
      const key = `${this.bigramOfEntry[i]} ${slotSeq[i + 2]}`;
      let t = trigramKeys.get(key);
      if (t === undefined) {
        t = trigramKeys.size;
        trigramKeys.set(key, t);
        firsts.push(this.bigramOfEntry[i]);
        thirds.push(slotSeq[i + 2]);
      }
      this.trigramOfEntry[i] = t;
    }
    this.headStart = new Int32Array(bigrams + 1);
    for (const h of firsts) this.headStart[h + 1]++;
    for (let h = 0; h < bigrams; h++) this.headStart[h + 1] += this.headStart[h];
    this.headThird = new Int32Array(firsts.length);
    this.headTrigram = new Int32Array(firsts.length);
    const fill = this.headStart.slice(0, bigrams);
    firsts.forEach((h, t) => {
      this.headThird[fill[h]] = thirds[t];
      this.headTrigram[fill[h]++] = t;
    });
    this.counts = new Int32Array(d);
    this.scanOut = { tf: new Int32Array(d), bigrams: new Uint8Array(bigrams), trigrams: new Uint8Array(firsts.length), covered: 0, width: 0 };
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
    const { slots, hitPos, hitSlot, bigramIndex, headStart, headThird, headTrigram } = this;
    const dense = bigramIndex instanceof Map ? null : bigramIndex;
    const d = this.size;
    let hits = 0;
    let covered = 0;
    let prev = -1;
    // The query bigram ending at the previous token (-1: none): a trigram is that bigram plus this token.
    let prevBigram = -1;
    for (let p = 0; p < ids.length; p++) {
      const j = slots[ids[p]];
      let b = -1;
      if (j >= 0) {
        if (tf[j]++ === 0) covered++;
        hitPos[hits] = p;
        hitSlot[hits++] = j;
        if (prev >= 0) {
          b = dense ? dense[prev * d + j] : ((bigramIndex as Map<number, number>).get(prev * d + j) ?? -1);
          if (b >= 0) bigrams[b] = 1;
        }
        if (prevBigram >= 0) {
          for (let k = headStart[prevBigram]; k < headStart[prevBigram + 1]; k++) if (headThird[k] === j) trigrams[headTrigram[k]] = 1;
        }
      }
      prevBigram = b;
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
