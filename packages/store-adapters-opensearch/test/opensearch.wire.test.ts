import { afterAll, beforeEach, describe, expect, it } from "@jest/globals";
import { closedPort, expectHierdocError, expectStoreUnavailable, makeStoreRecord, makeStoreRecords, makeVector, reopenableStore, runStoreConformance, serveDuringSuite } from "@hierdoc/core/testing";
import { OpenSearchStore, hybridPipelineBody, openSearchIndexBody } from "@hierdoc/store-adapters-opensearch";
import { FakeOpenSearch } from "@hierdoc/store-adapters-opensearch/testing";

const fake = serveDuringSuite(new FakeOpenSearch());
let seq = 0;
const OPEN = { embedderId: "hash-4", dimensions: 4 };

const open: OpenSearchStore[] = [];
function store(extra: Partial<ConstructorParameters<typeof OpenSearchStore>[0]> = {}): OpenSearchStore {
  const s = new OpenSearchStore({ node: fake.url, index: `i${++seq}`, retryDelayMs: 5, ...extra });
  open.push(s);
  return s;
}
afterAll(async () => {
  for (const s of open) await s.close();
});

runStoreConformance("opensearch (REST wire-format stand-in)", {
  async create() {
    const index = `conformance-${++seq}`;
    return reopenableStore(() => new OpenSearchStore({ node: fake.url, index, retryDelayMs: 5, maxBatchSize: 8 }), () => fake.indices.delete(index));
  },
  async unreachable() {
    return new OpenSearchStore({ node: `http://127.0.0.1:${await closedPort()}`, retries: 1, retryDelayMs: 5 });
  },
});

describe("OpenSearchStore requests (asserted against the OpenSearch REST API)", () => {
  beforeEach(() => fake.reset());

  it("open reads the mapping, creates the index (knn_vector HNSW cosinesimil, BM25 text, _meta) and puts the hybrid pipeline", async () => {
    const s = store({ index: "create-me", hybridWeights: { text: 0.3, vector: 0.7 } });
    await s.open({ embedderId: "emb/x@1", dimensions: 4 });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /create-me/_mapping",
      "PUT /create-me",
      "GET /create-me/_mapping",
      "PUT /_search/pipeline/hierdoc-hybrid-create-me",
    ]);
    const create = fake.requests[1].body;
    expect(create).toEqual(openSearchIndexBody({ embedderId: "emb/x@1", dimensions: 4 }));
    expect(create.settings.index.knn).toBe(true);
    expect(create.mappings._meta).toEqual({ hierdoc_embedder_id: "emb/x@1", hierdoc_dimensions: 4 });
    expect(create.mappings.properties.vector).toEqual({
      type: "knn_vector",
      dimension: 4,
      method: { name: "hnsw", space_type: "cosinesimil", engine: "lucene", parameters: { m: 16, ef_construction: 128 } },
    });
    expect(fake.requests[3].body).toEqual({
      description: expect.any(String),
      phase_results_processors: [
        { "normalization-processor": { normalization: { technique: "min_max" }, combination: { technique: "arithmetic_mean", parameters: { weights: [0.3, 0.7] } } } },
      ],
    });
    expect(fake.requests[3].body).toEqual(hybridPipelineBody({ text: 0.3, vector: 0.7 }));
  });

  it("upserts with NDJSON _bulk index actions in batches, refresh=wait_for, record stored without a duplicate indexedText", async () => {
    const s = store({ maxBatchSize: 2, index: "bulk-batches" });
    await s.open(OPEN);
    fake.reset();
    const records = makeStoreRecords(5, { dimensions: 4 });
    await s.upsert(records);
    const bulks = fake.find("/_bulk", "POST");
    expect(bulks.map((r) => r.body.length)).toEqual([4, 4, 2]);
    expect(bulks.every((r) => r.query.refresh === "wait_for" && r.contentType.includes("application/x-ndjson"))).toBe(true);
    const [{ index }, doc] = bulks[0].body;
    expect(index).toEqual({ _index: "bulk-batches", _id: records[0].record.id });
    const { indexedText, ...rest } = records[0].record;
    expect(doc).toEqual({ vector: Array.from(records[0].vector), text: indexedText, source_path: "docs/alpha.md", chunk_id: records[0].record.id, record: rest });
  });

  it("vector search is a knn query with the filter inside the clause; scores come back as cosine", async () => {
    const s = store();
    await s.open(OPEN);
    const records = makeStoreRecords(4, { dimensions: 4, sourcePaths: ["a.md", "b.md"] });
    await s.upsert(records);
    fake.reset();
    const hits = await s.vectorSearch({ vector: records[1].vector, topK: 2, filter: { sourcePaths: ["b.md"] } });
    expect(hits.map((h) => h.id)).toEqual([records[1].record.id, records[3].record.id]);
    expect(hits[0].score).toBeCloseTo(1, 5);
    const [q] = fake.find("/_search", "POST");
    expect(q.body).toEqual({ size: 2, _source: false, query: { knn: { vector: { vector: Array.from(records[1].vector), k: 2, filter: { terms: { source_path: ["b.md"] } } } } } });
  });

  it("full text is a BM25 match, filtered with bool + terms", async () => {
    const s = store();
    await s.open(OPEN);
    fake.reset();
    await s.fullTextSearch({ text: "right to erasure", topK: 4, filter: { sourcePaths: ["gdpr.md"] } });
    expect(await s.fullTextSearch({ text: "   ", topK: 4 })).toEqual([]);
    const searches = fake.find("/_search");
    expect(searches).toHaveLength(1);
    expect(searches[0].body).toEqual({
      size: 4,
      _source: false,
      query: { bool: { must: [{ match: { text: { query: "right to erasure" } } }], filter: [{ terms: { source_path: ["gdpr.md"] } }] } },
    });
  });

  it("hybrid search is one hybrid query (match + knn) sent with ?search_pipeline", async () => {
    const s = store({ hybridCandidates: (k) => k * 10, index: "hybrid-body" });
    await s.open(OPEN);
    await s.upsert(makeStoreRecords(3, { dimensions: 4 }));
    fake.reset();
    const v = makeVector("q", 4);
    const hits = await s.hybridSearch({ text: "Rule number", vector: v, topK: 3 });
    expect(hits.length).toBe(3);
    const searches = fake.find("/_search");
    expect(searches).toHaveLength(1);
    expect(searches[0].query.search_pipeline).toBe("hierdoc-hybrid-hybrid-body");
    expect(searches[0].body).toEqual({
      size: 3,
      _source: false,
      query: { hybrid: { queries: [{ match: { text: { query: "Rule number" } } }, { knn: { vector: { vector: Array.from(v), k: 30 } } }] } },
    });
  });

  it("gets with _mget (vector excluded), deletes by id with _bulk delete and by source with _delete_by_query, scans with search_after", async () => {
    const s = store({ scanPageSize: 3, index: "crud" });
    await s.open(OPEN);
    const records = makeStoreRecords(7, { dimensions: 4, sourcePaths: ["a.md"] });
    await s.upsert(records);
    fake.reset();
    expect(await s.get([records[2].record.id, "nope"])).toEqual([records[2].record]);
    const [mget] = fake.find("/_mget");
    expect(mget.query._source_excludes).toBe("vector");
    expect(mget.body).toEqual({ ids: [records[2].record.id, "nope"] });
    let n = 0;
    for await (const r of s.scan()) n += r.sourcePath === "a.md" ? 1 : 0;
    expect(n).toBe(7);
    const scans = fake.find("/_search");
    expect(scans.map((r) => r.body.search_after)).toEqual([undefined, [records[2].record.id], [records[5].record.id]]);
    expect(scans[0].body).toMatchObject({ size: 3, sort: [{ chunk_id: "asc" }], _source: { excludes: ["vector"] } });
    await s.deleteByIds([records[0].record.id, "missing"]);
    const [del] = fake.find("/_bulk");
    expect(del.body).toEqual([{ delete: { _index: "crud", _id: records[0].record.id } }, { delete: { _index: "crud", _id: "missing" } }]);
    await s.deleteBySource("a.md");
    const [dbq] = fake.find("/_delete_by_query");
    expect(dbq.query).toMatchObject({ refresh: "true", conflicts: "proceed" });
    expect(dbq.body).toEqual({ query: { term: { source_path: "a.md" } } });
    expect(await s.count()).toBe(0);
  });
});

describe("OpenSearchStore failure handling", () => {
  beforeEach(() => fake.reset());

  it("retries 503 answers and then succeeds", async () => {
    const s = store();
    await s.open(OPEN);
    fake.reset();
    fake.failNext = [{ status: 503 }, { status: 503 }];
    expect(await s.count()).toBe(0);
    expect(fake.find("/_count")).toHaveLength(3);
  });

  it("gives up on a persistent 500 with a retryable E_STORE naming adapter, operation and attempts", async () => {
    const s = store({ retries: 2 });
    await s.open(OPEN);
    fake.reset();
    fake.failNext = Array(3).fill({ status: 500, body: { error: { type: "exception", reason: "shard failure: disk full" }, status: 500 } });
    const err = await expectHierdocError(s.vectorSearch({ vector: makeVector("q", 4), topK: 2 }), { code: "E_STORE", adapter: "opensearch", operation: "vectorSearch", retryable: true });
    expect(err.details.attempts).toBe(3);
    expect(err.message).toContain("disk full");
  });

  it("maps 429 (cluster rejected) to a retryable E_STORE_UNAVAILABLE", async () => {
    const s = store({ retries: 0 });
    await s.open(OPEN);
    fake.failNext = [{ status: 429, body: { error: { type: "es_rejected_execution_exception", reason: "rejected execution of coordinating operation" }, status: 429 } }];
    await expectStoreUnavailable(s.count(), { adapter: "opensearch", operation: "count" });
  });

  it("a bulk answer with item errors fails the upsert: dimension mismatch → E_DIMENSION_MISMATCH, 429 items → retried", async () => {
    const s = store({ retries: 2, index: "bulk-errors" });
    await s.open(OPEN);
    // The index is recreated with another vector size behind the adapter's back: the node rejects the document.
    fake.indices.get("bulk-errors")!.body.mappings.properties.vector.dimension = 3;
    const err = await expectHierdocError(s.upsert([makeStoreRecord(0, { dimensions: 4 })]), { code: "E_DIMENSION_MISMATCH", adapter: "opensearch", operation: "upsert", retryable: false });
    expect(err.message).toContain("Vector dimension mismatch. Expected: 3, Given: 4");
    fake.indices.get("bulk-errors")!.body.mappings.properties.vector.dimension = 4;
    fake.reset();
    let rejections = 1;
    fake.bulkOverride = (items) => {
      if (rejections-- <= 0) return undefined;
      return { errors: true, items: items.map((it) => ({ index: { ...it.index, status: 429, error: { type: "es_rejected_execution_exception", reason: "queue full" } } })) };
    };
    await s.upsert([makeStoreRecord(1, { dimensions: 4 })]);
    expect(fake.find("/_bulk")).toHaveLength(2);
    expect(await s.count()).toBe(1);
  });

  it("a hybrid query without the pipeline on the node is a 400 E_STORE, not retried", async () => {
    const s = store();
    await s.open(OPEN);
    fake.pipelines.clear();
    fake.reset();
    const err = await expectHierdocError(s.hybridSearch({ text: "x", vector: makeVector("q", 4), topK: 1 }), { code: "E_STORE", adapter: "opensearch", operation: "hybridSearch", retryable: false });
    expect(err.details.status).toBe(400);
    expect(fake.requests).toHaveLength(1);
  });

  it("reports a node that never answers as E_TIMEOUT after one attempt", async () => {
    const s = store({ timeoutMs: 200, retries: 3 });
    fake.hang = true;
    await expectHierdocError(s.open(OPEN), { code: "E_TIMEOUT", adapter: "opensearch", operation: "open", retryable: true });
    expect(fake.requests).toHaveLength(1);
  });

  it("refuses an index hierdoc did not create and calls before open", async () => {
    fake.indices.set("foreign", { body: { mappings: { properties: { title: { type: "text" } } } }, docs: new Map() });
    await expectHierdocError(store({ index: "foreign" }).open(OPEN), { code: "E_STORE", adapter: "opensearch", operation: "open" });
    await expectHierdocError(store().count(), { code: "E_STORE", adapter: "opensearch", operation: "count" });
    expect(() => new OpenSearchStore({ index: "Upper" })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
    expect(() => new OpenSearchStore({ hybridWeights: { text: 0.7, vector: 0.7 } })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
  });

  it("a node that goes away after open makes reads and writes fail with a retryable E_STORE_UNAVAILABLE", async () => {
    const other = new FakeOpenSearch();
    await other.start();
    try {
      const s = new OpenSearchStore({ node: other.url, index: "gone", retries: 1, retryDelayMs: 5 });
      open.push(s);
      await s.open(OPEN);
      await s.upsert([makeStoreRecord(1, { dimensions: 4 })]);
      await other.stop(); // the service goes away
      await expectStoreUnavailable(s.count(), { adapter: "opensearch", operation: "count" });
      await expectStoreUnavailable(s.hybridSearch({ text: "rule", vector: makeVector("q", 4), topK: 1 }), { adapter: "opensearch", operation: "hybridSearch" });
      await expectStoreUnavailable(s.upsert([makeStoreRecord(2, { dimensions: 4 })]), { adapter: "opensearch", operation: "upsert" });
    } finally {
      await other.stop(); // idempotent; also on failure, so no listening server outlives the test
    }
  });
});
