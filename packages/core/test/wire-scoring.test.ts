import { describe, expect, it } from "@jest/globals";
import { bm25Rank, cosineSimilarity, wordTokens } from "@hierdoc/core/testing";

describe("cosineSimilarity", () => {
  it("scores plain and typed arrays alike, 0 for a zero vector", () => {
    expect(cosineSimilarity([1, 0], [1, 0])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], new Float32Array([0, 2]))).toBe(0);
    expect(cosineSimilarity([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2, 12);
    expect(cosineSimilarity([0, 0], [1, 0])).toBe(0);
  });
});

describe("bm25Rank", () => {
  const docs = ["the right to erasure", "erasure erasure of data", "consent of the data subject", "nothing relevant"];

  it("ranks by BM25, drops non-matching items and stop words", () => {
    const ranked = bm25Rank(docs, "erasure data", (d) => d);
    expect(ranked.map((r) => r.item)).toEqual(["erasure erasure of data", "the right to erasure", "consent of the data subject"]);
    expect(ranked.every((r) => r.score > 0)).toBe(true);
    expect(bm25Rank(docs, "the", (d) => d, new Set(["the"]))).toEqual([]);
  });

  it("computes Lucene's BM25 for a single-term query", () => {
    const [top] = bm25Rank(["a b", "a"], "b", (d) => d);
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    expect(top.score).toBeCloseTo((idf * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 2) / 1.5)), 12);
  });

  it("tokenizes letters and digits of any script, lower-cased", () => {
    expect(wordTokens("Art. 17(1) — Löschung", new Set(["art"]))).toEqual(["17", "1", "löschung"]);
  });
});
