import { beforeEach, describe, expect, it } from "@jest/globals";
import { HierdocError } from "@hierdoc/core";
import { closedPort, expectHierdocError, expectStoreUnavailable, makeStoreRecord, makeStoreRecords, makeVector, reopenableStore, runStoreConformance, serveDuringSuite } from "@hierdoc/core/testing";
import { QdrantClient } from "@qdrant/js-client-rest";
import { QdrantStore, documentSparseVector, mapQdrantError, pointId, querySparseVector, termIndex } from "@hierdoc/store-adapters-qdrant";
import { FakeQdrant } from "@hierdoc/store-adapters-qdrant/testing";

const fake = serveDuringSuite(new FakeQdrant());
let seq = 0;
const OPEN = { embedderId: "hash-4", dimensions: 4 };

function store(extra: Partial<ConstructorParameters<typeof QdrantStore>[0]> = {}): QdrantStore {
  return new QdrantStore({ url: fake.url, collection: `c${++seq}`, retryDelayMs: 5, ...extra });
}

runStoreConformance("qdrant (REST wire-format stand-in)", {
  async create() {
    const collection = `conformance-${++seq}`;
    return reopenableStore(() => new QdrantStore({ url: fake.url, collection, retryDelayMs: 5, maxBatchSize: 8 }), () => fake.collections.delete(collection));
  },
  async unreachable() {
    return new QdrantStore({ url: `http://127.0.0.1:${await closedPort()}`, retries: 1, retryDelayMs: 5 });
  },
});

describe("QdrantStore requests (asserted against the Qdrant REST API)", () => {
  beforeEach(() => {
    fake.requests.length = 0;
    fake.failNext = [];
    fake.hang = false;
  });

  it("open creates the collection with a cosine dense vector, an IDF sparse vector, metadata and a sourcePath index", async () => {
    const s = store({ collection: "create-me" });
    await s.open({ embedderId: "emb/x@1", dimensions: 4 });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /collections/create-me",
      "PUT /collections/create-me",
      "PUT /collections/create-me/index",
      "GET /collections/create-me",
    ]);
    expect(fake.requests[1].body).toEqual({
      vectors: { dense: { size: 4, distance: "Cosine" } },
      sparse_vectors: { text: { modifier: "idf" } },
      metadata: { hierdoc_embedder_id: "emb/x@1", hierdoc_dimensions: 4 },
    });
    expect(fake.requests[2]).toMatchObject({ query: { wait: "true" }, body: { field_name: "sourcePath", field_schema: "keyword" } });
  });

  it("upserts in batches of maxBatchSize with wait=true: UUID ids, dense + sparse vectors, the record as payload", async () => {
    const s = store({ maxBatchSize: 2 });
    await s.open(OPEN);
    fake.requests.length = 0;
    const records = makeStoreRecords(5, { dimensions: 4 });
    await s.upsert(records);
    const puts = fake.find("/points", "PUT");
    expect(puts.map((r) => r.body.points.length)).toEqual([2, 2, 1]);
    expect(puts.every((r) => r.query.wait === "true")).toBe(true);
    const first = puts[0].body.points[0];
    expect(first.id).toBe(pointId(records[0].record.id));
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.vector.dense).toEqual(Array.from(records[0].vector));
    expect(first.vector.text).toEqual(documentSparseVector(records[0].record.indexedText));
    expect(first.payload).toEqual(records[0].record);
  });

  it("vector search sends a dense Query API request with the sourcePath filter and maps payload ids back", async () => {
    const s = store();
    await s.open(OPEN);
    const records = makeStoreRecords(4, { dimensions: 4, sourcePaths: ["a.md", "b.md"] });
    await s.upsert(records);
    fake.requests.length = 0;
    const hits = await s.vectorSearch({ vector: records[1].vector, topK: 2, filter: { sourcePaths: ["b.md"] } });
    expect(hits.map((h) => h.id)).toEqual([records[1].record.id, records[3].record.id]);
    expect(hits[0].score).toBeCloseTo(1, 5);
    const [q] = fake.find("/points/query", "POST");
    expect(q.body).toEqual({
      query: Array.from(records[1].vector),
      using: "dense",
      limit: 2,
      filter: { must: [{ key: "sourcePath", match: { any: ["b.md"] } }] },
      with_payload: ["id"],
      with_vector: false,
    });
  });

  it("hybrid search is one Query API call: sparse + dense prefetch fused with rrf", async () => {
    const s = store({ prefetchLimit: (k) => k * 10 });
    await s.open(OPEN);
    await s.upsert(makeStoreRecords(3, { dimensions: 4 }));
    fake.requests.length = 0;
    const v = makeVector("q", 4);
    const hits = await s.hybridSearch({ text: "Zebra crossing", vector: v, topK: 3, filter: { sourcePaths: ["docs/alpha.md"] } });
    expect(hits.length).toBeGreaterThan(0);
    const queries = fake.find("/points/query", "POST");
    expect(queries).toHaveLength(1);
    const filter = { must: [{ key: "sourcePath", match: { any: ["docs/alpha.md"] } }] };
    expect(queries[0].body).toEqual({
      prefetch: [
        { query: querySparseVector("zebra crossing"), using: "text", limit: 30, filter },
        { query: Array.from(v), using: "dense", limit: 30, filter },
      ],
      query: { fusion: "rrf" },
      limit: 3,
      filter,
      with_payload: ["id"],
      with_vector: false,
    });
  });

  it("full text is a sparse query (hashed terms, weight 1) and a wordless query sends nothing", async () => {
    const s = store();
    await s.open(OPEN);
    fake.requests.length = 0;
    await s.fullTextSearch({ text: "Right to ERASURE", topK: 4 });
    expect(await s.fullTextSearch({ text: " — ", topK: 4 })).toEqual([]);
    const queries = fake.find("/points/query");
    expect(queries).toHaveLength(1);
    const want = ["right", "to", "erasure"].map(termIndex).sort((a, b) => a - b);
    expect(queries[0].body).toEqual({ query: { indices: want, values: [1, 1, 1] }, using: "text", limit: 4, with_payload: ["id"], with_vector: false });
  });

  it("deletes by id (UUIDs) and by source (a match filter), scrolls with next_page_offset", async () => {
    const s = store({ scanPageSize: 3 });
    await s.open(OPEN);
    const records = makeStoreRecords(7, { dimensions: 4, sourcePaths: ["a.md"] });
    await s.upsert(records);
    fake.requests.length = 0;
    let n = 0;
    for await (const r of s.scan()) n += r.sourcePath === "a.md" ? 1 : 0;
    expect(n).toBe(7);
    const scrolls = fake.find("/points/scroll");
    expect(scrolls.map((r) => r.body.limit)).toEqual([3, 3, 3]);
    expect(scrolls[0].body.offset).toBeUndefined();
    expect(scrolls[1].body.offset).toMatch(/^[0-9a-f-]{36}$/);
    await s.deleteByIds([records[0].record.id]);
    await s.deleteBySource("a.md");
    const deletes = fake.find("/points/delete");
    expect(deletes.map((r) => r.body)).toEqual([
      { points: [pointId(records[0].record.id)] },
      { filter: { must: [{ key: "sourcePath", match: { value: "a.md" } }] } },
    ]);
    expect(deletes.every((r) => r.query.wait === "true")).toBe(true);
    expect(await s.count()).toBe(0);
    expect(fake.find("/points/count").at(-1)?.body).toEqual({ exact: true });
  });
});

describe("QdrantStore failure handling", () => {
  beforeEach(() => {
    fake.requests.length = 0;
    fake.failNext = [];
    fake.hang = false;
  });

  it("retries 503 answers with backoff and then succeeds", async () => {
    const s = store();
    await s.open(OPEN);
    fake.requests.length = 0;
    fake.failNext = [{ status: 503 }, { status: 503 }];
    expect(await s.count()).toBe(0);
    expect(fake.find("/points/count")).toHaveLength(3);
  });

  it("gives up on a persistent 500 with a retryable E_STORE naming adapter, operation and attempts", async () => {
    const s = store({ retries: 2 });
    await s.open(OPEN);
    fake.requests.length = 0;
    fake.failNext = Array(3).fill({ status: 500, body: { status: { error: "Service internal error: disk full" }, time: 0 } });
    const err = await expectHierdocError(s.upsert([makeStoreRecord(0, { dimensions: 4 })]), { code: "E_STORE", adapter: "qdrant", operation: "upsert", retryable: true });
    expect(err.details.attempts).toBe(3);
    expect(err.message).toContain("disk full");
    expect(fake.find("/points", "PUT")).toHaveLength(3);
  });

  it("maps 429 (with Retry-After) to a retryable E_STORE_UNAVAILABLE", async () => {
    const s = store({ retries: 0 });
    await s.open(OPEN);
    fake.failNext = [{ status: 429, body: { status: { error: "Too many requests" } }, headers: { "retry-after": "1" } }];
    await expectStoreUnavailable(s.count(), { adapter: "qdrant", operation: "count" });
  });

  it("a 400 is not retried and keeps Qdrant's message", async () => {
    const s = store();
    await s.open(OPEN);
    fake.requests.length = 0;
    fake.failNext = [{ status: 400, body: { status: { error: "Bad request: Index required but not found for \"sourcePath\"" }, time: 0 } }];
    const err = await expectHierdocError(s.deleteBySource("x.md"), { code: "E_STORE", adapter: "qdrant", operation: "deleteBySource", retryable: false });
    expect(err.message).toContain("Index required");
    expect(fake.requests).toHaveLength(1);
  });

  it("maps the server's vector dimension error (from the real client) to E_DIMENSION_MISMATCH", async () => {
    const s = store({ collection: "dims" });
    await s.open(OPEN);
    const client = new QdrantClient({ url: fake.url, checkCompatibility: false });
    const err = await client.upsert("dims", { wait: true, points: [{ id: pointId("x"), vector: { dense: [1, 2, 3] } }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(mapQdrantError(err, "upsert", fake.url)).toMatchObject({ code: "E_DIMENSION_MISMATCH", retryable: false, details: { adapter: "qdrant", operation: "upsert", status: 400 } });
  });

  it("reports a server that never answers as E_TIMEOUT after one attempt", async () => {
    const s = store({ timeoutMs: 200, retries: 3 });
    fake.hang = true;
    const err = await expectHierdocError(s.open(OPEN), { code: "E_TIMEOUT", adapter: "qdrant", operation: "open", retryable: true });
    expect(err).toBeInstanceOf(HierdocError);
    expect(fake.requests).toHaveLength(1);
  });

  it("refuses a collection hierdoc did not create, and calls before open", async () => {
    fake.collections.set("foreign", { size: 4, distance: "Cosine", points: new Map(), config: { params: { vectors: { size: 4, distance: "Cosine" } } } });
    await expectHierdocError(store({ collection: "foreign" }).open(OPEN), { code: "E_STORE", adapter: "qdrant", operation: "open" });
    await expectHierdocError(store().count(), { code: "E_STORE", adapter: "qdrant", operation: "count" });
  });

  it("a server that goes away after open makes reads and writes fail with a retryable E_STORE_UNAVAILABLE", async () => {
    const other = new FakeQdrant();
    await other.start();
    try {
      const s = new QdrantStore({ url: other.url, collection: "gone", retries: 1, retryDelayMs: 5 });
      await s.open(OPEN);
      await s.upsert([makeStoreRecord(1, { dimensions: 4 })]);
      await other.stop(); // the service goes away
      await expectStoreUnavailable(s.count(), { adapter: "qdrant", operation: "count" });
      await expectStoreUnavailable(s.vectorSearch({ vector: makeVector("q", 4), topK: 1 }), { adapter: "qdrant", operation: "vectorSearch" });
      await expectStoreUnavailable(s.upsert([makeStoreRecord(2, { dimensions: 4 })]), { adapter: "qdrant", operation: "upsert" });
    } finally {
      await other.stop(); // idempotent; also on failure, so no listening server outlives the test
    }
  });
});

describe("sparse BM25 term weights", () => {
  it("weights a repeated term higher, saturating, and shrinks weights of long documents", () => {
    const one = documentSparseVector("zebra crossing");
    const two = documentSparseVector("zebra zebra crossing");
    const z = termIndex("zebra");
    const w = (v: { indices: number[]; values: number[] }): number => v.values[v.indices.indexOf(z)];
    expect(w(two)).toBeGreaterThan(w(one));
    expect(w(two)).toBeLessThan(2 * w(one));
    const long = documentSparseVector(`zebra ${"word ".repeat(600)}`);
    expect(w(long)).toBeLessThan(w(one));
    // k1 = 1.2, b = 0.75, avg 256: tf 1 in a 2-token document.
    expect(w(one)).toBeCloseTo(2.2 / (1 + 1.2 * (0.25 + (0.75 * 2) / 256)), 10);
    expect([...two.indices]).toEqual([...two.indices].sort((a, b) => a - b));
    expect(new Set(two.indices).size).toBe(two.indices.length);
  });

  it("tokenizes Unicode words case-insensitively and maps equal chunk ids to equal UUIDs", () => {
    expect(querySparseVector("Café CAFÉ §17")).toEqual(querySparseVector("café 17"));
    expect(pointId("docs/a.md_chunk_1")).toBe(pointId("docs/a.md_chunk_1"));
    expect(pointId("docs/a.md_chunk_1")).not.toBe(pointId("docs/a.md_chunk_2"));
  });
});
