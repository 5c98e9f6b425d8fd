import type { FeatureName } from "./features.js";
import { addPairGradients, type PairWeighting, type TrainingGroup } from "./lambda-gradients.js";
import type { LinearRankerModel } from "./ranker-model.js";

/** Options of {@link trainLinearRanker}. */
export interface LinearTrainOptions {
  /** Full-batch Adam steps (default 200). */
  iterations?: number;
  /** Adam step size (default 0.05). */
  learningRate?: number;
  /** L2 penalty per weight, relative to the number of groups (default 1e-3). */
  l2?: number;
  /** Pair weighting (default `lambda`). */
  weighting?: PairWeighting;
}

/**
 * Trains a linear pairwise ranker (RankNet / LambdaRank loss, full-batch Adam from zero weights) on
 * standardised features. Deterministic: no sampling, fixed iteration count.
 * @returns the model, ready to be written as JSON (add `trainedOn` / `metrics` as you like).
 */
export function trainLinearRanker(features: FeatureName[], groups: readonly TrainingGroup[], options: LinearTrainOptions = {}): LinearRankerModel {
  const d = features.length;
  const iterations = options.iterations ?? 200;
  const lr = options.learningRate ?? 0.05;
  const l2 = options.l2 ?? 1e-3;
  const weighting = options.weighting ?? "lambda";
  const { mean, scale } = standardisation(d, groups);
  const useful = groups.filter((g) => g.labels.some((y) => y > 0) && g.labels.some((y) => y <= 0));
  // Standardised rows of each group, flat (row-major), so an iteration allocates nothing per candidate.
  const z = useful.map((g) => Float64Array.from(g.features.flatMap((x) => x.map((v, j) => (v - mean[j]) / scale[j]))));
  const w = new Float64Array(d);
  const m = new Float64Array(d);
  const v = new Float64Array(d);
  const maxN = Math.max(1, ...useful.map((g) => g.labels.length));
  const grad = new Float64Array(maxN);
  const hess = new Float64Array(maxN);
  const scores = new Float64Array(maxN);
  const gw = new Float64Array(d);
  for (let it = 1; it <= iterations; it++) {
    gw.fill(0);
    for (let gi = 0; gi < useful.length; gi++) {
      const rows = z[gi];
      const count = useful[gi].labels.length;
      for (let i = 0; i < count; i++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += w[j] * rows[i * d + j];
        scores[i] = s;
      }
      grad.fill(0, 0, count);
      addPairGradients(scores.subarray(0, count), useful[gi].labels, grad, hess, 0, weighting);
      for (let i = 0; i < count; i++) {
        const g = grad[i];
        if (g === 0) continue;
        for (let j = 0; j < d; j++) gw[j] += g * rows[i * d + j];
      }
    }
    const n = useful.length || 1;
    for (let j = 0; j < d; j++) {
      const g = gw[j] / n + l2 * w[j];
      m[j] = 0.9 * m[j] + 0.1 * g;
      v[j] = 0.999 * v[j] + 0.001 * g * g;
      const mh = m[j] / (1 - 0.9 ** it);
      const vh = v[j] / (1 - 0.999 ** it);
      w[j] -= (lr * mh) / (Math.sqrt(vh) + 1e-8);
    }
  }
  return { format: "hierdoc-ranker", version: 1, kind: "linear", features: [...features], mean, scale, weights: Array.from(w, round6) };
}

function standardisation(d: number, groups: readonly TrainingGroup[]): { mean: number[]; scale: number[] } {
  const sum = new Float64Array(d);
  const sq = new Float64Array(d);
  let n = 0;
  for (const g of groups) {
    for (const x of g.features) {
      n++;
      for (let j = 0; j < d; j++) {
        sum[j] += x[j];
        sq[j] += x[j] * x[j];
      }
    }
  }
  const mean = Array.from(sum, (s) => (n ? s / n : 0));
  const scale = Array.from(sq, (s, j) => {
    const variance = n ? s / n - mean[j] ** 2 : 0;
    return variance > 1e-12 ? Math.sqrt(variance) : 1;
  });
  return { mean: mean.map(round6), scale: scale.map(round6) };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
