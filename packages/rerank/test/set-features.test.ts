import { describe, expect, it } from "@jest/globals";
import type { RerankCandidate } from "@hierdoc/core";
import { FEATURE_NAMES, FeatureExtractor, SET_FEATURE_NAMES, chunkPlace, setFeatures } from "@hierdoc/rerank";

const cand = (id: string, rank: number, content: string, extra: Partial<RerankCandidate> = {}): RerankCandidate => ({
  id,
  content,
  context: "",
  sectionId: "1",
  sectionTitle: "",
  parentChain: [],
  fusedScore: 1 / rank,
  fusedRank: rank,
  ...extra,
});

describe("candidate-set features", () => {
  it("chunkPlace reads the document and position of a tool chunk id, and treats other ids as lone chunks", () => {
    expect(chunkPlace("docs/a b.txt_chunk_12")).toEqual({ doc: "docs/a b.txt", seq: 12 });
    expect(chunkPlace("q7")).toEqual({ doc: "q7", seq: null });
  });

  it("scores documents, neighbours and sections from the other candidates", () => {
    const cands = [
      cand("a.txt_chunk_5", 1, "x", { sectionId: "2.1" }),
      cand("b.txt_chunk_1", 2, "x", { sectionId: "9" }),
      cand("a.txt_chunk_6", 3, "x", { sectionId: "2.1" }),
      cand("a.txt_chunk_9", 4, "x", { sectionId: "2.4" }),
    ];
    const norm = [1, 0.6, 0.5, 0];
    const rows = setFeatures(cands, norm, [1, 2, 3, 4]);
    // Document a: three of four candidates, best rank 1, score 1.5 of 2.1, first by score.
    expect(rows[0]).toMatchObject({ docShare: 2 / 3, docBest: 1, docRank: 1, neighbours: 0.5, neighbourFused: 0.5, sectionBest: 0.5 });
    expect(rows[0].docScore).toBeCloseTo(1.5 / 2.1, 10);
    expect(rows[3]).toMatchObject({ docShare: 2 / 3, docBest: 1, docRank: 1, neighbours: 0, neighbourFused: 0, sectionBest: 0 });
    // Document b: alone, second by score.
    expect(rows[1]).toMatchObject({ docShare: 0, docBest: 0.5, docRank: 0.5, neighbours: 0, sectionBest: 0 });
    expect(rows[1].docScore).toBeCloseTo(0.6 / 2.1, 10);
    // Chunk 6's neighbour 5 is the top candidate.
    expect(rows[2]).toMatchObject({ neighbours: 0.5, neighbourFused: 1, sectionBest: 1 });
  });

  it("do not depend on candidate order (same document scores, same ranks)", () => {
    const a = cand("a.txt_chunk_1", 1, "x");
    const b = cand("b.txt_chunk_1", 2, "x");
    const one = setFeatures([a, b], [0.5, 0.5], [1, 1]);
    const two = setFeatures([b, a], [0.5, 0.5], [1, 1]);
    expect(two[1]).toEqual(one[0]);
    expect(two[0]).toEqual(one[1]);
  });

  it("are features of the extractor, after the older ones (old model files keep their indexes)", () => {
    const first = FEATURE_NAMES.indexOf(SET_FEATURE_NAMES[0]);
    expect(FEATURE_NAMES.indexOf("queryTerms")).toBeLessThan(first);
    expect(FEATURE_NAMES.slice(first, first + SET_FEATURE_NAMES.length)).toEqual([...SET_FEATURE_NAMES]);
  });
});

describe("lexical features added for the learned ranker", () => {
  const query = "annual report of Rule 14.12 filed by the operator";
  const rows = new FeatureExtractor().extract(query, [
    cand("d_chunk_1", 1, "The operator shall file the annual report under Rule 14.12 each year."),
    cand("d_chunk_2", 2, "An operator files a report. The annual audit is separate.", { sectionTitle: "Annual report", parentChain: ["Rule 9 Operators"] }),
    cand("d_chunk_3", 3, "Unrelated text about fees and charges payable."),
  ]);

  it("bm25 is highest for the candidate matching the most query stems and 0 without any", () => {
    expect(rows[0].bm25).toBe(1);
    expect(rows[1].bm25).toBeGreaterThan(0);
    expect(rows[1].bm25).toBeLessThan(1);
    expect(rows[2].bm25).toBe(0);
  });

  it("numbers is the share of the query's numeric stems in the chunk", () => {
    expect(rows[0].numbers).toBe(1);
    expect(rows[1].numbers).toBe(0);
  });

  it("run measures the longest stretch of consecutive query stems found together", () => {
    // "annual report" is a two-stem run in chunks 1 and 2; chunk 3 has none.
    expect(rows[0].run).toBeGreaterThan(0);
    expect(rows[2].run).toBe(0);
    expect(rows[0].run).toBeGreaterThanOrEqual(rows[1].run);
  });

  it("headingIdf counts query stems in the section title and parent chain, rarest marks the rarest stem", () => {
    expect(rows[1].headingIdf).toBeGreaterThan(0);
    expect(rows[0].headingIdf).toBe(0);
    // "14" and "12" occur in one candidate only: the rarest query stem, present in chunk 1 alone.
    expect(rows.map((r) => r.rarest)).toEqual([1, 0, 0]);
  });
});
