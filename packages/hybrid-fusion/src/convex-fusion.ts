import type { ScoredId } from "@hierdoc/core";
import { bestRank, checkWeight, dedupe, emptyLegValues, type FusedHit, type RankedList } from "./fused-hit.js";

/**
 * Min-max normalises scores to [0, 1] (best = 1). A list whose scores are all equal maps to 1s;
 * non-finite scores map to 0.
 */
export function minMaxNormalize(results: ScoredId[]): ScoredId[] {
  const finite = results.map((r) => r.score).filter(Number.isFinite);
  if (finite.length === 0) return results.map((r) => ({ id: r.id, score: 0 }));
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  return results.map((r) => ({
    id: r.id,
    score: !Number.isFinite(r.score) ? 0 : hi === lo ? 1 : (r.score - lo) / (hi - lo),
  }));
}

/**
 * Convex score fusion: score(d) = Σ_legs weight_leg × minmax_leg(d) (0 when the leg lacks d). Uses the
 * scores' magnitudes, unlike RRF; choose it when legs' scores are comparable after normalisation.
 * Per-leg `scores` keep the raw values. @throws HierdocError E_INVALID_ARGUMENT for a bad weight.
 */
export function convexFusion(lists: RankedList[]): FusedHit[] {
  const hits = new Map<string, FusedHit & { order: number }>();
  let order = 0;
  for (const list of lists) {
    checkWeight(list);
    if (list.weight === 0) continue;
    const raw = dedupe(list.results);
    const norm = minMaxNormalize(raw);
    raw.forEach((r, i) => {
      let hit = hits.get(r.id);
      if (!hit) {
        hit = { id: r.id, score: 0, scores: emptyLegValues(), ranks: emptyLegValues(), order: order++ };
        hits.set(r.id, hit);
      }
      hit.score += list.weight * norm[i].score;
      if (hit.ranks[list.leg] === null) {
        hit.ranks[list.leg] = i + 1;
        hit.scores[list.leg] = r.score;
      }
    });
  }
  return [...hits.values()]
    .sort((a, b) => b.score - a.score || bestRank(a) - bestRank(b) || a.order - b.order)
    .map(({ id, score, scores, ranks }) => ({ id, score, scores, ranks }));
}
