import type { Postings } from "./postings.js";
import { TopK } from "./top-k.js";

/** One query term: its postings, its weight (IDF × query frequency) and an upper bound of its contribution. */
export interface QueryTerm {
  postings: Postings;
  weight: number;
  /** No document gets more than this from the term (weight × best tf-norm factor). */
  bound: number;
}

/** The arrays a scoring pass reads and writes. */
export interface ScoringContext {
  /** k1·(1 − b + b·dl/avgdl) per slot. */
  norms: Float64Array;
  /** k1 + 1 for okapi, 1 for lucene. */
  tfMul: number;
  /** Live flag per slot, or null when no slot is dead. */
  live: Uint8Array | null;
  /** Allowed slots, or null for all. */
  mask: Uint8Array | null;
  /** Score accumulator per slot; valid where `stamp[slot] === gen`. */
  scratch: Float64Array;
  stamp: Uint32Array;
  gen: number;
  /** Reusable buffer of at least one entry per slot for the touched list. */
  touched: Uint32Array;
}

/**
 * Term-at-a-time BM25 accumulation. With `k` set and every weight positive, uses MaxScore pruning:
 * terms run rarest first, and once no unseen document can reach the current k-th best score, the
 * remaining (common) terms only update surviving candidates by a galloping merge over their postings.
 * Scores of the returned slots are exact. Returns the slots scored (their values in `scratch`); the array
 * may be a view of `ctx.touched`, valid until the next call.
 */
export function scoreTerms(ctx: ScoringContext, input: QueryTerm[], k: number | null): Uint32Array {
  const prune = k !== null && input.every((t) => t.weight > 0);
  const terms = prune ? [...input].sort((a, b) => b.bound - a.bound) : input;
  const bound = terms.map((t) => t.bound * (1 + 1e-9));
  const remaining = new Float64Array(terms.length + 1);
  for (let i = terms.length - 1; i >= 0; i--) remaining[i] = remaining[i + 1] + bound[i];
  let count = 0;
  let i = 0;
  let threshold = -Infinity;
  for (; i < terms.length; i++) {
    if (prune && i > 0 && count >= (k as number) && terms[i].postings.n > count) {
      threshold = kthBest(ctx.scratch, ctx.touched.subarray(0, count), k as number);
      if (remaining[i] < threshold) break;
    }
    count = scanAll(ctx, terms[i], count);
  }
  const touched = ctx.touched.subarray(0, count);
  if (i === terms.length) return touched;
  let candidates = touched.filter((d) => ctx.scratch[d] + remaining[i] >= threshold).sort();
  for (; i < terms.length; i++) {
    addToCandidates(ctx, terms[i], candidates);
    if (i + 1 < terms.length && candidates.length > (k as number)) {
      threshold = Math.max(threshold, kthBest(ctx.scratch, candidates, k as number));
      const rest = remaining[i + 1];
      candidates = candidates.filter((d) => ctx.scratch[d] + rest >= threshold);
    }
  }
  return candidates;
}

function scanAll(ctx: ScoringContext, term: QueryTerm, count: number): number {
  const { norms, tfMul, live, mask, scratch, stamp, gen, touched } = ctx;
  const { docs, tfs, n } = term.postings;
  const weight = term.weight;
  for (let i = 0; i < n; i++) {
    const d = docs[i];
    if ((live !== null && live[d] === 0) || (mask !== null && mask[d] === 0)) continue;
    const tf = tfs[i];
    const w = weight * ((tf * tfMul) / (tf + norms[d]));
    if (stamp[d] !== gen) {
      stamp[d] = gen;
      scratch[d] = w;
      touched[count++] = d;
    } else {
      scratch[d] += w;
    }
  }
  return count;
}

function addToCandidates(ctx: ScoringContext, term: QueryTerm, sorted: Uint32Array): void {
  const { norms, tfMul, scratch } = ctx;
  const { docs, tfs, n } = term.postings;
  let j = 0;
  for (const d of sorted) {
    if (j >= n) return;
    if (docs[j] < d) {
      let step = 1;
      let hi = j + 1;
      while (hi < n && docs[hi] < d) {
        j = hi;
        step *= 2;
        hi = j + step;
      }
      let lo = j + 1;
      hi = Math.min(hi, n);
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (docs[mid] < d) lo = mid + 1;
        else hi = mid;
      }
      j = lo;
    }
    if (j < n && docs[j] === d) {
      const tf = tfs[j];
      scratch[d] += term.weight * ((tf * tfMul) / (tf + norms[d]));
    }
  }
}

function kthBest(scratch: Float64Array, slots: ArrayLike<number>, k: number): number {
  const heap = new TopK(k);
  for (let i = 0; i < slots.length; i++) heap.push(scratch[slots[i]], slots[i]);
  const best = heap.sorted();
  return best.length < k ? -Infinity : best[best.length - 1].score;
}
