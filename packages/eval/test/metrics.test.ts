import {
  averagePrecisionAtK,
  dedupe,
  hitsAtK,
  ndcgAtK,
  precisionAtK,
  recallAtK,
  reciprocalRankAtK,
} from "@hierdoc/eval";

const gold = new Set(["a", "b"]);
const all = (ranked: string[], k: number) => ({
  recall: recallAtK(ranked, gold, k),
  precision: precisionAtK(ranked, gold, k),
  ap: averagePrecisionAtK(ranked, gold, k),
  rr: reciprocalRankAtK(ranked, gold, k),
  ndcg: ndcgAtK(ranked, gold, k),
});

describe("rank metrics on hand-computed cases", () => {
  it("perfect run scores 1 everywhere but precision (2 of k=4)", () => {
    const m = all(["a", "b", "x", "y"], 4);
    expect(m).toEqual({ recall: 1, precision: 0.5, ap: 1, rr: 1, ndcg: 1 });
  });

  it("empty run scores 0", () => {
    expect(all([], 10)).toEqual({ recall: 0, precision: 0, ap: 0, rr: 0, ndcg: 0 });
  });

  it("partial run: gold at ranks 2 and 4", () => {
    const m = all(["x", "a", "y", "b"], 10);
    expect(m.recall).toBe(1);
    expect(m.precision).toBeCloseTo(0.2, 12);
    // AP = (1/2 + 2/4) / min(2, 10)
    expect(m.ap).toBeCloseTo(0.5, 12);
    expect(m.rr).toBe(0.5);
    const dcg = 1 / Math.log2(3) + 1 / Math.log2(5);
    const idcg = 1 + 1 / Math.log2(3);
    expect(m.ndcg).toBeCloseTo(dcg / idcg, 12);
  });

  it("only one of two gold units found, at rank 3", () => {
    const m = all(["x", "y", "b"], 10);
    expect(m.recall).toBe(0.5);
    expect(m.ap).toBeCloseTo(1 / 3 / 2, 12);
    expect(m.rr).toBeCloseTo(1 / 3, 12);
    expect(m.ndcg).toBeCloseTo(1 / Math.log2(4) / (1 + 1 / Math.log2(3)), 12);
  });

  it("duplicates count once, at their first rank, and do not use the budget", () => {
    expect(dedupe(["a", "a", "x", "a", "b"])).toEqual(["a", "x", "b"]);
    const m = all(["a", "a", "x", "b"], 3);
    expect(m.recall).toBe(1);
    expect(m.ap).toBeCloseTo((1 + 2 / 3) / 2, 12);
    expect(hitsAtK(["a", "a", "x", "b"], gold, 3)).toEqual([1, 0, 1]);
  });

  it("budget k cuts the list and normalises AP by min(|gold|, k)", () => {
    expect(recallAtK(["x", "a", "b"], gold, 2)).toBe(0.5);
    expect(averagePrecisionAtK(["a", "x", "b"], gold, 1)).toBe(1);
    expect(averagePrecisionAtK(["x", "a", "b"], gold, 1)).toBe(0);
    expect(precisionAtK(["a", "b"], gold, 1)).toBe(1);
    expect(ndcgAtK(["b"], gold, 1)).toBe(1);
    expect(reciprocalRankAtK(["x", "y", "a"], gold, 2)).toBe(0);
  });

  it("empty gold or k < 1 gives 0 rather than NaN", () => {
    const none = new Set<string>();
    expect(recallAtK(["a"], none, 5)).toBe(0);
    expect(ndcgAtK(["a"], none, 5)).toBe(0);
    expect(precisionAtK(["a"], gold, 0)).toBe(0);
    expect(averagePrecisionAtK(["a"], gold, 0)).toBe(0);
  });
});
