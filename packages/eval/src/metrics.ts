/**
 * Rank metrics over a ranked list of unit keys (projected passages or chunk ids) and a gold set.
 * Pure functions. The ranked list is de-duplicated first (a unit counts at its first rank); every
 * function returns 0 for an empty gold set or `k < 1`.
 */

/** The ranked list without repeats, first occurrence kept. */
export function dedupe(ranked: Iterable<string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const x of ranked) {
    if (!seen.has(x)) {
      seen.add(x);
      out.push(x);
    }
  }
  return out;
}

/** 0/1 relevance of the first `k` distinct units. */
export function hitsAtK(ranked: Iterable<string>, gold: ReadonlySet<string>, k: number): number[] {
  return dedupe(ranked)
    .slice(0, Math.max(0, k))
    .map((x) => (gold.has(x) ? 1 : 0));
}

function sum(hits: readonly number[]): number {
  let s = 0;
  for (const h of hits) s += h;
  return s;
}

/** Recall@k: gold units among the first `k` / number of gold units. */
export function recallAtK(ranked: Iterable<string>, gold: ReadonlySet<string>, k: number): number {
  if (gold.size === 0) return 0;
  return sum(hitsAtK(ranked, gold, k)) / gold.size;
}

/** Precision@k: gold units among the first `k` / `k` (a short list is not rewarded). */
export function precisionAtK(ranked: Iterable<string>, gold: ReadonlySet<string>, k: number): number {
  if (gold.size === 0 || k < 1) return 0;
  return sum(hitsAtK(ranked, gold, k)) / k;
}

/** Average precision@k, normalised by `min(|gold|, k)` (the MAP@k of the reference scorer). */
export function averagePrecisionAtK(ranked: Iterable<string>, gold: ReadonlySet<string>, k: number): number {
  if (gold.size === 0 || k < 1) return 0;
  let ap = 0;
  let h = 0;
  hitsAtK(ranked, gold, k).forEach((v, i) => {
    if (v) {
      h += 1;
      ap += h / (i + 1);
    }
  });
  return ap / Math.min(gold.size, k);
}

/** Reciprocal rank of the first gold unit within the first `k`, else 0. */
export function reciprocalRankAtK(ranked: Iterable<string>, gold: ReadonlySet<string>, k: number): number {
  if (gold.size === 0) return 0;
  const i = hitsAtK(ranked, gold, k).indexOf(1);
  return i < 0 ? 0 : 1 / (i + 1);
}

/** nDCG@k with binary gains: DCG = Σ rel_i / log2(i + 1), ideal = `min(|gold|, k)` hits on top. */
export function ndcgAtK(ranked: Iterable<string>, gold: ReadonlySet<string>, k: number): number {
  if (gold.size === 0 || k < 1) return 0;
  let dcg = 0;
  hitsAtK(ranked, gold, k).forEach((v, i) => {
    if (v) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(gold.size, k); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}
