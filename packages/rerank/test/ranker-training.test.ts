import { describe, expect, it } from "@jest/globals";
import {
  addPairGradients,
  crossValidateScores,
  assignFolds,
  scoreVector,
  trainLinearRanker,
  trainTreesRanker,
  type FeatureName,
  type TrainingGroup,
} from "@hierdoc/rerank";

/** A deterministic pseudo-random stream (LCG), so the synthetic data is the same on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `queries` groups of `n` candidates with features [a, b, noise]; `relevant(a, b)` decides the label. */
function synthetic(queries: number, n: number, relevant: (a: number, b: number) => boolean, seed = 7): TrainingGroup[] {
  const r = rng(seed);
  return Array.from({ length: queries }, (_v, q) => {
    const features = Array.from({ length: n }, () => [r(), r(), r()]);
    const labels = features.map(([a, b]) => (relevant(a, b) ? 1 : 0));
    return { id: `q${q}`, features, labels };
  });
}

const FEATURES: FeatureName[] = ["coverage", "phrase", "length"];

/** Mean reciprocal rank of the first relevant candidate under `score`, over groups with a relevant one. */
function mrr(groups: TrainingGroup[], score: (x: number[], g: TrainingGroup) => number): number {
  let sum = 0;
  const scored = groups.filter((g) => g.labels.some((y) => y > 0));
  for (const g of scored) {
    const order = g.features.map((x, i) => ({ s: score(x, g), i })).sort((a, b) => b.s - a.s);
    const first = order.findIndex((o) => g.labels[o.i] > 0);
    if (first >= 0) sum += 1 / (first + 1);
  }
  return sum / scored.length;
}

describe("pairwise gradients", () => {
  it("push a relevant candidate up and an irrelevant one down, and are zero without a relevant candidate", () => {
    const grad = new Float64Array(2);
    const hess = new Float64Array(2);
    const loss = addPairGradients([0, 0], [1, 0], grad, hess, 0, "pairwise");
    expect(loss).toBeCloseTo(Math.log(2), 10);
    expect(grad[0]).toBeCloseTo(-0.5, 10);
    expect(grad[1]).toBeCloseTo(0.5, 10);
    expect(hess[0]).toBeCloseTo(0.25, 10);
    const none = new Float64Array(2);
    expect(addPairGradients([3, 1], [0, 0], none, new Float64Array(2), 0, "lambda")).toBe(0);
    expect([...none]).toEqual([0, 0]);
  });

  it("lambda weighting: a swap at the top of the ranking weighs more than one further down", () => {
    const top = new Float64Array(4);
    addPairGradients([4, 3, 2, 1], [0, 1, 0, 0], top, new Float64Array(4), 0, "lambda");
    const low = new Float64Array(4);
    addPairGradients([4, 3, 2, 1], [0, 0, 0, 1], low, new Float64Array(4), 0, "lambda");
    expect(Math.abs(top[1])).toBeGreaterThan(0);
    expect(low[3]).toBeLessThan(0);
    // The relevant doc ranked 2nd is pulled harder against rank 1 than the one ranked 4th against rank 3.
    expect(Math.abs(top[0])).toBeGreaterThan(Math.abs(low[2]));
  });

  it("lambda with a cutoff: pairs both ranked past it weigh nothing, a pair crossing it still pulls", () => {
    // Ranking by score: 0, 1, 2, 3, 4. The relevant candidate (4) is last.
    const scores = [5, 4, 3, 2, 1];
    const labels = [0, 0, 0, 0, 1];
    const full = new Float64Array(5);
    addPairGradients(scores, labels, full, new Float64Array(5), 0, "lambda");
    const cut = new Float64Array(5);
    const cutHess = new Float64Array(5);
    addPairGradients(scores, labels, cut, cutHess, 0, "lambda", 2);
    // Candidates 2 and 3 sit past rank 2 like the relevant one: without a cutoff they are pushed down, with it not at all.
    expect(full[2]).toBeGreaterThan(0);
    expect(cut[2]).toBe(0);
    expect(cutHess[3]).toBe(0);
    // The pairs with the top two still pull the relevant candidate up and push those two down.
    expect(cut[4]).toBeLessThan(0);
    expect(cut[0]).toBeGreaterThan(0);
    expect(cut[1]).toBeGreaterThan(0);
  });
});

describe("folds", () => {
  it("assign a question to the same fold whatever the input order, with fold sizes differing by at most one", () => {
    const ids = Array.from({ length: 23 }, (_v, i) => `question-${i}`);
    const folds = assignFolds(ids, 5);
    expect(assignFolds([...ids].reverse(), 5)).toEqual(folds);
    const counts = [0, 0, 0, 0, 0];
    for (const f of folds.values()) counts[f]++;
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(23);
    // Eight ids over two folds (the CLI test's case): four each, never all in one.
    const two = assignFolds(["q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7"], 2);
    expect([...two.values()].filter((f) => f === 0)).toHaveLength(4);
  });

  it("cross-validation never trains the model that scores a question on that question", () => {
    const groups = synthetic(40, 5, (a) => a > 0.5);
    const seen: string[][] = [];
    const oof = crossValidateScores(groups, 4, (train) => {
      seen.push(train.map((g) => g.id));
      return trainLinearRanker(FEATURES, train, { iterations: 20 });
    });
    expect(oof.size).toBe(40);
    expect(seen).toHaveLength(4);
    const folds = assignFolds(groups.map((g) => g.id), 4);
    for (const g of groups) {
      const fold = folds.get(g.id)!;
      expect(seen[fold]).not.toContain(g.id);
      expect(oof.get(g.id)).toHaveLength(5);
    }
  });
});

describe("trainLinearRanker", () => {
  it("learns which feature carries relevance, ignores noise, and is deterministic", () => {
    const groups = synthetic(100, 10, (a) => a > 0.8);
    const model = trainLinearRanker(FEATURES, groups);
    expect(model.kind).toBe("linear");
    expect(model.weights[0]).toBeGreaterThan(0.5);
    expect(Math.abs(model.weights[1])).toBeLessThan(model.weights[0] / 3);
    expect(Math.abs(model.weights[2])).toBeLessThan(model.weights[0] / 3);
    const test = synthetic(100, 10, (a) => a > 0.8, 99);
    expect(mrr(test, (x) => scoreVector(model, x))).toBeGreaterThan(0.9);
    expect(JSON.stringify(trainLinearRanker(FEATURES, groups))).toBe(JSON.stringify(model));
  });
});

describe("trainTreesRanker", () => {
  // Relevant when a and b are both high or both low: no linear function of a and b ranks this well.
  const xor = (a: number, b: number) => (a > 0.5) === (b > 0.5) && Math.abs(a - 0.5) > 0.3 && Math.abs(b - 0.5) > 0.3;

  it("learns an interaction a linear model cannot, on held-out questions", () => {
    const train = synthetic(200, 12, xor);
    const test = synthetic(100, 12, xor, 1234);
    const trees = trainTreesRanker(FEATURES, train, { trees: 60, maxDepth: 3, minLeaf: 20 });
    const linear = trainLinearRanker(FEATURES, train);
    const treesMrr = mrr(test, (x) => scoreVector(trees, x));
    const linearMrr = mrr(test, (x) => scoreVector(linear, x));
    expect(treesMrr).toBeGreaterThan(0.8);
    expect(treesMrr).toBeGreaterThan(linearMrr + 0.15);
  });

  it("writes trees whose children follow their parent, and retrains to the same JSON", () => {
    const groups = synthetic(80, 8, (a) => a > 0.7);
    const model = trainTreesRanker(FEATURES, groups, { trees: 10 });
    expect(model.trees).toHaveLength(10);
    for (const t of model.trees) {
      t.feature.forEach((f, i) => {
        if (f === -1) return;
        expect(t.left[i]).toBeGreaterThan(i);
        expect(t.right[i]).toBeGreaterThan(i);
      });
    }
    expect(JSON.stringify(trainTreesRanker(FEATURES, groups, { trees: 10 }))).toBe(JSON.stringify(model));
  });
});
