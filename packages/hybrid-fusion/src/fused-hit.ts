import type { LegValues, ScoredId, SearchLeg } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";

/** One leg's ranked results and the weight it gets in fusion. */
export interface RankedList {
  leg: SearchLeg;
  /** Non-negative; 0 leaves the list out of fusion. */
  weight: number;
  /** Best first; only the first occurrence of an id counts. */
  results: ScoredId[];
}

/** A fused result: id, fused score, and each leg's raw score and 1-based rank (null when absent). */
export interface FusedHit {
  id: string;
  score: number;
  scores: LegValues;
  ranks: LegValues;
}

/** Per-leg values with every leg absent. */
export function emptyLegValues(): LegValues {
  return { semantic: null, keyword: null, exact: null };
}

/** @throws HierdocError E_INVALID_ARGUMENT when a weight is negative or not finite. */
export function checkWeight(list: RankedList): void {
  if (!Number.isFinite(list.weight) || list.weight < 0) {
    throw new HierdocError("E_INVALID_ARGUMENT", `weight of the ${list.leg} leg must be a finite number >= 0 (got ${list.weight})`);
  }
}

/** Dedupes a result list on id, keeping the first occurrence (so ranks stay 1-based and dense). */
export function dedupe(results: ScoredId[]): ScoredId[] {
  const seen = new Set<string>();
  const out: ScoredId[] = [];
  for (const r of results) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    out.push(r);
  }
  return out;
}

/** Best (smallest) rank over the legs, Infinity when none. */
export function bestRank(hit: FusedHit): number {
  let best = Infinity;
  for (const r of [hit.ranks.semantic, hit.ranks.keyword, hit.ranks.exact]) if (r !== null && r < best) best = r;
  return best;
}
