import { describe, expect, it } from "@jest/globals";
import { MongoServerError } from "mongodb";
import { closedPort, expectHierdocError, expectStoreUnavailable } from "@hierdoc/core/testing";
import { MongoStore, hybridPipeline, mapMongoError, searchIndexDefinitions, textSearchPipeline, vectorSearchPipeline } from "@hierdoc/store-adapters-mongodb";

const names = { vector: "chunks_vector", text: "chunks_text" };

describe("MongoDB aggregation pipelines (as data, checked against the Atlas Search / $rankFusion reference)", () => {
  it("dense search: $vectorSearch on `vector` with numCandidates, limit and a sourcePath $in pre-filter, then the vectorSearchScore", () => {
    expect(vectorSearchPipeline("chunks_vector", [0.1, 0.2], 5, ["a.md", "b.md"])).toEqual([
      { $vectorSearch: { index: "chunks_vector", path: "vector", queryVector: [0.1, 0.2], numCandidates: 100, limit: 5, filter: { sourcePath: { $in: ["a.md", "b.md"] } } } },
      { $project: { _id: 1, score: { $meta: "vectorSearchScore" } } },
    ]);
    const stage = vectorSearchPipeline("v", [1], 2000)[0].$vectorSearch as Record<string, unknown>;
    expect(stage.numCandidates).toBe(10_000);
    expect(stage).not.toHaveProperty("filter");
  });

  it("full text: $search text on `text` (compound + `in` filter when filtered), $limit, searchScore", () => {
    expect(textSearchPipeline("chunks_text", "right to erasure", 3)).toEqual([
      { $search: { index: "chunks_text", text: { query: "right to erasure", path: "text" } } },
      { $limit: 3 },
      { $project: { _id: 1, score: { $meta: "searchScore" } } },
    ]);
    expect(textSearchPipeline("chunks_text", "erasure", 3, ["gdpr.md"])[0]).toEqual({
      $search: { index: "chunks_text", compound: { must: [{ text: { query: "erasure", path: "text" } }], filter: [{ in: { path: "sourcePath", value: ["gdpr.md"] } }] } },
    });
  });

  it("hybrid is one aggregation: $rankFusion over a vector and a text pipeline, weighted, then $limit and the fused score", () => {
    const p = hybridPipeline(names, "erasure", [1, 0], 4, { candidates: 20, weights: { vector: 0.7, text: 0.3 }, sourcePaths: ["gdpr.md"] });
    expect(p).toEqual([
      {
        $rankFusion: {
          input: {
            pipelines: {
              vector: [{ $vectorSearch: { index: "chunks_vector", path: "vector", queryVector: [1, 0], numCandidates: 200, limit: 20, filter: { sourcePath: { $in: ["gdpr.md"] } } } }],
              text: [
                { $search: { index: "chunks_text", compound: { must: [{ text: { query: "erasure", path: "text" } }], filter: [{ in: { path: "sourcePath", value: ["gdpr.md"] } }] } } },
                { $limit: 20 },
              ],
            },
          },
          combination: { weights: { vector: 0.7, text: 0.3 } },
        },
      },
      { $limit: 4 },
      { $project: { _id: 1, score: { $meta: "score" } } },
    ]);
    const defaults = hybridPipeline(names, "x", [1], 1, { candidates: 5 })[0].$rankFusion as { combination: unknown };
    expect(defaults.combination).toEqual({ weights: { vector: 1, text: 1 } });
  });

  it("search index definitions: a vectorSearch index (cosine, numDimensions, sourcePath filter) and a search index on text", () => {
    expect(searchIndexDefinitions(names, 384)).toEqual([
      { name: "chunks_vector", type: "vectorSearch", definition: { fields: [{ type: "vector", path: "vector", numDimensions: 384, similarity: "cosine" }, { type: "filter", path: "sourcePath" }] } },
      { name: "chunks_text", type: "search", definition: { mappings: { dynamic: false, fields: { text: { type: "string", analyzer: "lucene.standard" }, sourcePath: { type: "token" } } } } },
    ]);
  });
});

describe("MongoStore error handling (real driver, no server)", () => {
  it("an unreachable cluster fails open() with a retryable E_STORE_UNAVAILABLE naming adapter and operation", async () => {
    const port = await closedPort();
    const s = new MongoStore({ uri: `mongodb://user:secret@127.0.0.1:${port}/?directConnection=true`, timeoutMs: 300, retries: 1, retryDelayMs: 5 });
    const err = await expectStoreUnavailable(s.open({ embedderId: "e", dimensions: 4 }), { adapter: "mongodb", operation: "open" });
    expect(err.details.driverError).toBe("MongoServerSelectionError");
    expect(err.details.attempts).toBe(2);
    expect(err.message).not.toContain("secret");
    await s.close();
  });

  it("maps server errors: MaxTimeMSExpired → E_TIMEOUT, a vector dimension complaint → E_DIMENSION_MISMATCH, others → E_STORE", () => {
    expect(mapMongoError(new MongoServerError({ code: 50, errmsg: "operation exceeded time limit" }), "count", "h")).toMatchObject({ code: "E_TIMEOUT", retryable: true, details: { adapter: "mongodb", operation: "count", serverCode: 50 } });
    const dims = new MongoServerError({ code: 8, errmsg: "PlanExecutor error during aggregation :: caused by :: vector field is indexed with 4 dimensions but queried with 3" });
    expect(mapMongoError(dims, "vectorSearch", "h")).toMatchObject({ code: "E_DIMENSION_MISMATCH", retryable: false });
    const missing = new MongoServerError({ code: 40324, errmsg: "Unrecognized pipeline stage name: '$rankFusion'" });
    expect(mapMongoError(missing, "hybridSearch", "h")).toMatchObject({ code: "E_STORE", retryable: false });
  });

  it("refuses calls before open and a malformed connection string", async () => {
    const s = new MongoStore({ uri: "mongodb://127.0.0.1:1" });
    await expectHierdocError(s.count(), { code: "E_STORE", adapter: "mongodb", operation: "count" });
    expect(() => new MongoStore({ uri: "http://not-mongo" })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
  });
});
