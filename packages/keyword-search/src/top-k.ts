/**
 * Keeps the best `k` (score, slot) pairs seen so far in a bounded min-heap. Higher score wins; equal
 * scores are ordered by `tie` (e.g. by document id, so the order does not depend on the insertion
 * history), else by the lower slot.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  private n = 0;

  constructor(
    private readonly k: number,
    private readonly tie?: (a: number, b: number) => number,
  ) {
    this.scores = new Float64Array(Math.max(1, k));
    this.slots = new Int32Array(Math.max(1, k));
  }

  /** Offers one candidate. */
  push(score: number, slot: number): void {
    if (this.k <= 0) return;
    if (this.n < this.k) {
      this.scores[this.n] = score;
      this.slots[this.n] = slot;
      this.up(this.n++);
      return;
    }
    const worst = this.scores[0];
    if (score < worst || (score === worst && !this.before(slot, this.slots[0]))) return;
    this.scores[0] = score;
    this.slots[0] = slot;
    this.down(0);
  }

  /** True once `k` candidates are kept: a new one must then beat {@link worstScore} (or tie and win the tie). */
  get full(): boolean {
    return this.n >= this.k;
  }

  /** The lowest kept score (−Infinity when none is kept). */
  get worstScore(): number {
    return this.n > 0 ? this.scores[0] : -Infinity;
  }

  /** The kept candidates, best first. */
  sorted(): Array<{ slot: number; score: number }> {
    const out: Array<{ slot: number; score: number }> = [];
    for (let i = 0; i < this.n; i++) out.push({ slot: this.slots[i], score: this.scores[i] });
    return out.sort((a, b) => b.score - a.score || (this.before(a.slot, b.slot) ? -1 : 1));
  }

  /** Whether slot `a` ranks before slot `b` at an equal score. */
  private before(a: number, b: number): boolean {
    return this.tie ? this.tie(a, b) < 0 : a < b;
  }

  private better(s1: number, d1: number, s2: number, d2: number): boolean {
    return s1 > s2 || (s1 === s2 && this.before(d1, d2));
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.better(this.scores[p], this.slots[p], this.scores[i], this.slots[i])) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.n && this.better(this.scores[m], this.slots[m], this.scores[l], this.slots[l])) m = l;
      if (r < this.n && this.better(this.scores[m], this.slots[m], this.scores[r], this.slots[r])) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    const s = this.scores[a];
    this.scores[a] = this.scores[b];
    this.scores[b] = s;
    const d = this.slots[a];
    this.slots[a] = this.slots[b];
    this.slots[b] = d;
  }
}
