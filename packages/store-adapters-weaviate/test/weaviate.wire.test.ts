import { beforeEach, describe, expect, it } from "@jest/globals";
import { closedPort, expectHierdocError, expectStoreUnavailable, makeStoreRecord, makeStoreRecords, makeVector, reopenableStore, runStoreConformance, serveDuringSuite } from "@hierdoc/core/testing";
import { WeaviateStore, mapWeaviateError, objectId } from "@hierdoc/store-adapters-weaviate";
import { FakeWeaviate } from "@hierdoc/store-adapters-weaviate/testing";

const fake = serveDuringSuite(new FakeWeaviate());
let seq = 0;
const OPEN = { embedderId: "hash-4", dimensions: 4 };

function store(extra: Partial<ConstructorParameters<typeof WeaviateStore>[0]> = {}): WeaviateStore {
  return new WeaviateStore({ url: fake.url, className: `C${++seq}`, retryDelayMs: 5, ...extra });
}

runStoreConformance("weaviate (REST + GraphQL wire-format stand-in)", {
  async create() {
    const className = `Conformance${++seq}`;
    return reopenableStore(() => new WeaviateStore({ url: fake.url, className, retryDelayMs: 5, maxBatchSize: 8 }), () => fake.classes.delete(className));
  },
  async unreachable() {
    return new WeaviateStore({ url: `http://127.0.0.1:${await closedPort()}`, retries: 1, retryDelayMs: 5 });
  },
});

describe("WeaviateStore requests (asserted against the Weaviate REST and GraphQL API)", () => {
  beforeEach(() => fake.reset());

  it("open reads the class and creates it: vectorizer none, HNSW cosine, BM25 text, filterable sourcePath, metadata in the description", async () => {
    const s = store({ className: "CreateMe" });
    await s.open({ embedderId: "emb/x@1", dimensions: 4 });
    expect(fake.calls().map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/schema/CreateMe", "POST /v1/schema", "GET /v1/schema/CreateMe"]);
    const cls = fake.calls()[1].body;
    expect(cls).toMatchObject({
      class: "CreateMe",
      description: 'hierdoc {"embedderId":"emb/x@1","dimensions":4}',
      vectorizer: "none",
      vectorIndexType: "hnsw",
      vectorIndexConfig: { distance: "cosine" },
    });
    expect(cls.properties).toEqual([
      { name: "text", dataType: ["text"], tokenization: "word", indexFilterable: false, indexSearchable: true },
      { name: "sourcePath", dataType: ["text"], tokenization: "field", indexFilterable: true, indexSearchable: false },
      { name: "chunkId", dataType: ["text"], tokenization: "field", indexFilterable: true, indexSearchable: false },
      { name: "record", dataType: ["text"], indexFilterable: false, indexSearchable: false },
    ]);
  });

  it("upserts with batch imports of maxBatchSize objects: UUID ids, explicit vectors, record JSON without indexedText", async () => {
    const s = store({ maxBatchSize: 2 });
    await s.open(OPEN);
    fake.reset();
    const records = makeStoreRecords(5, { dimensions: 4 });
    await s.upsert(records);
    const batches = fake.calls().filter((r) => r.path === "/v1/batch/objects");
    expect(batches.map((r) => r.body.objects.length)).toEqual([2, 2, 1]);
    const o = batches[0].body.objects[0];
    const { indexedText, ...rest } = records[0].record;
    expect(o).toEqual({
      class: `C${seq}`,
      id: objectId(records[0].record.id),
      vector: Array.from(records[0].vector),
      properties: { chunkId: records[0].record.id, sourcePath: "docs/alpha.md", text: indexedText, record: JSON.stringify(rest) },
    });
  });

  it("vector search is a GraphQL Get with nearVector, limit and a where filter on sourcePath; score = 1 − distance", async () => {
    const s = store();
    await s.open(OPEN);
    const records = makeStoreRecords(6, { dimensions: 4, sourcePaths: ["a.md", "b.md", "c.md"] });
    await s.upsert(records);
    fake.reset();
    const hits = await s.vectorSearch({ vector: records[1].vector, topK: 2, filter: { sourcePaths: ["b.md", "c.md"] } });
    expect(hits[0].id).toBe(records[1].record.id);
    expect(hits[0].score).toBeCloseTo(1, 5);
    const [q] = fake.calls();
    expect(q.path).toBe("/v1/graphql");
    expect(q.graphql).toEqual({
      root: "Get",
      className: `C${seq}`,
      args: {
        nearVector: { vector: Array.from(records[1].vector) },
        limit: 2,
        where: { operator: "Or", operands: [{ operator: "Equal", valueText: "b.md", path: ["sourcePath"] }, { operator: "Equal", valueText: "c.md", path: ["sourcePath"] }] },
      },
      fields: ["chunkId", "_additional"],
    });
  });

  it("hybrid search is one GraphQL Get with hybrid { query, vector, alpha, properties, fusionType }", async () => {
    const s = store({ alpha: 0.25 });
    await s.open(OPEN);
    await s.upsert(makeStoreRecords(3, { dimensions: 4 }));
    fake.reset();
    const v = makeVector("q", 4);
    const hits = await s.hybridSearch({ text: "Rule \"number\" 2", vector: v, topK: 3, filter: { sourcePaths: ["docs/alpha.md"] } });
    expect(hits.length).toBeGreaterThan(0);
    expect(typeof hits[0].score).toBe("number");
    const calls = fake.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0].graphql?.args).toEqual({
      hybrid: { query: 'Rule "number" 2', vector: Array.from(v), alpha: 0.25, properties: ["text"], fusionType: "relativeScoreFusion" },
      limit: 3,
      where: { operator: "Equal", valueText: "docs/alpha.md", path: ["sourcePath"] },
    });
  });

  it("full text is bm25 on the text property; get filters on chunkId; scan pages with the cursor API; count aggregates", async () => {
    const s = store({ scanPageSize: 3 });
    await s.open(OPEN);
    const records = makeStoreRecords(7, { dimensions: 4 });
    await s.upsert(records);
    fake.reset();
    await s.fullTextSearch({ text: "operator", topK: 4 });
    expect(fake.calls()[0].graphql?.args).toEqual({ bm25: { query: "operator", properties: ["text"] }, limit: 4 });
    fake.reset();
    expect(await s.get([records[3].record.id, "nope"])).toEqual([records[3].record]);
    expect(fake.calls()[0].graphql?.args.where).toEqual({
      operator: "Or",
      operands: [{ operator: "Equal", valueText: records[3].record.id, path: ["chunkId"] }, { operator: "Equal", valueText: "nope", path: ["chunkId"] }],
    });
    fake.reset();
    let n = 0;
    for await (const r of s.scan()) n += r.id.startsWith("docs/") ? 1 : 0;
    expect(n).toBe(7);
    const pages = fake.calls().map((r) => r.graphql?.args);
    expect(pages.map((a) => a?.limit)).toEqual([3, 3, 3]);
    expect(pages[0]?.after).toBeUndefined();
    expect(pages[1]?.after).toMatch(/^[0-9a-f-]{36}$/);
    expect(await s.count()).toBe(7);
    expect(fake.calls().at(-1)?.graphql).toMatchObject({ root: "Aggregate", fields: ["meta"] });
  });

  it("deletes with batch deletes (DELETE /v1/batch/objects) and repeats while more objects matched than one request removes", async () => {
    const s = store();
    await s.open(OPEN);
    const records = makeStoreRecords(5, { dimensions: 4, sourcePaths: ["a.md"] });
    await s.upsert(records);
    fake.reset();
    fake.deleteLimit = 2;
    await s.deleteBySource("a.md");
    const deletes = fake.calls().filter((r) => r.method === "DELETE");
    expect(deletes).toHaveLength(3);
    expect(deletes[0].body).toEqual({ match: { class: `C${seq}`, where: { operator: "Equal", valueText: "a.md", path: ["sourcePath"] } }, output: "minimal" });
    expect(await s.count()).toBe(0);
  });
});

describe("WeaviateStore failure handling", () => {
  beforeEach(() => fake.reset());

  it("retries 503 answers and then succeeds", async () => {
    const s = store();
    await s.open(OPEN);
    fake.reset();
    fake.failNext = [{ status: 503 }, { status: 503 }];
    expect(await s.count()).toBe(0);
    expect(fake.calls()).toHaveLength(3);
  });

  it("gives up on a persistent 500 with a retryable E_STORE naming adapter, operation and attempts", async () => {
    const s = store({ retries: 2 });
    await s.open(OPEN);
    fake.reset();
    fake.failNext = Array(3).fill({ status: 500, body: { error: [{ message: "disk full" }] } });
    const err = await expectHierdocError(s.upsert([makeStoreRecord(0, { dimensions: 4 })]), { code: "E_STORE", adapter: "weaviate", operation: "upsert", retryable: true });
    expect(err.details.attempts).toBe(3);
    expect(err.message).toContain("disk full");
  });

  it("maps 429 to a retryable E_STORE_UNAVAILABLE", async () => {
    const s = store({ retries: 0 });
    await s.open(OPEN);
    fake.failNext = [{ status: 429, body: { error: [{ message: "rate limited" }] } }];
    await expectStoreUnavailable(s.count(), { adapter: "weaviate", operation: "count" });
  });

  it("per-object batch errors fail the upsert (vector length → E_DIMENSION_MISMATCH); GraphQL errors → E_STORE without retry", async () => {
    const s = store();
    await s.open(OPEN);
    await s.upsert([makeStoreRecord(0, { dimensions: 4 })]);
    fake.batchOverride = (results) => results.map((r) => ({ ...r, result: { errors: { error: [{ message: "insert to vector index: new node has a vector with length 4. Existing nodes have vectors with length 3" }] } } }));
    await expectHierdocError(s.upsert([makeStoreRecord(1, { dimensions: 4 })]), { code: "E_DIMENSION_MISMATCH", adapter: "weaviate", operation: "upsert" });
    fake.reset();
    fake.classes.delete(`C${seq}`);
    const err = await expectHierdocError(s.vectorSearch({ vector: makeVector("q", 4), topK: 1 }), { code: "E_STORE", adapter: "weaviate", operation: "vectorSearch", retryable: false });
    expect(err.message).toContain("Cannot query field");
    expect(fake.calls()).toHaveLength(1);
  });

  it("maps the server's vector length error from a GraphQL answer to E_DIMENSION_MISMATCH", () => {
    const gqlError = Object.assign(new Error("GraphQL Error"), { response: { status: 200, errors: [{ message: "vector lengths don't match: 4 vs 3" }] } });
    expect(mapWeaviateError(gqlError, "vectorSearch", "u")).toMatchObject({ code: "E_DIMENSION_MISMATCH", details: { adapter: "weaviate", operation: "vectorSearch", status: 200 } });
    expect(mapWeaviateError(new Error("usage error (422): {\"error\":[{\"message\":\"bad\"}]}"), "open", "u")).toMatchObject({ code: "E_STORE", retryable: false, details: { status: 422 } });
  });

  it("reports a server that never answers as E_TIMEOUT after one attempt", async () => {
    const s = store({ timeoutMs: 200, retries: 3 });
    fake.hang = true;
    await expectHierdocError(s.open(OPEN), { code: "E_TIMEOUT", adapter: "weaviate", operation: "open", retryable: true });
    expect(fake.calls()).toHaveLength(1);
  });

  it("refuses a class hierdoc did not create, calls before open, and bad options", async () => {
    fake.classes.set("Foreign", { schema: { class: "Foreign", vectorizer: "text2vec-openai", properties: [] }, objects: new Map() });
    await expectHierdocError(store({ className: "Foreign" }).open(OPEN), { code: "E_STORE", adapter: "weaviate", operation: "open" });
    await expectHierdocError(store().count(), { code: "E_STORE", adapter: "weaviate", operation: "count" });
    expect(() => new WeaviateStore({ className: "lower" })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
    expect(() => new WeaviateStore({ alpha: 1.5 })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
  });

  it("a server that goes away after open makes reads and writes fail with a retryable E_STORE_UNAVAILABLE", async () => {
    const other = new FakeWeaviate();
    await other.start();
    try {
      const s = new WeaviateStore({ url: other.url, className: "Gone", retries: 1, retryDelayMs: 5 });
      await s.open(OPEN);
      await s.upsert([makeStoreRecord(1, { dimensions: 4 })]);
      await other.stop(); // the service goes away
      await expectStoreUnavailable(s.count(), { adapter: "weaviate", operation: "count" });
      await expectStoreUnavailable(s.hybridSearch({ text: "rule", vector: makeVector("q", 4), topK: 1 }), { adapter: "weaviate", operation: "hybridSearch" });
      await expectStoreUnavailable(s.upsert([makeStoreRecord(2, { dimensions: 4 })]), { adapter: "weaviate", operation: "upsert" });
    } finally {
      await other.stop(); // idempotent; also on failure, so no listening server outlives the test
    }
  });
});
