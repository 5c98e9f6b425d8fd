import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { chunkUuid } from "@hierdoc/core";
import {
  closedPort,
  expectHierdocError,
  expectStoreUnavailable,
  gdprArticleRecords,
  lexicalHashVector,
  makeStoreRecord,
  makeStoreRecords,
  makeVector,
  reopenableStore,
  runStoreConformance,
  serveDuringSuite,
} from "@hierdoc/core/testing";
import { CosmosStore, META_ID, containerDefinition } from "@hierdoc/store-adapters-azure-cosmos";
import { FakeCosmos } from "@hierdoc/store-adapters-azure-cosmos/testing";

const fake = serveDuringSuite(new FakeCosmos());
let seq = 0;
const OPEN = { embedderId: "hash-4", dimensions: 4 };

function store(extra: Partial<ConstructorParameters<typeof CosmosStore>[0]> = {}): CosmosStore {
  return new CosmosStore({ endpoint: fake.url, key: fake.key, database: "db", container: `c${++seq}`, retryDelayMs: 5, ...extra });
}

function docsPath(container: string): string {
  return `/dbs/db/colls/${container}/docs`;
}

runStoreConformance("azure-cosmos-nosql (REST wire-format stand-in)", {
  async create() {
    const container = `conformance-${++seq}`;
    return reopenableStore(
      () => new CosmosStore({ endpoint: fake.url, key: fake.key, database: "db", container, retryDelayMs: 5, maxBatchSize: 8 }),
      () => fake.databases.get("db")?.delete(container),
    );
  },
  async unreachable() {
    return new CosmosStore({ endpoint: `http://127.0.0.1:${await closedPort()}`, key: fake.key, retries: 1, retryDelayMs: 5 });
  },
});

describe("CosmosStore requests (asserted against the Cosmos DB REST API)", () => {
  beforeEach(() => fake.reset());

  it("open creates the database and a container with the vector embedding, vector index and full-text policies, then the meta document", async () => {
    const s = store({ database: "fresh", container: "create-me", vectorIndex: "diskANN", language: "de-DE" });
    await s.open({ embedderId: "emb/x@1", dimensions: 4 });
    const calls = fake.requests.filter((r) => r.path !== "/").map((r) => `${r.method} ${r.path}`);
    expect(calls).toEqual([
      "GET /dbs/fresh",
      "POST /dbs",
      "GET /dbs/fresh/colls/create-me",
      "POST /dbs/fresh/colls",
      "GET /dbs/fresh/colls/create-me",
      `GET /dbs/fresh/colls/create-me/docs/${META_ID}`,
      "POST /dbs/fresh/colls/create-me/docs",
    ]);
    const create = fake.requests.find((r) => r.method === "POST" && r.path === "/dbs/fresh/colls")!;
    expect(create.body).toEqual(containerDefinition({ id: "create-me", dimensions: 4, vectorIndex: "diskANN", language: "de-DE" }));
    expect(create.body.vectorEmbeddingPolicy).toEqual({ vectorEmbeddings: [{ path: "/vector", dataType: "float32", distanceFunction: "cosine", dimensions: 4 }] });
    expect(create.body.indexingPolicy.vectorIndexes).toEqual([{ path: "/vector", type: "diskANN" }]);
    expect(create.body.indexingPolicy.fullTextIndexes).toEqual([{ path: "/text" }]);
    expect(create.body.fullTextPolicy).toEqual({ defaultLanguage: "de-DE", fullTextPaths: [{ path: "/text", language: "de-DE" }] });
    const meta = fake.requests.at(-1)!;
    expect(String(meta.headers["x-ms-documentdb-is-upsert"]).toLowerCase()).toBe("true");
    expect(meta.body).toMatchObject({ id: META_ID, kind: "meta", embedderId: "emb/x@1", dimensions: 4 });
    expect(String(meta.headers.authorization)).toMatch(/^type%3Dmaster%26ver%3D1\.0%26sig%3D/);
  });

  it("upserts one document per chunk: UUID id, partition key header = sourcePath, text, vector and the record", async () => {
    const s = store({ container: "up" });
    await s.open(OPEN);
    fake.reset();
    const records = makeStoreRecords(3, { dimensions: 4 });
    await s.upsert(records);
    const posts = fake.find(docsPath("up"), "POST");
    expect(posts).toHaveLength(3);
    const first = posts.find((p) => p.body.chunkId === records[0].record.id)!;
    expect(first.body).toEqual({
      id: chunkUuid(records[0].record.id),
      kind: "chunk",
      sourcePath: records[0].record.sourcePath,
      chunkId: records[0].record.id,
      text: records[0].record.indexedText,
      vector: Array.from(records[0].vector),
      record: records[0].record,
    });
    expect(first.headers["x-ms-documentdb-partitionkey"]).toBe(JSON.stringify([records[0].record.sourcePath]));
  });

  it("vector search: ORDER BY VectorDistance with @vector, the query plan, then the SDK's rewritten query on range 0", async () => {
    const s = store({ container: "vec" });
    await s.open(OPEN);
    const records = makeStoreRecords(4, { dimensions: 4, sourcePaths: ["a.md", "b.md"] });
    await s.upsert(records);
    fake.reset();
    const hits = await s.vectorSearch({ vector: records[1].vector, topK: 2, filter: { sourcePaths: ["b.md"] } });
    expect(hits.map((h) => h.id)).toEqual([records[1].record.id, records[3].record.id]);
    expect(hits[0].score).toBeCloseTo(1, 5);
    const q = fake.queries();
    const sql = "SELECT TOP 2 c.chunkId, VectorDistance(c.vector, @vector) AS score FROM c WHERE c.kind = \"chunk\" AND ARRAY_CONTAINS(@sources, c.sourcePath) ORDER BY VectorDistance(c.vector, @vector)";
    expect(q.filter((x) => x.plan).map((x) => x.sql)).toEqual([sql]);
    const ranged = q.filter((x) => x.range === "0");
    expect(ranged).toHaveLength(1);
    expect(ranged[0].sql).toContain("[{\"item\": VectorDistance(c.vector, @vector)}] AS orderByItems");
    expect(ranged[0].body.parameters).toEqual([
      { name: "@vector", value: Array.from(records[1].vector) },
      { name: "@sources", value: ["b.md"] },
    ]);
  });

  it("full text: FullTextContainsAny + ORDER BY RANK FullTextScore; the SDK's global statistics match the container", async () => {
    const s = store({ container: "fts" });
    await s.open(OPEN);
    const texts = ["the right to erasure of data", "erasure erasure erasure", "lawfulness of processing"];
    await s.upsert(texts.map((t, i) => makeStoreRecord(i, { dimensions: 4, record: { content: t, context: "", indexedText: t } })));
    fake.reset();
    fake.statistics.length = 0;
    const hits = await s.fullTextSearch({ text: "Erasure", topK: 5 });
    expect(hits).toHaveLength(2);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    const planned = fake.queries().filter((x) => x.plan);
    expect(planned.map((x) => x.sql)).toEqual(["SELECT TOP 5 c.chunkId FROM c WHERE c.kind = \"chunk\" AND FullTextContainsAny(c.text, \"erasure\") ORDER BY RANK FullTextScore(c.text, \"erasure\")"]);
    // 3 chunks + the meta document; "erasure" is in 2 of them; 6 + 3 + 3 words.
    expect(fake.statistics).toEqual([{ terms: ["erasure"], documentCount: 4, totalWordCount: 12, hitCounts: [2] }]);
    expect(await s.fullTextSearch({ text: " — ", topK: 4 })).toEqual([]);
  });

  it("hybrid search is one ORDER BY RANK RRF(FullTextScore, VectorDistance) query; the SDK runs one component query per leg", async () => {
    const s = store({ container: "hyb" });
    await s.open(OPEN);
    const v = makeVector("q", 4);
    await s.upsert([
      makeStoreRecord(0, { vector: v, record: { content: "bicycle parking", context: "", indexedText: "bicycle parking" } }),
      makeStoreRecord(1, { dimensions: 4, record: { content: "zebra crossing", context: "", indexedText: "zebra crossing" } }),
    ]);
    fake.reset();
    const hits = await s.hybridSearch({ text: "zebra", vector: v, topK: 3, filter: { sourcePaths: ["docs/alpha.md", "docs/beta.md"] } });
    expect(hits.length).toBe(2);
    const q = fake.queries();
    expect(q.filter((x) => x.plan).map((x) => x.sql)).toEqual([
      "SELECT TOP 3 c.chunkId FROM c WHERE c.kind = \"chunk\" AND ARRAY_CONTAINS(@sources, c.sourcePath) ORDER BY RANK RRF(FullTextScore(c.text, \"zebra\"), VectorDistance(c.vector, @vector))",
    ]);
    const components = q.filter((x) => x.range === "0" && x.sql.includes("componentScores"));
    expect(components).toHaveLength(2);
    expect(components.some((c) => c.sql.includes("ORDER BY _VectorScore(c.vector, @vector) DESC"))).toBe(true);
    expect(components.some((c) => /ORDER BY _FullTextScore\(c\.text, \["zebra"\], 3, \d+, \[1\]\) DESC/.test(c.sql))).toBe(true);
    expect(q.filter((x) => x.sql.startsWith("SELECT COUNT(1) AS documentCount"))).toHaveLength(1);
  });

  it("deleteBySource queries ids inside the source's partition and deletes each; deleteByIds finds partition keys first", async () => {
    const s = store({ container: "del" });
    await s.open(OPEN);
    const records = makeStoreRecords(5, { dimensions: 4, sourcePaths: ["a.md", "b.md"] });
    await s.upsert(records);
    fake.reset();
    await s.deleteBySource("a.md");
    const [idQuery] = fake.find(docsPath("del"), "POST").filter((r) => r.headers["x-ms-documentdb-isquery"] !== undefined);
    expect(idQuery.body.query).toBe("SELECT c.id FROM c WHERE c.kind = \"chunk\"");
    expect(idQuery.headers["x-ms-documentdb-partitionkey"]).toBe(JSON.stringify(["a.md"]));
    const deletes = fake.requests.filter((r) => r.method === "DELETE");
    expect(deletes).toHaveLength(3);
    expect(deletes.every((d) => d.headers["x-ms-documentdb-partitionkey"] === JSON.stringify(["a.md"]))).toBe(true);
    fake.reset();
    await s.deleteByIds([records[1].record.id, "missing_chunk_1"]);
    expect(fake.requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual([`${docsPath("del")}/${chunkUuid(records[1].record.id)}`]);
    expect(await s.count()).toBe(1);
  });

  it("scan pages with x-ms-max-item-count and the continuation header", async () => {
    const s = store({ container: "scan", scanPageSize: 3 });
    await s.open(OPEN);
    await s.upsert(makeStoreRecords(7, { dimensions: 4 }));
    fake.reset();
    const seen: string[] = [];
    for await (const r of s.scan()) seen.push(r.id);
    expect(new Set(seen).size).toBe(7);
    const pages = fake.find(docsPath("scan"), "POST").filter((r) => r.headers["x-ms-documentdb-isquery"] !== undefined);
    expect(pages.map((p) => p.headers["x-ms-max-item-count"])).toEqual(["3", "3", "3"]);
    expect(pages.map((p) => p.headers["x-ms-continuation"])).toEqual([undefined, "3", "6"]);
  });

  it("with full_text off: no full-text capability, no native hybrid, and a container without a full-text index opens", async () => {
    const s = store({ container: "plain", fullText: false });
    expect(s.capabilities).toMatchObject({ fullText: false, nativeHybrid: false, vectorSearch: true });
    await s.open(OPEN);
    const db = fake.databases.get("db")!;
    delete db.get("plain")!.definition.indexingPolicy.fullTextIndexes;
    await store({ container: "plain", fullText: false }).open(OPEN);
    await expectHierdocError(store({ container: "plain" }).open(OPEN), { code: "E_STORE", adapter: "azure-cosmos-nosql", operation: "open" });
  });
});

describe("CosmosStore failure handling", () => {
  beforeEach(() => fake.reset());

  it("a wrong key is a 401 named as such, not retried", async () => {
    const s = new CosmosStore({ endpoint: fake.url, key: Buffer.from("not the key").toString("base64"), container: "auth" });
    const err = await expectHierdocError(s.open(OPEN), { code: "E_STORE", adapter: "azure-cosmos-nosql", operation: "open", retryable: false });
    expect(err.message).toContain("HTTP 401");
    expect(err.message).toContain("vector_store.key");
  });

  it("retries a 503 with backoff and then succeeds", async () => {
    const s = store({ container: "r503" });
    await s.open(OPEN);
    fake.reset();
    fake.failNext = [{ status: 503 }];
    await s.upsert([makeStoreRecord(0, { dimensions: 4 })]);
    expect(fake.find(docsPath("r503"), "POST").length).toBeGreaterThanOrEqual(2);
    expect(await s.count()).toBe(1);
  });

  it("a persistent 500 is a retryable E_STORE naming adapter, operation and attempts", async () => {
    const s = store({ container: "r500", retries: 1 });
    await s.open(OPEN);
    fake.failNext = Array(6).fill({ status: 500, body: { code: "InternalServerError", message: "disk full" } });
    const err = await expectHierdocError(s.deleteByIds(["x"]), { code: "E_STORE", adapter: "azure-cosmos-nosql", operation: "deleteByIds", retryable: true });
    expect(err.details.attempts).toBe(2);
    expect(err.message).toContain("disk full");
  });

  it("a vector of the wrong size rejected by the service is E_DIMENSION_MISMATCH", async () => {
    const s = store({ container: "dims" });
    await s.open(OPEN);
    fake.databases.get("db")!.get("dims")!.definition.vectorEmbeddingPolicy.vectorEmbeddings[0].dimensions = 3;
    await expectHierdocError(s.upsert([makeStoreRecord(0, { dimensions: 4 })]), { code: "E_DIMENSION_MISMATCH", adapter: "azure-cosmos-nosql", operation: "upsert" });
  });

  it("a service that never answers is E_TIMEOUT", async () => {
    const s = store({ timeoutMs: 300, retries: 2 });
    fake.hang = true;
    await expectHierdocError(s.open(OPEN), { code: "E_TIMEOUT", adapter: "azure-cosmos-nosql", operation: "open", retryable: true });
  });

  it("a closed port is one retryable E_STORE_UNAVAILABLE naming the endpoint without credentials and the operation", async () => {
    const port = await closedPort();
    const s = new CosmosStore({ endpoint: `http://127.0.0.1:${port}/?sig=secret`, key: fake.key, retries: 1, retryDelayMs: 5 });
    const err = await expectStoreUnavailable(s.open(OPEN), { adapter: "azure-cosmos-nosql", operation: "open" });
    expect(err.message).toContain(`Azure Cosmos DB account at http://127.0.0.1:${port} is unavailable: open failed`);
    expect(err.message).not.toContain("secret");
  });

  it("refuses a container of another embedder or size, and calls before open", async () => {
    await store({ container: "mine" }).open(OPEN);
    const other = new CosmosStore({ endpoint: fake.url, key: fake.key, database: "db", container: "mine" });
    await expectHierdocError(other.open({ embedderId: "other@2", dimensions: 4 }), { code: "E_EMBEDDER_MISMATCH", adapter: "azure-cosmos-nosql", operation: "open" });
    await expectHierdocError(other.open({ embedderId: "hash-4", dimensions: 8 }), { code: "E_DIMENSION_MISMATCH", adapter: "azure-cosmos-nosql", operation: "open" });
    await expectHierdocError(store().count(), { code: "E_STORE", adapter: "azure-cosmos-nosql", operation: "count" });
  });
});

const GDPR_MD = join(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora/gdpr/gdpr_2016_679.md");
const HAS_GDPR = existsSync(GDPR_MD);

(HAS_GDPR ? describe : describe.skip)(`GDPR articles through the wire-format server${HAS_GDPR ? "" : " (skipped: ../shared/corpora not present)"}`, () => {
  const DIMS = 256;
  let gdpr: CosmosStore;
  const sections = async (hits: Array<{ id: string }>): Promise<string[]> => (await gdpr.get(hits.map((h) => h.id))).map((r) => r.sectionId);
  beforeAll(async () => {
    fake.reset();
    gdpr = store({ container: "gdpr" });
    await gdpr.open({ embedderId: "toy-hash-256", dimensions: DIMS });
    await gdpr.upsert(gdprArticleRecords(GDPR_MD, DIMS));
  });

  it("indexes the 99 articles; \"right to erasure\" ranks Article 17 first by full text and by native hybrid (RRF)", async () => {
    expect(await gdpr.count()).toBe(99);
    const text = "right to erasure";
    expect((await sections(await gdpr.fullTextSearch({ text, topK: 5 })))[0]).toBe("Article 17");
    expect((await sections(await gdpr.hybridSearch({ text, vector: lexicalHashVector(text, DIMS), topK: 5 })))[0]).toBe("Article 17");
  });

  it("\"Article 17\" finds Article 17 in the full-text top 5 (first place needs the tool's exact-reference leg: articles citing Article 17 repeat both words)", async () => {
    expect(await sections(await gdpr.fullTextSearch({ text: "Article 17", topK: 5 }))).toContain("Article 17");
  });
});
