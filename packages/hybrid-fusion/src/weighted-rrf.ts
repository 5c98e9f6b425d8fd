import { HierdocError } from "@hierdoc/core";
import { bestRank, checkWeight, dedupe, emptyLegValues, type FusedHit, type RankedList } from "./fused-hit.js";

/** Options of {@link weightedRrf}. */
export interface RrfOptions {
  /** RRF constant; default 60. */
  k?: number;
}

/**
 * Weighted reciprocal rank fusion: score(d) = Σ_legs weight_leg / (k + rank_leg(d)), rank 1-based,
 * each list deduped on id (first occurrence wins). Lists with weight 0 are left out. Ties: better best
 * rank first, then the order in which ids first appear (list order, then rank), so output is deterministic.
 * @throws HierdocError E_INVALID_ARGUMENT for a negative / non-finite weight or k.
 */
export function weightedRrf(lists: RankedList[], options: RrfOptions = {}): FusedHit[] {
  const k = options.k ?? 60;
  if (!Number.isFinite(k) || k < 0) throw new HierdocError("E_INVALID_ARGUMENT", `RRF k must be a finite number >= 0 (got ${k})`);
  const hits = new Map<string, FusedHit & { order: number }>();
  let order = 0;
  for (const list of lists) {
    checkWeight(list);
    if (list.weight === 0) continue;
    dedupe(list.results).forEach((r, i) => {
      const rank = i + 1;
      let hit = hits.get(r.id);
      if (!hit) {
        hit = { id: r.id, score: 0, scores: emptyLegValues(), ranks: emptyLegValues(), order: order++ };
        hits.set(r.id, hit);
      }
      hit.score += list.weight / (k + rank);
      if (hit.ranks[list.leg] === null) {
        hit.ranks[list.leg] = rank;
        hit.scores[list.leg] = r.score;
      }
    });
  }
  return [...hits.values()]
    .sort((a, b) => b.score - a.score || bestRank(a) - bestRank(b) || a.order - b.order)
    .map(({ id, score, scores, ranks }) => ({ id, score, scores, ranks }));
}
