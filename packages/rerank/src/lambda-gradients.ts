/**
 * One query's candidates for training: feature vectors (in the model's feature order) and graded labels
 * (0 = not relevant; e.g. how many gold passages the candidate covers).
 */
export interface TrainingGroup {
  /** The question id: folds split by it, so a question is never both trained on and scored. */
  id: string;
  features: number[][];
  labels: number[];
}

/** Pair weighting of the pairwise logistic loss: plain (RankNet) or by the NDCG change of a swap (LambdaRank). */
export type PairWeighting = "pairwise" | "lambda";

/**
 * Adds to `grad` / `hess` (indexed from `offset`) the first and second derivatives of the pairwise logistic
 * loss of one query with respect to each candidate's score: for every pair with `labels[i] > labels[j]`,
 * `w · log(1 + exp(−(s_i − s_j)))`, where `w` is 1 (`pairwise`) or the |ΔNDCG| of swapping the two in the
 * current ranking (`lambda`). With `cutoff` (lambda only) the NDCG is truncated at that rank (NDCG@cutoff):
 * a position past it gains nothing, so pairs both ranked past it weigh 0 and training concentrates on what
 * enters the top `cutoff`. Returns the loss. Pure and deterministic.
 */
export function addPairGradients(
  scores: ArrayLike<number>,
  labels: ArrayLike<number>,
  grad: Float64Array,
  hess: Float64Array,
  offset: number,
  weighting: PairWeighting,
  cutoff = Infinity,
): number {
  const n = labels.length;
  const relevant: number[] = [];
  for (let i = 0; i < n; i++) if (labels[i] > 0) relevant.push(i);
  if (relevant.length === 0) return 0;
  let rankOf: Int32Array | undefined;
  let idcg = 1;
  if (weighting === "lambda") {
    const order = Array.from({ length: n }, (_v, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
    rankOf = new Int32Array(n);
    order.forEach((doc, r) => (rankOf![doc] = r));
    const ideal = relevant.map((i) => labels[i]).sort((a, b) => b - a);
    idcg = ideal.reduce((s, y, r) => s + (r < cutoff ? (2 ** y - 1) / Math.log2(r + 2) : 0), 0) || 1;
  }
  const discount = (r: number): number => (r < cutoff ? 1 / Math.log2(r + 2) : 0);
  let loss = 0;
  for (const i of relevant) {
    for (let j = 0; j < n; j++) {
      if (labels[i] <= labels[j]) continue;
      let w = 1;
      if (rankOf) {
        const gain = 2 ** labels[i] - 2 ** labels[j];
        w = Math.abs((gain * (discount(rankOf[i]) - discount(rankOf[j]))) / idcg);
        if (w === 0) continue;
      }
      const diff = scores[i] - scores[j];
      const rho = 1 / (1 + Math.exp(diff));
      loss += w * (diff > 30 ? Math.exp(-diff) : Math.log1p(Math.exp(-diff)));
      grad[offset + i] -= w * rho;
      grad[offset + j] += w * rho;
      const h = w * rho * (1 - rho);
      hess[offset + i] += h;
      hess[offset + j] += h;
    }
  }
  return loss;
}

/** A stable FNV-1a hash of a question id. */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * Assigns each question id a fold 0..k−1: ids sorted by a stable hash (then by id) are dealt round-robin, so
 * folds differ in size by at most one and do not depend on input order.
 */
export function assignFolds(ids: readonly string[], k: number): Map<string, number> {
  const sorted = [...new Set(ids)].sort((a, b) => hashId(a) - hashId(b) || (a < b ? -1 : a > b ? 1 : 0));
  return new Map(sorted.map((id, i) => [id, i % k]));
}
