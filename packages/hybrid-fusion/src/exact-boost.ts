import type { FusedHit } from "./fused-hit.js";

/** Options of {@link applyExactBoost}. */
export interface ExactBoostOptions {
  /** Only exact hits with at least this exact score are lifted (default: every exact hit). */
  minExactScore?: number;
  /**
   * Lift at most this many exact hits (the best by exact score, then fused score); the others keep their
   * fused position. Default: all. Useful when an id such as "Rule 3.3" exists in many documents.
   */
  limit?: number;
}

/**
 * Puts every exact-id hit above everything fusion produced (the plan's SC-002: "Section 203(a)(1)" is
 * rank 1). Lifted hits are ordered by exact score, then fused score, then exact rank; their `score`
 * becomes greater than every other score so score order equals rank order. Other hits keep their order.
 */
export function applyExactBoost(hits: FusedHit[], options: ExactBoostOptions = {}): FusedHit[] {
  const min = options.minExactScore ?? -Infinity;
  const limit = options.limit ?? Infinity;
  const candidates = hits
    .filter((h) => h.ranks.exact !== null && (h.scores.exact ?? -Infinity) >= min)
    .sort((a, b) => (b.scores.exact ?? 0) - (a.scores.exact ?? 0) || b.score - a.score || (a.ranks.exact ?? 0) - (b.ranks.exact ?? 0));
  const lifted = candidates.slice(0, Math.max(0, limit));
  if (lifted.length === 0) return hits.slice();
  const liftedIds = new Set(lifted.map((h) => h.id));
  const rest = hits.filter((h) => !liftedIds.has(h.id));
  const top = hits.reduce((m, h) => Math.max(m, h.score), 0);
  const n = lifted.length;
  return [...lifted.map((h, i) => ({ ...h, score: top + 1 + (n - i) / n })), ...rest];
}
