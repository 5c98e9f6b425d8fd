import { createServer } from "node:net";
import { OpenSearchKeywordIndex, openSearchIndexBody } from "@hierdoc/keyword-search";
import { isHierdocError } from "@hierdoc/core";
import { FakeOpenSearch } from "./opensearch-server.js";

const docs = [
  { id: "gdpr_chunk_1", text: "Right to erasure: the data subject shall have the right to erasure", sourcePath: "gdpr.md" },
  { id: "gdpr_chunk_2", text: "Right of access by the data subject", sourcePath: "gdpr.md" },
  { id: "rfc_chunk_1", text: "The GET method requests transfer of a current selected representation", sourcePath: "rfc9110.md" },
];

const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);

describe("OpenSearchKeywordIndex against a local OpenSearch wire-format server", () => {
  let fake: FakeOpenSearch;
  let node: string;
  beforeEach(async () => {
    fake = new FakeOpenSearch();
    node = await fake.start();
  });
  afterEach(async () => {
    await fake.stop();
  });

  it("creates the index with an explicit mapping and analyzer, then bulk-indexes", async () => {
    const index = new OpenSearchKeywordIndex({ node, indexName: "hierdoc-test" });
    await index.upsert(docs);
    const [head, put, bulk] = fake.requests;
    expect([head.method, head.path]).toEqual(["HEAD", "/hierdoc-test"]);
    expect([put.method, put.path]).toEqual(["PUT", "/hierdoc-test"]);
    expect(JSON.parse(put.body)).toEqual(openSearchIndexBody());
    expect(JSON.parse(put.body).settings.index.similarity.default).toEqual({ type: "BM25", k1: 1.2, b: 0.75 });
    expect([bulk.method, bulk.path, bulk.query.get("refresh")]).toEqual(["POST", "/_bulk", "wait_for"]);
    expect(bulk.headers["content-type"]).toMatch(/application\/(x-)?ndjson|application\/vnd/);
    const lines = bulk.body.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { index: { _index: "hierdoc-test", _id: "gdpr_chunk_1" } }, { text: docs[0].text, source_path: "gdpr.md" },
      { index: { _index: "hierdoc-test", _id: "gdpr_chunk_2" } }, { text: docs[1].text, source_path: "gdpr.md" },
      { index: { _index: "hierdoc-test", _id: "rfc_chunk_1" } }, { text: docs[2].text, source_path: "rfc9110.md" },
    ]);
    expect(await index.size()).toBe(3);
    await index.upsert([{ ...docs[0], text: "replaced" }]);
    expect(fake.requests.filter((r) => r.method === "PUT")).toHaveLength(1);
  });

  it("searches with a match query, maps hits to ids and scores, and filters by ids", async () => {
    const index = new OpenSearchKeywordIndex({ node, indexName: "hierdoc-test" });
    await index.upsert(docs);
    const hits = await index.search("right to erasure", { topK: 5 });
    const req = fake.requests.at(-1)!;
    expect([req.method, req.path]).toEqual(["POST", "/hierdoc-test/_search"]);
    expect(JSON.parse(req.body)).toEqual({ size: 5, _source: false, query: { match: { text: { query: "right to erasure" } } } });
    expect(hits.map((h) => h.id)).toEqual(["gdpr_chunk_1", "gdpr_chunk_2"]);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    const filtered = await index.search("right", { topK: 5, allowIds: new Set(["gdpr_chunk_2"]) });
    expect(JSON.parse(fake.requests.at(-1)!.body).query.bool.filter).toEqual([{ ids: { values: ["gdpr_chunk_2"] } }]);
    expect(filtered.map((h) => h.id)).toEqual(["gdpr_chunk_2"]);
  });

  it("deletes by id and by source", async () => {
    const index = new OpenSearchKeywordIndex({ node, indexName: "hierdoc-test" });
    await index.upsert(docs);
    await index.remove(["gdpr_chunk_2", "never-indexed"]);
    const lines = fake.requests.at(-1)!.body.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toEqual([{ delete: { _index: "hierdoc-test", _id: "gdpr_chunk_2" } }, { delete: { _index: "hierdoc-test", _id: "never-indexed" } }]);
    expect(await index.removeBySource("gdpr.md")).toBe(1);
    expect(JSON.parse(fake.requests.at(-1)!.body)).toEqual({ query: { term: { source_path: "gdpr.md" } } });
    expect(await index.size()).toBe(1);
  });

  it("returns nothing (not an error) before the index exists", async () => {
    const index = new OpenSearchKeywordIndex({ node, indexName: "empty-index" });
    expect(await index.search("anything", { topK: 3 })).toEqual([]);
    expect(await index.size()).toBe(0);
  });

  it("sends basic auth or an API key", async () => {
    await new OpenSearchKeywordIndex({ node, indexName: "a1", auth: { username: "admin", password: "s3cret" } }).size();
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from("admin:s3cret").toString("base64")}`);
    await new OpenSearchKeywordIndex({ node, indexName: "a2", auth: { apiKey: "k-123" } }).size();
    expect(fake.requests.at(-1)!.headers.authorization).toBe("ApiKey k-123");
  });

  it("maps a rejected bulk item to E_KEYWORD_UNAVAILABLE naming the document", async () => {
    const index = new OpenSearchKeywordIndex({ node, indexName: "hierdoc-test" });
    await index.ensureIndex();
    fake.indices.delete("hierdoc-test");
    const err = await failure(index.upsert(docs.slice(0, 1)));
    expect(isHierdocError(err, "E_KEYWORD_UNAVAILABLE")).toBe(true);
    expect((err as Error).message).toMatch(/rejected document gdpr_chunk_1: index_not_found_exception/);
  });

  it("maps HTTP 503 to a retryable E_KEYWORD_UNAVAILABLE", async () => {
    fake.override = () => ({ status: 503, body: { error: { type: "cluster_block_exception", reason: "blocked by: [SERVICE_UNAVAILABLE]" }, status: 503 } });
    const err = await failure(new OpenSearchKeywordIndex({ node, indexName: "x", maxRetries: 0 }).search("q", { topK: 3 }));
    expect(isHierdocError(err, "E_KEYWORD_UNAVAILABLE")).toBe(true);
    expect((err as { retryable: boolean }).retryable).toBe(true);
    expect((err as Error).message).toMatch(/HTTP 503: blocked by/);
    expect((err as { details: { adapter: string; operation: string } }).details).toMatchObject({ adapter: "opensearch", operation: "search" });
  });

  it("maps a slow node to E_TIMEOUT within the request timeout", async () => {
    fake.override = (r) => (r.path.endsWith("_search") ? "hang" : undefined);
    const started = Date.now();
    const err = await failure(new OpenSearchKeywordIndex({ node, indexName: "x", requestTimeoutMs: 150, maxRetries: 0 }).search("q", { topK: 3 }));
    expect(isHierdocError(err, "E_TIMEOUT")).toBe(true);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("maps a node that is down to E_KEYWORD_UNAVAILABLE", async () => {
    const port = await new Promise<number>((r) => {
      const s = createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => r(p));
      });
    });
    const err = await failure(new OpenSearchKeywordIndex({ node: `http://127.0.0.1:${port}`, indexName: "x", maxRetries: 0 }).search("q", { topK: 3 }));
    expect(isHierdocError(err, "E_KEYWORD_UNAVAILABLE")).toBe(true);
  });

  it("rejects an invalid index name with E_CONFIG", () => {
    expect(() => new OpenSearchKeywordIndex({ node, indexName: "Bad Name" })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
  });

  it("rejects an endpoint that is not a URL with E_CONFIG at construction, before the client package loads", () => {
    expect(() => new OpenSearchKeywordIndex({ node: "localhost 9200", indexName: "docs" })).toThrow(
      expect.objectContaining({ code: "E_CONFIG", details: { path: "keyword_index.endpoint" } }),
    );
  });
});

const live = process.env.HIERDOC_OPENSEARCH_URL;
(live ? describe : describe.skip)(
  live ? "OpenSearchKeywordIndex live" : "OpenSearchKeywordIndex live (skipped: HIERDOC_OPENSEARCH_URL not set)",
  () => {
    it("indexes, searches and deletes against a real node", async () => {
      const index = new OpenSearchKeywordIndex({ node: live!, indexName: `hierdoc-live-${Date.now()}`, tls: { rejectUnauthorized: false } });
      try {
        await index.upsert(docs);
        const hits = await index.search("erasure", { topK: 3 });
        expect(hits[0].id).toBe("gdpr_chunk_1");
        await index.removeBySource("gdpr.md");
        expect(await index.size()).toBe(1);
      } finally {
        await index.drop();
        await index.close();
      }
    });
  },
);
