import type { Postings } from "./postings.js";

/** One query term: its postings, its weight (IDF × query frequency) and upper bounds of its contribution. */
export interface QueryTerm {
  postings: Postings;
  weight: number;
  /** No document gets more than this from the term (weight × best tf-norm factor). */
  bound: number;
  /**
   * The term's block-max bounds (block j: postings `j·size …`, their largest tf and shortest length), or null
   * when its postings grew since the segment was built (then `bound` holds for every block).
   */
  blocks: { size: number; maxTf: Uint32Array; minLen: Uint32Array } | null;
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
 * Exhaustive term-at-a-time BM25 accumulation, terms in the given order (the exact reference; top-k searches
 * with positive weights use `BlockMaxScorer` instead). Returns the slots scored (their values in
 * `scratch`) as a view of `ctx.touched`, valid until the next call.
 */
export function scoreTerms(ctx: ScoringContext, terms: readonly QueryTerm[]): Uint32Array {
  let count = 0;
  for (const term of terms) count = scanAll(ctx, term, count);
  return ctx.touched.subarray(0, count);
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
