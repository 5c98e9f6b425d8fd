import { applyExactBoost, convexFusion, minMaxNormalize, weightedRrf } from "@hierdoc/hybrid-fusion";
import { isHierdocError } from "@hierdoc/core";

const ids = (xs: Array<{ id: string }>) => xs.map((x) => x.id);

describe("weightedRrf", () => {
  const semantic = [{ id: "d2", score: 0.99 }, { id: "d1", score: 0.98 }, { id: "d3", score: 0.2 }];
  const keyword = [{ id: "d3", score: 4.1 }, { id: "d1", score: 2.2 }];

  it("sums weight / (k + rank) with 1-based ranks (hand-computed, k = 60)", () => {
    const fused = weightedRrf([
      { leg: "semantic", weight: 1, results: semantic },
      { leg: "keyword", weight: 1, results: keyword },
    ]);
    // d3: 1/63 + 1/61 = 0.0322664; d1: 1/62 + 1/62 = 0.0322581; d2: 1/61 = 0.0163934
    expect(ids(fused)).toEqual(["d3", "d1", "d2"]);
    expect(fused[0].score).toBeCloseTo(1 / 63 + 1 / 61, 15);
    expect(fused[1].score).toBeCloseTo(2 / 62, 15);
    expect(fused[2].score).toBeCloseTo(1 / 61, 15);
    expect(fused[0].ranks).toEqual({ semantic: 3, keyword: 1, exact: null });
    expect(fused[0].scores).toEqual({ semantic: 0.2, keyword: 4.1, exact: null });
    expect(fused[2].ranks).toEqual({ semantic: 1, keyword: null, exact: null });
  });

  it("really applies the weights (halving keyword flips d1 and d3)", () => {
    const fused = weightedRrf([
      { leg: "semantic", weight: 1, results: semantic },
      { leg: "keyword", weight: 0.5, results: keyword },
    ]);
    // d1: 1/62 + 0.5/62 = 0.0241935; d3: 1/63 + 0.5/61 = 0.0240700
    expect(ids(fused)).toEqual(["d1", "d3", "d2"]);
    expect(fused[0].score).toBeCloseTo(1.5 / 62, 15);
  });

  it("uses the configured k", () => {
    const fused = weightedRrf([{ leg: "keyword", weight: 2, results: keyword }], { k: 0 });
    expect(fused.map((f) => f.score)).toEqual([2 / 1, 2 / 2]);
  });

  it("dedupes within a leg (first occurrence wins, later ranks close up)", () => {
    const fused = weightedRrf([{ leg: "keyword", weight: 1, results: [{ id: "a", score: 3 }, { id: "a", score: 1 }, { id: "b", score: 0.5 }] }]);
    expect(ids(fused)).toEqual(["a", "b"]);
    expect(fused[0].scores.keyword).toBe(3);
    expect(fused[1].ranks.keyword).toBe(2);
  });

  it("breaks ties deterministically: best rank, then first appearance", () => {
    const fused = weightedRrf([
      { leg: "semantic", weight: 1, results: [{ id: "x", score: 1 }, { id: "y", score: 0.5 }] },
      { leg: "keyword", weight: 1, results: [{ id: "y", score: 1 }, { id: "x", score: 0.5 }] },
      { leg: "exact", weight: 1, results: [{ id: "z", score: 1 }] },
    ]);
    expect(fused[0].score).toBe(fused[1].score);
    expect(ids(fused)).toEqual(["x", "y", "z"]);
  });

  it("leaves out zero-weight lists and rejects negative weights", () => {
    expect(ids(weightedRrf([{ leg: "keyword", weight: 0, results: keyword }]))).toEqual([]);
    let err: unknown;
    try {
      weightedRrf([{ leg: "keyword", weight: -1, results: keyword }]);
    } catch (e) {
      err = e;
    }
    expect(isHierdocError(err, "E_INVALID_ARGUMENT")).toBe(true);
  });
});

describe("applyExactBoost", () => {
  it("lifts every exact hit above everything RRF produced, ordered by exact score then fused score", () => {
    const fused = weightedRrf([
      { leg: "semantic", weight: 1, results: [{ id: "a", score: 0.9 }, { id: "b", score: 0.8 }, { id: "c", score: 0.7 }, { id: "u", score: 0.1 }] },
      { leg: "keyword", weight: 1, results: [{ id: "a", score: 9 }, { id: "b", score: 8 }] },
      { leg: "exact", weight: 1, results: [{ id: "u", score: 1 }, { id: "c", score: 4 }] },
    ]);
    const boosted = applyExactBoost(fused);
    expect(ids(boosted)).toEqual(["c", "u", "a", "b"]);
    for (let i = 1; i < boosted.length; i++) expect(boosted[i - 1].score).toBeGreaterThan(boosted[i].score);
    expect(boosted[0].ranks.exact).toBe(2);
  });

  it("lifts at most `limit` exact hits; the others keep their fused position", () => {
    const fused = weightedRrf([
      { leg: "semantic", weight: 1, results: [{ id: "a", score: 0.9 }, { id: "x1", score: 0.5 }, { id: "x2", score: 0.4 }, { id: "x3", score: 0.3 }] },
      { leg: "exact", weight: 1, results: [{ id: "x3", score: 4 }, { id: "x2", score: 4 }, { id: "x1", score: 4 }] },
    ]);
    // equal exact scores: the best fused score is lifted, everything else keeps the fused order
    const boosted = applyExactBoost(fused, { limit: 1 });
    expect(boosted[0].id).toBe(fused.filter((h) => h.ranks.exact !== null)[0].id);
    expect(boosted.slice(1).map((h) => h.id)).toEqual(fused.filter((h) => h.id !== boosted[0].id).map((h) => h.id));
    expect(applyExactBoost(fused, { limit: 0 })).toEqual(fused);
  });

  it("returns the same order when there is no exact hit", () => {
    const fused = weightedRrf([{ leg: "semantic", weight: 1, results: [{ id: "a", score: 1 }, { id: "b", score: 0.5 }] }]);
    expect(applyExactBoost(fused)).toEqual(fused);
  });
});

describe("convexFusion", () => {
  it("min-max normalises each leg and sums weighted scores", () => {
    expect(minMaxNormalize([{ id: "a", score: 10 }, { id: "b", score: 5 }, { id: "c", score: 0 }]).map((r) => r.score)).toEqual([1, 0.5, 0]);
    expect(minMaxNormalize([{ id: "a", score: 3 }, { id: "b", score: 3 }]).map((r) => r.score)).toEqual([1, 1]);
    const fused = convexFusion([
      { leg: "semantic", weight: 0.7, results: [{ id: "a", score: 0.9 }, { id: "b", score: 0.5 }, { id: "c", score: 0.1 }] },
      { leg: "keyword", weight: 0.3, results: [{ id: "c", score: 12 }, { id: "b", score: 6 }, { id: "a", score: 0 }] },
    ]);
    // a: 0.7·1 + 0.3·0 = 0.7; b: 0.7·0.5 + 0.3·0.5 = 0.5; c: 0 + 0.3·1 = 0.3
    expect(ids(fused)).toEqual(["a", "b", "c"]);
    expect(fused.map((f) => f.score)).toEqual([0.7, expect.closeTo(0.5, 12), expect.closeTo(0.3, 12)]);
    expect(fused[2].scores).toEqual({ semantic: 0.1, keyword: 12, exact: null });
  });
});
