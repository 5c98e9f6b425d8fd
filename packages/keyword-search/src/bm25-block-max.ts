import type { QueryTerm } from "./bm25-scoring.js";
import type { TopK } from "./top-k.js";

/** What a block-max pass reads besides the query terms. */
export interface BlockMaxContext {
  /** Slots `0 … slots − 1` are scored. */
  slots: number;
  /** k1·(1 − b + b·dl/avgdl) per slot. */
  norms: Float64Array;
  /** k1 + 1 for okapi, 1 for lucene. */
  tfMul: number;
  /** k1, b and the average length: a block's bound is weight·f(maxTf, minLen). */
  k1: number;
  b: number;
  avgdl: number;
  /** Live flag per slot, or null when no slot is dead. */
  live: Uint8Array | null;
  /** Allowed slots, or null for all. */
  mask: Uint8Array | null;
}

/** Documents per window: bounds are taken, and terms split into essential and not, per window. */
const WINDOW = 4096;
/** Bounds are compared with this relative slack, so rounding in a sum never prunes a document that ties. */
const SLACK = 1 + 1e-9;

/**
 * Exact top-k BM25 by windowed block-max MaxScore (after Lucene's MaxScoreBulkScorer). The slots are cut into
 * windows of {@link WINDOW} documents. Per window, each term's bound is the largest bound of its blocks there;
 * a window whose bounds add up to less than the current k-th best score is skipped, and the terms of smallest
 * bound that add up to less than it are non-essential. The essential terms' postings are accumulated
 * term-at-a-time; then the non-essential terms, largest bound first, are added to the documents that can still
 * reach the k-th best (a merge over the window's postings, or a galloping probe per document when few remain),
 * dropping those that no longer can; the survivors are scored in full and offered to the heap.
 *
 * Full scores are summed in the order of `terms`, so every document gets the same sum an exhaustive pass in
 * that order gives (identical scores, identical ties). Not reentrant: one instance per index, buffers reused
 * across queries.
 */
export class BlockMaxScorer {
  /**
   * Work of the last {@link collect}: windows (and how many were skipped by their bounds), postings read by the
   * accumulation, documents still possible after the essential terms, documents scored in full.
   */
  readonly stats = { windows: 0, skipped: 0, postings: 0, candidates: 0, scored: 0 };
  private readonly acc = new Float64Array(WINDOW);
  /** One bit per document of the window: still possible (cleared when dropped, and after the window). */
  private readonly seen = new Int32Array(WINDOW >>> 5);
  private pos = new Int32Array(0);
  private probe = new Int32Array(0);
  private wb = new Float64Array(0);
  private suffix = new Float64Array(0);
  private order = new Int32Array(0);
  private prefix = new Float64Array(0);

  /** Offers to `heap`, with its exact score, every document that can be among the best `heap` keeps. */
  collect(ctx: BlockMaxContext, terms: readonly QueryTerm[], heap: TopK): void {
    const m = terms.length;
    if (m === 0) return;
    this.ensure(m);
    const { pos, probe, wb, suffix, order, prefix } = this;
    const stats = this.stats;
    stats.windows = stats.skipped = stats.postings = stats.candidates = stats.scored = 0;
    pos.fill(0, 0, m);
    probe.fill(0, 0, m);
    let theta = -Infinity;
    for (let lo = 0, hi = 0; lo < ctx.slots; lo = hi) {
      hi = Math.min(lo + WINDOW, ctx.slots);
      stats.windows++;
      let total = 0;
      for (let i = 0; i < m; i++) {
        const { docs, n } = terms[i].postings;
        const p = advance(docs, n, probe[i], lo);
        pos[i] = probe[i] = p;
        wb[i] = p < n && docs[p] < hi ? windowBound(ctx, terms[i], p, hi) : 0;
        total += wb[i];
      }
      if (total * SLACK < theta) {
        stats.skipped++;
        continue;
      }
      suffix[m] = 0;
      for (let i = m - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + wb[i];
      // Terms by window bound, smallest first; prefix[j]: the j smallest bounds added up.
      for (let i = 0; i < m; i++) order[i] = i;
      for (let i = 1; i < m; i++) {
        const o = order[i];
        let j = i;
        for (; j > 0 && wb[order[j - 1]] > wb[o]; j--) order[j] = order[j - 1];
        order[j] = o;
      }
      let first = 0;
      prefix[0] = 0;
      for (; first < m && (prefix[first] + wb[order[first]]) * SLACK < theta; first++) prefix[first + 1] = prefix[first] + wb[order[first]];
      for (let e = first; e < m; e++) if (wb[order[e]] > 0) stats.postings += this.accumulate(ctx, terms[order[e]], pos[order[e]], lo, hi);
      let left = this.keep(lo, hi, prefix[first], theta);
      stats.candidates += left;
      for (let e = first - 1; e >= 0 && left > 0 && wb[order[e]] > 0; e--) {
        left = this.addNonEssential(ctx, terms[order[e]], order[e], lo, hi, left, prefix[e], theta);
      }
      if (left > 0) theta = this.scoreSurvivors(ctx, terms, lo, hi, heap, theta);
    }
  }

  /**
   * Adds the term's postings in the window to the accumulators, marking their documents (an unmarked document's
   * accumulator is 0: {@link keep} and {@link scoreSurvivors} reset what they unmark). Returns postings read.
   */
  private accumulate(ctx: BlockMaxContext, term: QueryTerm, from: number, lo: number, hi: number): number {
    const { norms, tfMul, live, mask } = ctx;
    const { acc, seen } = this;
    const { docs, tfs, n } = term.postings;
    const weight = term.weight;
    const end = advance(docs, n, from, hi);
    if (live === null && mask === null) {
      for (let p = from; p < end; p++) {
        const tf = tfs[p];
        const x = docs[p] - lo;
        acc[x] += weight * ((tf * tfMul) / (tf + norms[docs[p]]));
        seen[x >>> 5] |= 1 << (x & 31);
      }
      return end - from;
    }
    for (let p = from; p < end; p++) {
      const d = docs[p];
      if ((live !== null && live[d] === 0) || (mask !== null && mask[d] === 0)) continue;
      const tf = tfs[p];
      const x = d - lo;
      acc[x] += weight * ((tf * tfMul) / (tf + norms[d]));
      seen[x >>> 5] |= 1 << (x & 31);
    }
    return end - from;
  }

  /** Drops the marked documents whose score plus `rest` cannot reach `theta`. Returns how many are left. */
  private keep(lo: number, hi: number, rest: number, theta: number): number {
    const { acc, seen } = this;
    const words = (hi - lo + 31) >>> 5;
    let left = 0;
    for (let wi = 0; wi < words; wi++) {
      let bits = seen[wi];
      let kept = bits;
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        const x = (wi << 5) + 31 - Math.clz32(low);
        if ((acc[x] + rest) * SLACK < theta) {
          kept ^= low;
          acc[x] = 0;
        } else {
          left++;
        }
      }
      seen[wi] = kept;
    }
    return left;
  }

  /**
   * Adds a non-essential term to the marked documents (a merge over its window postings, or a probe per document
   * when few are left), then drops those whose score plus `rest` cannot reach `theta`. Returns how many are left.
   */
  private addNonEssential(ctx: BlockMaxContext, term: QueryTerm, i: number, lo: number, hi: number, left: number, rest: number, theta: number): number {
    const { norms, tfMul } = ctx;
    const { acc, seen, probe } = this;
    const { docs, tfs, n } = term.postings;
    const weight = term.weight;
    const end = advance(docs, n, probe[i], hi);
    if (left * 8 < end - probe[i]) {
      const words = (hi - lo + 31) >>> 5;
      let p = probe[i];
      let kept = 0;
      for (let wi = 0; wi < words; wi++) {
        let bits = seen[wi];
        let still = bits;
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          const x = (wi << 5) + 31 - Math.clz32(low);
          const d = lo + x;
          p = advance(docs, end, p, d);
          if (p < end && docs[p] === d) {
            const tf = tfs[p];
            acc[x] += weight * ((tf * tfMul) / (tf + norms[d]));
          }
          if ((acc[x] + rest) * SLACK < theta) {
            still ^= low;
            acc[x] = 0;
          } else {
            kept++;
          }
        }
        seen[wi] = still;
      }
      return kept;
    }
    for (let p = probe[i]; p < end; p++) {
      const x = docs[p] - lo;
      if ((seen[x >>> 5] & (1 << (x & 31))) !== 0) {
        const tf = tfs[p];
        acc[x] += weight * ((tf * tfMul) / (tf + norms[docs[p]]));
      }
    }
    return this.keep(lo, hi, rest, theta);
  }

  /**
   * Scores the marked documents in full (terms in the given order, probing forward), offers them to the heap and
   * clears the marks. Returns the new k-th best score.
   */
  private scoreSurvivors(ctx: BlockMaxContext, terms: readonly QueryTerm[], lo: number, hi: number, heap: TopK, theta: number): number {
    const { norms, tfMul } = ctx;
    const { acc, seen, probe, wb, suffix } = this;
    const m = terms.length;
    const words = (hi - lo + 31) >>> 5;
    for (let wi = 0; wi < words; wi++) {
      let bits = seen[wi];
      seen[wi] = 0;
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        const x = (wi << 5) + 31 - Math.clz32(low);
        // Every term is in the accumulator by now (summed in another order): a cheap test against the current theta.
        const approx = acc[x];
        acc[x] = 0;
        if (approx * SLACK < theta) continue;
        const d = lo + x;
        this.stats.scored++;
        let s = 0;
        let i = 0;
        for (; i < m; i++) {
          if (wb[i] === 0) continue;
          if ((s + suffix[i]) * SLACK < theta) break;
          const { docs, tfs, n } = terms[i].postings;
          const p = advance(docs, n, probe[i], d);
          probe[i] = p;
          if (p < n && docs[p] === d) {
            const tf = tfs[p];
            s += terms[i].weight * ((tf * tfMul) / (tf + norms[d]));
          }
        }
        if (i < m) continue;
        heap.push(s, d);
        if (heap.full) theta = heap.worstScore;
      }
    }
    return theta;
  }

  private ensure(m: number): void {
    if (this.pos.length >= m) return;
    this.pos = new Int32Array(m);
    this.probe = new Int32Array(m);
    this.wb = new Float64Array(m);
    this.suffix = new Float64Array(m + 1);
    this.order = new Int32Array(m);
    this.prefix = new Float64Array(m + 1);
  }
}

/** The largest bound of the term's blocks that hold postings from index `p` up to the first document ≥ `hi`. */
function windowBound(ctx: BlockMaxContext, term: QueryTerm, p: number, hi: number): number {
  const blocks = term.blocks;
  if (blocks === null) return term.bound;
  const { size, maxTf, minLen } = blocks;
  const { docs } = term.postings;
  const count = maxTf.length;
  const { tfMul, k1, b, avgdl } = ctx;
  let best = 0;
  for (let j = Math.floor(p / size); j < count && docs[j * size] < hi; j++) {
    const tf = maxTf[j];
    const f = (tf * tfMul) / (tf + k1 * (1 - b + (b * minLen[j]) / avgdl));
    if (f > best) best = f;
  }
  return term.weight * best;
}

/** The first index ≥ `from` whose document is ≥ `target` (`n` when none), by galloping then binary search. */
function advance(docs: Uint32Array, n: number, from: number, target: number): number {
  if (from >= n || docs[from] >= target) return from;
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < n && docs[hi] < target) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > n) hi = n;
  lo++;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
