import type { FeatureName } from "./features.js";
import { addPairGradients, type PairWeighting, type TrainingGroup } from "./lambda-gradients.js";
import type { RankerTree, TreesRankerModel } from "./ranker-model.js";

/** Options of {@link trainTreesRanker}. */
export interface TreesTrainOptions {
  /** Boosting rounds (default 100). */
  trees?: number;
  /** Depth of each tree (default 3: at most 8 leaves). */
  maxDepth?: number;
  /** Shrinkage of each tree's leaf values (default 0.1). */
  learningRate?: number;
  /** Fewest candidates in a leaf (default 1% of the candidates, between 2 and 40). */
  minLeaf?: number;
  /** Candidate thresholds per feature, from quantiles (default 32). */
  bins?: number;
  /** L2 penalty on leaf values (default 1). */
  l2?: number;
  /** Pair weighting (default `lambda`: LambdaMART). */
  weighting?: PairWeighting;
  /** Rank past which the lambda weighting's NDCG gains nothing (default: the whole list); see {@link addPairGradients}. */
  cutoff?: number;
}

/**
 * Trains gradient-boosted regression trees on pairwise lambda gradients (LambdaMART with Newton leaf
 * values and histogram splits on quantile thresholds). Deterministic: no sampling; ties broken by order.
 */
export function trainTreesRanker(features: FeatureName[], groups: readonly TrainingGroup[], options: TreesTrainOptions = {}): TreesRankerModel {
  const d = features.length;
  const rounds = options.trees ?? 100;
  const lr = options.learningRate ?? 0.1;
  const weighting = options.weighting ?? "lambda";
  const useful = groups.filter((g) => g.labels.some((y) => y > 0) && g.labels.some((y) => y <= 0));
  const offsets: number[] = [];
  let n = 0;
  for (const g of useful) {
    offsets.push(n);
    n += g.labels.length;
  }
  const cols = Array.from({ length: d }, () => new Float64Array(n));
  useful.forEach((g, gi) => g.features.forEach((x, i) => x.forEach((v, j) => (cols[j][offsets[gi] + i] = v))));
  const thresholds = cols.map((c) => quantileThresholds(c, options.bins ?? 32));
  const binned = cols.map((c, j) => binColumn(c, thresholds[j]));
  const scores = new Float64Array(n);
  const grad = new Float64Array(n);
  const hess = new Float64Array(n);
  const all = Uint32Array.from({ length: n }, (_v, i) => i);
  const trees: RankerTree[] = [];
  const builder = new TreeBuilder(binned, thresholds, grad, hess, {
    maxDepth: options.maxDepth ?? 3,
    minLeaf: options.minLeaf ?? Math.max(2, Math.min(40, Math.floor(n / 100))),
    l2: options.l2 ?? 1,
    lr,
  });
  for (let r = 0; r < rounds; r++) {
    grad.fill(0);
    hess.fill(0);
    useful.forEach((g, gi) => addPairGradients(scores.subarray(offsets[gi], offsets[gi] + g.labels.length), g.labels, grad, hess, offsets[gi], weighting, options.cutoff));
    const tree = builder.build(all);
    trees.push(tree);
    for (let i = 0; i < n; i++) {
      let node = 0;
      while (tree.feature[node] !== -1) node = cols[tree.feature[node]][i] <= tree.threshold[node] ? tree.left[node] : tree.right[node];
      scores[i] += tree.value[node];
    }
  }
  return { format: "hierdoc-ranker", version: 1, kind: "trees", features: [...features], trees };
}

/** Up to `bins − 1` distinct quantile values of a column (the candidate split thresholds). */
function quantileThresholds(col: Float64Array, bins: number): number[] {
  const sorted = Float64Array.from(col).sort();
  const out: number[] = [];
  for (let b = 1; b < bins; b++) {
    const v = sorted[Math.min(sorted.length - 1, Math.floor((b * sorted.length) / bins))];
    if (v === undefined || v === sorted[sorted.length - 1]) continue;
    if (out.length === 0 || v > out[out.length - 1]) out.push(v);
  }
  return out;
}

/** Bin of each value: the first threshold it does not exceed, or the number of thresholds. */
function binColumn(col: Float64Array, thresholds: number[]): Uint8Array {
  const out = new Uint8Array(col.length);
  for (let i = 0; i < col.length; i++) {
    let lo = 0;
    let hi = thresholds.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (col[i] <= thresholds[mid]) hi = mid;
      else lo = mid + 1;
    }
    out[i] = lo;
  }
  return out;
}

interface BuilderOptions {
  maxDepth: number;
  minLeaf: number;
  l2: number;
  lr: number;
}

class TreeBuilder {
  private tree!: RankerTree;

  constructor(
    private readonly binned: Uint8Array[],
    private readonly thresholds: number[][],
    private readonly grad: Float64Array,
    private readonly hess: Float64Array,
    private readonly o: BuilderOptions,
  ) {}

  build(rows: Uint32Array): RankerTree {
    this.tree = { feature: [], threshold: [], left: [], right: [], value: [] };
    this.node(rows, 0);
    return this.tree;
  }

  /** Appends a node for `rows` (pre-order: children get larger indexes than their parent) and returns its index. */
  private node(rows: Uint32Array, depth: number): number {
    const t = this.tree;
    const at = t.feature.length;
    let G = 0;
    let H = 0;
    for (const i of rows) {
      G += this.grad[i];
      H += this.hess[i];
    }
    t.feature.push(-1);
    t.threshold.push(0);
    t.left.push(0);
    t.right.push(0);
    t.value.push(Math.round((-this.o.lr * G) / (H + this.o.l2) * 1e6) / 1e6);
    if (depth >= this.o.maxDepth || rows.length < 2 * this.o.minLeaf) return at;
    const split = this.bestSplit(rows, G, H);
    if (!split) return at;
    const left: number[] = [];
    const right: number[] = [];
    const col = this.binned[split.feature];
    for (const i of rows) (col[i] <= split.bin ? left : right).push(i);
    t.feature[at] = split.feature;
    t.threshold[at] = this.thresholds[split.feature][split.bin];
    t.left[at] = this.node(Uint32Array.from(left), depth + 1);
    t.right[at] = this.node(Uint32Array.from(right), depth + 1);
    return at;
  }

  private bestSplit(rows: Uint32Array, G: number, H: number): { feature: number; bin: number } | undefined {
    const { l2, minLeaf } = this.o;
    const parent = (G * G) / (H + l2);
    let best: { feature: number; bin: number; gain: number } | undefined;
    for (let f = 0; f < this.binned.length; f++) {
      const nb = this.thresholds[f].length + 1;
      if (nb < 2) continue;
      const hg = new Float64Array(nb);
      const hh = new Float64Array(nb);
      const hc = new Uint32Array(nb);
      const col = this.binned[f];
      for (const i of rows) {
        const b = col[i];
        hg[b] += this.grad[i];
        hh[b] += this.hess[i];
        hc[b]++;
      }
      let gl = 0;
      let hl = 0;
      let cl = 0;
      for (let b = 0; b < nb - 1; b++) {
        gl += hg[b];
        hl += hh[b];
        cl += hc[b];
        if (cl < minLeaf || rows.length - cl < minLeaf) continue;
        const gr = G - gl;
        const hr = H - hl;
        const gain = (gl * gl) / (hl + l2) + (gr * gr) / (hr + l2) - parent;
        if (gain > 1e-9 && (!best || gain > best.gain)) best = { feature: f, bin: b, gain };
      }
    }
    return best;
  }
}
