import { beforeEach, describe, expect, it } from "@jest/globals";
import { closedPort, expectHierdocError, expectStoreUnavailable, FIXTURE_DIMENSIONS, makeStoreRecord, makeStoreRecords, makeVector, reopenableStore, runStoreConformance, serveDuringSuite } from "@hierdoc/core/testing";
import { PineconeStore, mapPineconeError } from "@hierdoc/store-adapters-pinecone";
import { FakePinecone } from "@hierdoc/store-adapters-pinecone/testing";

const conformance = serveDuringSuite(new FakePinecone(FIXTURE_DIMENSIONS));
const fake = serveDuringSuite(new FakePinecone(4));
let seq = 0;
const OPEN = { embedderId: "hash-4", dimensions: 4 };

function store(extra: Partial<ConstructorParameters<typeof PineconeStore>[0]> = {}): PineconeStore {
  return new PineconeStore({ apiKey: "test-key", host: fake.url, namespace: `ns${++seq}`, retryDelayMs: 5, ...extra });
}

runStoreConformance("pinecone (data-plane REST wire-format stand-in)", {
  async create() {
    const namespace = `conformance-${++seq}`;
    return reopenableStore(
      () => new PineconeStore({ apiKey: "test-key", host: conformance.url, namespace, retryDelayMs: 5, maxBatchSize: 8 }),
      () => [namespace, `${namespace}__hierdoc_meta`].forEach((ns) => conformance.namespaces.delete(ns)),
    );
  },
  async unreachable() {
    return new PineconeStore({ apiKey: "k", host: `http://127.0.0.1:${await closedPort()}`, retries: 1, retryDelayMs: 5 });
  },
});

describe("PineconeStore requests (asserted against the Pinecone data-plane REST API)", () => {
  beforeEach(() => fake.reset());

  it("declares dense-only capabilities: no full text, no native hybrid (the router fuses in the app)", () => {
    const s = store();
    expect(s.capabilities).toEqual({ vectorSearch: true, nativeHybrid: false, fullText: false, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 100 });
    expect(Object.isFrozen(s.capabilities)).toBe(true);
    expect("hybridSearch" in s).toBe(false);
    expect("fullTextSearch" in s).toBe(false);
  });

  it("open reads describe_index_stats, fetches the meta record and writes it once, with the API key and version headers", async () => {
    const s = store({ namespace: "first" });
    await s.open({ embedderId: "emb/x@1", dimensions: 4 });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /describe_index_stats", "GET /vectors/fetch", "POST /vectors/upsert"]);
    expect(fake.requests[0].headers["api-key"]).toBe("test-key");
    expect(fake.requests[0].headers["x-pinecone-api-version"]).toMatch(/^\d{4}-\d{2}$/);
    expect(fake.requests[1].query).toEqual({ ids: ["hierdoc-meta"], namespace: "first__hierdoc_meta" });
    expect(fake.requests[2].body).toEqual({
      vectors: [{ id: "hierdoc-meta", values: [1, 0, 0, 0], metadata: { hierdoc_embedder_id: "emb/x@1", hierdoc_dimensions: 4 } }],
      namespace: "first__hierdoc_meta",
    });
    fake.reset();
    await store({ namespace: "first" }).open({ embedderId: "emb/x@1", dimensions: 4 });
    expect(fake.requests.map((r) => r.path)).toEqual(["/describe_index_stats", "/vectors/fetch"]);
  });

  it("upserts in batches of maxBatchSize: id = chunk id, values, metadata = sourcePath + record JSON", async () => {
    const s = store({ maxBatchSize: 2, namespace: "up" });
    await s.open(OPEN);
    fake.reset();
    const records = makeStoreRecords(5, { dimensions: 4 });
    await s.upsert(records);
    const ups = fake.find("/vectors/upsert");
    expect(ups.map((r) => r.body.vectors.length)).toEqual([2, 2, 1]);
    expect(ups[0].body.namespace).toBe("up");
    expect(ups[0].body.vectors[0]).toEqual({
      id: records[0].record.id,
      values: Array.from(records[0].vector),
      metadata: { sourcePath: "docs/alpha.md", record: JSON.stringify(records[0].record) },
    });
  });

  it("rejects a record whose metadata exceeds Pinecone's 40 KB before sending anything", async () => {
    const s = store();
    await s.open(OPEN);
    fake.reset();
    const big = makeStoreRecord(0, { dimensions: 4, record: { content: "x".repeat(45_000) } });
    await expectHierdocError(s.upsert([makeStoreRecord(1, { dimensions: 4 }), big]), { code: "E_INVALID_ARGUMENT", adapter: "pinecone", operation: "upsert" });
    expect(fake.requests).toHaveLength(0);
  });

  it("vector search sends /query with topK, the $in filter and no metadata or values", async () => {
    const s = store({ namespace: "q" });
    await s.open(OPEN);
    const records = makeStoreRecords(4, { dimensions: 4, sourcePaths: ["a.md", "b.md"] });
    await s.upsert(records);
    fake.reset();
    const hits = await s.vectorSearch({ vector: records[1].vector, topK: 2, filter: { sourcePaths: ["b.md"] } });
    expect(hits.map((h) => h.id)).toEqual([records[1].record.id, records[3].record.id]);
    expect(hits[0].score).toBeCloseTo(1, 5);
    expect(fake.find("/query")[0].body).toEqual({
      namespace: "q",
      vector: Array.from(records[1].vector),
      topK: 2,
      includeMetadata: false,
      includeValues: false,
      filter: { sourcePath: { $in: ["b.md"] } },
    });
  });

  it("gets with fetch in id batches, deletes by ids and by metadata filter, scans list pages, counts from stats", async () => {
    const s = store({ namespace: "crud", fetchBatchSize: 2, scanPageSize: 3 });
    await s.open(OPEN);
    const records = makeStoreRecords(7, { dimensions: 4, sourcePaths: ["a.md"] });
    await s.upsert(records);
    fake.reset();
    expect(await s.get([records[0].record.id, "nope", records[6].record.id])).toEqual([records[0].record, records[6].record]);
    expect(fake.find("/vectors/fetch").map((r) => r.query.ids)).toEqual([[records[0].record.id, "nope"], [records[6].record.id]]);
    fake.reset();
    let n = 0;
    for await (const r of s.scan()) n += r.sourcePath === "a.md" ? 1 : 0;
    expect(n).toBe(7);
    const lists = fake.find("/vectors/list");
    expect(lists.map((r) => r.query.limit)).toEqual(["3", "3", "3"]);
    expect(lists[0].query.paginationToken).toBeUndefined();
    expect(lists[1].query.paginationToken).toBeDefined();
    expect(await s.count()).toBe(7);
    fake.reset();
    await s.deleteByIds([records[0].record.id]);
    await s.deleteBySource("a.md");
    expect(fake.find("/vectors/delete").map((r) => r.body)).toEqual([
      { ids: [records[0].record.id], namespace: "crud" },
      { filter: { sourcePath: { $eq: "a.md" } }, namespace: "crud" },
    ]);
    expect(await s.count()).toBe(0);
  });
});

describe("PineconeStore failure handling", () => {
  beforeEach(() => fake.reset());

  it("retries 503 answers and then succeeds", async () => {
    const s = store();
    await s.open(OPEN);
    fake.reset();
    fake.failNext = [{ status: 503 }, { status: 503 }];
    expect(await s.count()).toBe(0);
    expect(fake.requests).toHaveLength(3);
  });

  it("gives up on a persistent 500 with a retryable E_STORE_UNAVAILABLE naming adapter, operation and attempts", async () => {
    const s = store({ retries: 2 });
    await s.open(OPEN);
    fake.reset();
    fake.failNext = Array(3).fill({ status: 500, body: { code: 13, message: "storage failure", details: [] } });
    // The SDK turns every 5xx into PineconeMaxRetriesExceededError (status and body dropped), so all 5xx
    // answers look alike here: unavailable, retryable.
    const err = await expectHierdocError(s.vectorSearch({ vector: makeVector("q", 4), topK: 2 }), { code: "E_STORE_UNAVAILABLE", adapter: "pinecone", operation: "vectorSearch", retryable: true });
    expect(err.details.attempts).toBe(3);
    expect(err.details.driverError).toBe("PineconeMaxRetriesExceededError");
    expect(fake.requests).toHaveLength(3);
  });

  it("maps 429 (unmapped by the SDK) to a retryable E_STORE_UNAVAILABLE, and retries it", async () => {
    const s = store({ retries: 1 });
    await s.open(OPEN);
    fake.reset();
    fake.failNext = [429, 429].map((status) => ({ status, body: { code: 8, message: "Request rate limit exceeded", details: [] } }));
    const err = await expectStoreUnavailable(s.count(), { adapter: "pinecone", operation: "count" });
    expect(err.details.status).toBe(429);
    expect(fake.requests).toHaveLength(2);
  });

  it("an index of another size fails open with E_DIMENSION_MISMATCH; the server's 400 dimension answer maps the same", async () => {
    await expectHierdocError(store().open({ embedderId: "e", dimensions: 8 }), { code: "E_DIMENSION_MISMATCH", adapter: "pinecone", operation: "open" });
    const s = store();
    await s.open(OPEN);
    fake.dimension = 3;
    try {
      await expectHierdocError(s.upsert([makeStoreRecord(0, { dimensions: 4 })]), { code: "E_DIMENSION_MISMATCH", adapter: "pinecone", operation: "upsert", retryable: false });
    } finally {
      fake.dimension = 4;
    }
  });

  it("a wrong API key is a non-retryable E_STORE", async () => {
    fake.failNext = [{ status: 401, body: { error: { code: "UNAUTHENTICATED", message: "Invalid API Key" }, status: 401 } }];
    const err = await expectHierdocError(store().open(OPEN), { code: "E_STORE", adapter: "pinecone", operation: "open", retryable: false });
    expect(fake.requests).toHaveLength(1);
    expect(mapPineconeError(err.cause, "open", "h").details.status).toBe(401);
  });

  it("reports a host that never answers as E_TIMEOUT after one attempt (the request is aborted)", async () => {
    const s = store({ timeoutMs: 200, retries: 3 });
    fake.hang = true;
    await expectHierdocError(s.open(OPEN), { code: "E_TIMEOUT", adapter: "pinecone", operation: "open", retryable: true });
    expect(fake.requests).toHaveLength(1);
  });

  it("refuses calls before open and bad options", async () => {
    await expectHierdocError(store().count(), { code: "E_STORE", adapter: "pinecone", operation: "count" });
    expect(() => new PineconeStore({ apiKey: "", host: "h" })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
    expect(() => new PineconeStore({ apiKey: "k", host: "" })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
    expect(() => new PineconeStore({ apiKey: "k", host: "h", maxBatchSize: 5000 })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
  });

  it("a host that goes away after open makes reads and writes fail with a retryable E_STORE_UNAVAILABLE", async () => {
    const other = new FakePinecone(4);
    await other.start();
    try {
      const s = new PineconeStore({ apiKey: "k", host: other.url, retries: 1, retryDelayMs: 5 });
      await s.open(OPEN);
      await s.upsert([makeStoreRecord(1, { dimensions: 4 })]);
      await other.stop(); // the service goes away
      await expectStoreUnavailable(s.count(), { adapter: "pinecone", operation: "count" });
      await expectStoreUnavailable(s.vectorSearch({ vector: makeVector("q", 4), topK: 1 }), { adapter: "pinecone", operation: "vectorSearch" });
      await expectStoreUnavailable(s.upsert([makeStoreRecord(2, { dimensions: 4 })]), { adapter: "pinecone", operation: "upsert" });
    } finally {
      await other.stop(); // idempotent; also on failure, so no listening server outlives the test
    }
  });
});
