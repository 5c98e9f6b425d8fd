/**
 * Bounded top-k selection over (index, score) pairs: a min-heap of at most `k` entries, so selecting
 * from `n` candidates costs O(n log k) and O(k) memory.
 *
 * Use when scanning many scores and keeping only the best few. Ties are broken by the lower index
 * (earlier candidate first), which keeps results deterministic.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly indexes: Int32Array;
  private size = 0;

  /** @param k the number of entries to keep; `k <= 0` keeps nothing. */
  constructor(readonly k: number) {
    const cap = Math.max(0, Math.floor(k));
    this.scores = new Float64Array(cap);
    this.indexes = new Int32Array(cap);
  }

  /** The smallest score kept so far, or -Infinity while fewer than `k` entries are kept. */
  get threshold(): number {
    return this.size < this.scores.length ? -Infinity : this.scores[0];
  }

  /** Offers a candidate; it is kept when it beats the current k-th best. */
  push(index: number, score: number): void {
    const cap = this.scores.length;
    if (cap === 0) return;
    if (this.size < cap) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(score, index, this.scores[parent], this.indexes[parent])) break;
        this.scores[i] = this.scores[parent];
        this.indexes[i] = this.indexes[parent];
        i = parent;
      }
      this.scores[i] = score;
      this.indexes[i] = index;
      return;
    }
    if (!this.worse(this.scores[0], this.indexes[0], score, index)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= cap) break;
      const r = l + 1;
      let c = l;
      if (r < cap && this.worse(this.scores[r], this.indexes[r], this.scores[l], this.indexes[l])) c = r;
      if (!this.worse(this.scores[c], this.indexes[c], score, index)) break;
      this.scores[i] = this.scores[c];
      this.indexes[i] = this.indexes[c];
      i = c;
    }
    this.scores[i] = score;
    this.indexes[i] = index;
  }

  /** The kept entries, best first. */
  sorted(): Array<{ index: number; score: number }> {
    const out: Array<{ index: number; score: number }> = [];
    for (let i = 0; i < this.size; i++) out.push({ index: this.indexes[i], score: this.scores[i] });
    return out.sort((a, b) => b.score - a.score || a.index - b.index);
  }

  /** True when (s1, i1) ranks below (s2, i2). */
  private worse(s1: number, i1: number, s2: number, i2: number): boolean {
    return s1 < s2 || (s1 === s2 && i1 > i2);
  }
}
