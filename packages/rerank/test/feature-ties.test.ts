import { describe, expect, it } from "@jest/globals";
import type { RerankCandidate } from "@hierdoc/core";
import { FeatureExtractor, tiedRanks } from "@hierdoc/rerank";

const candidate = (id: string, rank: number, content: string): RerankCandidate => ({
  id,
  content,
  context: "",
  sectionId: `S${id}`,
  sectionTitle: "",
  parentChain: [],
  fusedScore: 0.5,
  fusedRank: rank,
  scores: { semantic: 0.4, keyword: 3.2, exact: null },
  ranks: { semantic: rank, keyword: rank, exact: null },
});

describe("features of exactly tied candidates", () => {
  it("tiedRanks gives tied scores the better rank and leaves the others alone", () => {
    expect(tiedRanks([0.9, 0.5, 0.5, null, 0.1], [1, 2, 3, 4, 5])).toEqual([1, 2, 2, 4, 5]);
    expect(tiedRanks([0.5, 0.5], [null, 7])).toEqual([null, 7]);
  });

  it("do not depend on the order in which the tied chunks were indexed", () => {
    const text = "The operator shall publish an annual report.";
    const a = new FeatureExtractor().extract("annual report publication", [candidate("1", 1, text), candidate("2", 2, text)]);
    const b = new FeatureExtractor().extract("annual report publication", [candidate("2", 1, text), candidate("1", 2, text)]);
    expect(a[0]).toEqual(a[1]);
    expect(b[0]).toEqual(a[0]);
  });
});
