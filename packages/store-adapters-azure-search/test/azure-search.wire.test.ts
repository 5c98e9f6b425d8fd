import { beforeEach, describe, expect, it } from "@jest/globals";
import { closedPort, expectHierdocError, expectStoreUnavailable, makeStoreRecord, makeStoreRecords, makeVector, reopenableStore, runStoreConformance, serveDuringSuite } from "@hierdoc/core/testing";
import { AzureSearchStore, documentKey } from "@hierdoc/store-adapters-azure-search";
import { FakeAzureSearch } from "@hierdoc/store-adapters-azure-search/testing";

const fake = serveDuringSuite(new FakeAzureSearch());
let seq = 0;
const OPEN = { embedderId: "hash-4", dimensions: 4 };

function store(extra: Partial<ConstructorParameters<typeof AzureSearchStore>[0]> = {}): AzureSearchStore {
  return new AzureSearchStore({ endpoint: fake.url, apiKey: "test-key", indexName: `i${++seq}`, retryDelayMs: 5, ...extra });
}

runStoreConformance("azure-search (REST 2024-07-01 wire-format stand-in)", {
  async create() {
    const indexName = `conformance-${++seq}`;
    return reopenableStore(() => new AzureSearchStore({ endpoint: fake.url, apiKey: "test-key", indexName, retryDelayMs: 5, maxBatchSize: 8 }), () => fake.indexes.delete(indexName));
  },
  async unreachable() {
    return new AzureSearchStore({ endpoint: `http://127.0.0.1:${await closedPort()}`, apiKey: "k", retries: 1, retryDelayMs: 5 });
  },
});

describe("AzureSearchStore requests (asserted against the Azure AI Search REST API 2024-07-01)", () => {
  beforeEach(() => fake.reset());

  it("open gets the index, creates it (HNSW cosine profile, vector dimensions, searchable text) and writes the meta document", async () => {
    const s = store({ indexName: "create-me" });
    await s.open({ embedderId: "emb/x@1", dimensions: 4 });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /indexes('create-me')",
      "POST /indexes",
      "GET /indexes('create-me')",
      "POST /indexes('create-me')/docs/search.post.search",
      "POST /indexes('create-me')/docs/search.index",
    ]);
    expect(fake.requests.map((r) => [r.query["api-version"], r.headers["api-key"]])).toEqual(Array(5).fill(["2024-07-01", "test-key"]));
    const def = fake.requests[1].body;
    expect(def.fields.find((f: { name: string }) => f.name === "vector")).toMatchObject({ type: "Collection(Edm.Single)", searchable: true, dimensions: 4, vectorSearchProfile: "hierdoc-hnsw" });
    expect(def.fields.find((f: { name: string }) => f.name === "id")).toMatchObject({ key: true, filterable: true, sortable: true });
    expect(def.fields.find((f: { name: string }) => f.name === "text")).toMatchObject({ searchable: true, analyzer: "standard.lucene" });
    expect(def.vectorSearch).toEqual({
      algorithms: [{ name: "hierdoc-hnsw-cosine", kind: "hnsw", hnswParameters: { metric: "cosine", m: 4, efConstruction: 400, efSearch: 500 } }],
      profiles: [{ name: "hierdoc-hnsw", algorithm: "hierdoc-hnsw-cosine" }],
    });
    expect(fake.requests[3].body).toEqual({ filter: "kind eq 'meta'", top: 1, select: "id,embedderId,dimensions" });
    expect(fake.requests[4].body).toEqual({ value: [{ "@search.action": "upload", id: "hierdoc=meta", kind: "meta", embedderId: "emb/x@1", dimensions: 4 }] });
  });

  it("upserts with upload actions in batches: base64url keys, vectors, record JSON without indexedText", async () => {
    const s = store({ maxBatchSize: 2, indexName: "up" });
    await s.open(OPEN);
    fake.reset();
    const records = makeStoreRecords(5, { dimensions: 4 });
    await s.upsert(records);
    const batches = fake.find("/docs/search.index");
    expect(batches.map((r) => r.body.value.length)).toEqual([2, 2, 1]);
    const { indexedText, ...rest } = records[0].record;
    expect(batches[0].body.value[0]).toEqual({
      "@search.action": "upload",
      id: documentKey(records[0].record.id),
      chunkId: records[0].record.id,
      sourcePath: "docs/alpha.md",
      kind: "chunk",
      text: indexedText,
      record: JSON.stringify(rest),
      vector: Array.from(records[0].vector),
    });
    expect(documentKey(records[0].record.id)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("vector search sends vectorQueries (k, fields) with preFilter and an OData filter; scores come back as cosine", async () => {
    const s = store({ indexName: "vec" });
    await s.open(OPEN);
    const records = makeStoreRecords(4, { dimensions: 4, sourcePaths: ["a.md", "b'quote.md"] });
    await s.upsert(records);
    fake.reset();
    const hits = await s.vectorSearch({ vector: records[1].vector, topK: 2, filter: { sourcePaths: ["b'quote.md"] } });
    expect(hits.map((h) => h.id)).toEqual([records[1].record.id, records[3].record.id]);
    expect(hits[0].score).toBeCloseTo(1, 5);
    const [q] = fake.find("/docs/search.post.search");
    expect(q.body).toEqual({
      filter: "kind eq 'chunk' and (sourcePath eq 'b''quote.md')",
      top: 2,
      select: "chunkId",
      vectorQueries: [{ kind: "vector", vector: Array.from(records[1].vector), k: 2, fields: "vector" }],
      vectorFilterMode: "preFilter",
    });
  });

  it("hybrid search is one request with search text and a vector query (the service fuses with RRF)", async () => {
    const s = store({ indexName: "hybrid", hybridCandidates: (k) => k * 10 });
    await s.open(OPEN);
    await s.upsert(makeStoreRecords(3, { dimensions: 4 }));
    fake.reset();
    const v = makeVector("q", 4);
    const hits = await s.hybridSearch({ text: "Rule number", vector: v, topK: 3 });
    expect(hits.length).toBe(3);
    const searches = fake.find("/docs/search.post.search");
    expect(searches).toHaveLength(1);
    expect(searches[0].body).toEqual({
      search: "Rule number",
      filter: "kind eq 'chunk'",
      top: 3,
      select: "chunkId",
      searchFields: "text",
      queryType: "simple",
      searchMode: "any",
      vectorQueries: [{ kind: "vector", vector: Array.from(v), k: 30, fields: "vector" }],
      vectorFilterMode: "preFilter",
    });
  });

  it("get uses search.in on keys; count is a filtered $count; scan pages with orderby id + id gt; deleteBySource finds keys then deletes", async () => {
    const s = store({ indexName: "crud", scanPageSize: 3, maxBatchSize: 4 });
    await s.open(OPEN);
    const records = makeStoreRecords(7, { dimensions: 4, sourcePaths: ["a.md"] });
    await s.upsert(records);
    fake.reset();
    expect(await s.get([records[2].record.id, "nope"])).toEqual([records[2].record]);
    expect(fake.requests[0].body).toMatchObject({ filter: `search.in(id, '${documentKey(records[2].record.id)},${documentKey("nope")}', ',')`, top: 2 });
    expect(await s.count()).toBe(7);
    expect(fake.requests[1].body).toMatchObject({ search: "*", filter: "kind eq 'chunk'", count: true, top: 0 });
    fake.reset();
    let n = 0;
    for await (const r of s.scan()) n += r.sourcePath === "a.md" ? 1 : 0;
    expect(n).toBe(7);
    const pages = fake.find("/docs/search.post.search").map((r) => r.body);
    expect(pages.map((b) => b.orderby)).toEqual(["id asc", "id asc", "id asc"]);
    expect(pages[0].filter).toBe("kind eq 'chunk'");
    expect(pages[1].filter).toMatch(/^kind eq 'chunk' and id gt '[A-Za-z0-9_-]+'$/);
    fake.reset();
    await s.deleteBySource("a.md");
    const deletes = fake.find("/docs/search.index").map((r) => r.body.value);
    expect(deletes.map((v) => v.length)).toEqual([4, 3]);
    expect(deletes[0][0]["@search.action"]).toBe("delete");
    expect(await s.count()).toBe(0);
  });
});

describe("AzureSearchStore failure handling", () => {
  beforeEach(() => fake.reset());

  it("retries 503 (throttling) answers and then succeeds", async () => {
    const s = store();
    await s.open(OPEN);
    fake.reset();
    fake.failNext = [{ status: 503 }, { status: 503 }];
    expect(await s.count()).toBe(0);
    expect(fake.requests).toHaveLength(3);
  });

  it("gives up on a persistent 500 with a retryable E_STORE naming adapter, operation and attempts", async () => {
    const s = store({ retries: 2 });
    await s.open(OPEN);
    fake.reset();
    fake.failNext = Array(3).fill({ status: 500, body: { error: { code: "", message: "internal failure" } } });
    const err = await expectHierdocError(s.vectorSearch({ vector: makeVector("q", 4), topK: 1 }), { code: "E_STORE", adapter: "azure-search", operation: "vectorSearch", retryable: true });
    expect(err.details.attempts).toBe(3);
    expect(err.message).toContain("internal failure");
  });

  it("maps 429 to a retryable E_STORE_UNAVAILABLE", async () => {
    const s = store({ retries: 0 });
    await s.open(OPEN);
    fake.failNext = [{ status: 429, body: { error: { code: "", message: "Too many requests" } }, headers: { "retry-after": "1" } }];
    await expectStoreUnavailable(s.count(), { adapter: "azure-search", operation: "count" });
  });

  it("a 207 with throttled items is retried as a whole; the service's dimension 400 maps to E_DIMENSION_MISMATCH", async () => {
    const s = store({ indexName: "partial" });
    await s.open(OPEN);
    fake.reset();
    fake.itemStatusNext = 503;
    await s.upsert([makeStoreRecord(1, { dimensions: 4 })]);
    expect(fake.find("/docs/search.index")).toHaveLength(2);
    expect(await s.count()).toBe(1);
    fake.indexes.get("partial")!.definition.fields.find((f: { name: string }) => f.name === "vector").dimensions = 3;
    const err = await expectHierdocError(s.upsert([makeStoreRecord(2, { dimensions: 4 })]), { code: "E_DIMENSION_MISMATCH", adapter: "azure-search", operation: "upsert", retryable: false });
    expect(err.message).toContain("length of '4'");
  });

  it("a wrong key (403) is a non-retryable E_STORE", async () => {
    const s = new AzureSearchStore({ endpoint: fake.url, apiKey: "wrong", indexName: "xx", retryDelayMs: 5 });
    await expectHierdocError(s.open(OPEN), { code: "E_STORE", adapter: "azure-search", operation: "open", retryable: false });
    expect(fake.requests).toHaveLength(1);
  });

  it("reports a service that never answers as E_TIMEOUT after one attempt (the request is aborted)", async () => {
    const s = store({ timeoutMs: 200, retries: 3 });
    fake.hang = true;
    await expectHierdocError(s.open(OPEN), { code: "E_TIMEOUT", adapter: "azure-search", operation: "open", retryable: true });
    expect(fake.requests).toHaveLength(1);
  });

  it("refuses an index hierdoc did not create, calls before open, and bad options", async () => {
    fake.indexes.set("foreign", { definition: { name: "foreign", fields: [{ name: "id", type: "Edm.String", key: true }] }, docs: new Map() });
    await expectHierdocError(store({ indexName: "foreign" }).open(OPEN), { code: "E_STORE", adapter: "azure-search", operation: "open" });
    await expectHierdocError(store().count(), { code: "E_STORE", adapter: "azure-search", operation: "count" });
    expect(() => new AzureSearchStore({ endpoint: "nope", apiKey: "k" })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
    expect(() => new AzureSearchStore({ endpoint: "https://x", apiKey: "k", indexName: "Upper_Case" })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
  });

  it("a service that goes away after open makes reads and writes fail with a retryable E_STORE_UNAVAILABLE", async () => {
    const other = new FakeAzureSearch();
    await other.start();
    try {
      const s = new AzureSearchStore({ endpoint: other.url, apiKey: "test-key", indexName: "gone", retries: 1, retryDelayMs: 5 });
      await s.open(OPEN);
      await s.upsert([makeStoreRecord(1, { dimensions: 4 })]);
      await other.stop(); // the service goes away
      await expectStoreUnavailable(s.count(), { adapter: "azure-search", operation: "count" });
      await expectStoreUnavailable(s.hybridSearch({ text: "rule", vector: makeVector("q", 4), topK: 1 }), { adapter: "azure-search", operation: "hybridSearch" });
      await expectStoreUnavailable(s.upsert([makeStoreRecord(2, { dimensions: 4 })]), { adapter: "azure-search", operation: "upsert" });
    } finally {
      await other.stop(); // idempotent; also on failure, so no listening server outlives the test
    }
  });
});
