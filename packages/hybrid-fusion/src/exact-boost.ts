import type { FusedHit } from "./fused-hit.js";

/** Options of {@link applyExactBoost}. */
export interface ExactBoostOptions {
  /** Only exact hits with at least this exact score are lifted (default: every exact hit). */
  minExactScore?: number;
}

/**
 * Puts every exact-id hit above everything fusion produced (the plan's SC-002: "Section 203(a)(1)" is
 * rank 1). Lifted hits are ordered by exact score, then fused score, then exact rank; their `score`
 * becomes greater than every other score so score order equals rank order. Other hits keep their order.
 */
export function applyExactBoost(hits: FusedHit[], options: ExactBoostOptions = {}): FusedHit[] {
  const min = options.minExactScore ?? -Infinity;
  const lifted: FusedHit[] = [];
  const rest: FusedHit[] = [];
  for (const h of hits) {
    if (h.ranks.exact !== null && (h.scores.exact ?? -Infinity) >= min) lifted.push(h);
    else rest.push(h);
  }
  if (lifted.length === 0) return hits.slice();
  lifted.sort(
    (a, b) => (b.scores.exact ?? 0) - (a.scores.exact ?? 0) || b.score - a.score || (a.ranks.exact ?? 0) - (b.ranks.exact ?? 0),
  );
  const top = hits.reduce((m, h) => Math.max(m, h.score), 0);
  const n = lifted.length;
  return [...lifted.map((h, i) => ({ ...h, score: top + 1 + (n - i) / n })), ...rest];
}
