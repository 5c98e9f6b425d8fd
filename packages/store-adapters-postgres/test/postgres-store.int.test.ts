import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import pg from "pg";
import {
  expectHierdocError,
  expectStoreUnavailable,
  makeStoreRecord,
  makeStoreRecords,
  cosine,
  makeVector,
  runStoreConformance,
} from "@hierdoc/core/testing";
import { PostgresStore, toVectorLiteral } from "@hierdoc/store-adapters-postgres";
import { gdprArticles, HAS_GDPR } from "./gdpr.js";

jest.setTimeout(30_000);

let db: PGlite;
let server: PGLiteSocketServer;
let admin: pg.Pool;
let connection: pg.PoolConfig;
let tableCounter = 0;

function hostPort(s: PGLiteSocketServer): { host: string; port: number } {
  const [host, port] = s.getServerConn().split(":");
  return { host, port: Number(port) };
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  db = await PGlite.create({ extensions: { vector } });
  server = new PGLiteSocketServer({ db, port: 0, maxConnections: 16 });
  await server.start();
  connection = { ...hostPort(server), user: "postgres", database: "postgres", max: 2 };
  admin = new pg.Pool({ ...connection, max: 1 });
}, 120_000);

afterAll(async () => {
  await admin?.end().catch(() => undefined);
  await server?.stop();
  await db?.close();
}, 30_000);

runStoreConformance("postgres (PGlite + pgvector over TCP)", {
  async create() {
    const table = `conf_${++tableCounter}`;
    return {
      store: new PostgresStore({ connection, table, maxBatchSize: 4 }),
      reopen: async () => new PostgresStore({ connection, table, maxBatchSize: 4 }),
      cleanup: async () => {
        await admin.query(`DROP TABLE IF EXISTS "${table}"; DROP TABLE IF EXISTS "${table}_meta"`);
      },
    };
  },
  async unreachable() {
    const port = await closedPort();
    return new PostgresStore({
      connection: { host: "127.0.0.1", port, user: "postgres", database: "postgres", connectionTimeoutMillis: 2000 },
      retry: { attempts: 2, baseDelayMs: 10 },
    });
  },
});

describe("PostgresStore on PGlite", () => {
  it("creates the pgvector HNSW, GIN and source indexes and records embedder and size in the meta table", async () => {
    const store = new PostgresStore({ pool: admin, table: "schema_check" });
    await store.open({ embedderId: "glove-100d", dimensions: 8 });
    const idx = await admin.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'schema_check' ORDER BY indexname");
    const defs = idx.rows.map((r) => r.indexdef).join("\n");
    expect(defs).toMatch(/USING hnsw \(embedding vector_cosine_ops\)/);
    expect(defs).toMatch(/USING gin \(tsv\)/);
    expect(defs).toMatch(/\(source_path\)/);
    const meta = await admin.query<{ key: string; value: string }>("SELECT key, value FROM schema_check_meta ORDER BY key");
    expect(Object.fromEntries(meta.rows.map((r) => [r.key, r.value]))).toMatchObject({ embedder_id: "glove-100d", dimensions: "8", text_config: "english" });
    await store.close();
    await admin.query("SELECT 1");
    await admin.query('DROP TABLE schema_check; DROP TABLE schema_check_meta');
  });

  it("stamps its contents: unchanged by reads, a reopen and deletes that remove nothing; changed by every write, from any process; another after the table is re-created", async () => {
    const store = new PostgresStore({ connection, table: "stamp_check" });
    await store.open({ embedderId: "e", dimensions: 4 });
    const empty = await store.stamp();
    expect(empty).toMatch(/^postgres:stamp_check:[0-9a-f-]{36}:0$/);
    const records = makeStoreRecords(6, { dimensions: 4 });
    await store.upsert(records);
    const written = await store.stamp();
    expect(written).not.toBe(empty);
    await store.count();
    await store.get([records[0].record.id]);
    await store.vectorSearch({ topK: 2, vector: records[1].vector });
    await store.fullTextSearch({ topK: 2, text: "paragraph" });
    for await (const r of store.scan()) expect(r.id).toBeDefined();
    await store.deleteBySource("nothing-here.md");
    await store.deleteByIds(["no-such-id"]);
    expect(await store.stamp()).toBe(written);
    const other = new PostgresStore({ connection, table: "stamp_check" });
    await other.open({ embedderId: "e", dimensions: 4 });
    expect(await other.stamp()).toBe(written);
    await other.deleteByIds([records[0].record.id]);
    const deleted = await store.stamp();
    expect(deleted).not.toBe(written);
    await other.deleteBySource(records[1].record.sourcePath);
    const bySource = await store.stamp();
    expect(bySource).not.toBe(deleted);
    await store.upsert([records[0]]);
    expect(await other.stamp()).not.toBe(bySource);
    await other.close();
    await store.close();
    await expectHierdocError(store.stamp(), { code: "E_STORE", adapter: "postgres", operation: "stamp" });
    await admin.query("DROP TABLE stamp_check; DROP TABLE stamp_check_meta");
    const fresh = new PostgresStore({ connection, table: "stamp_check" });
    await fresh.open({ embedderId: "e", dimensions: 4 });
    expect((await fresh.stamp())?.split(":")[2]).not.toBe(empty?.split(":")[2]);
    await fresh.close();
    await admin.query("DROP TABLE stamp_check; DROP TABLE stamp_check_meta");
  });

  it("gives a table created before stamps existed a stamp on its next open", async () => {
    const store = new PostgresStore({ pool: admin, table: "old_stamp" });
    await store.open({ embedderId: "e", dimensions: 4 });
    await admin.query("DELETE FROM old_stamp_meta WHERE key IN ('created', 'writes')");
    expect(await store.stamp()).toBeNull();
    await store.close();
    const again = new PostgresStore({ pool: admin, table: "old_stamp" });
    await again.open({ embedderId: "e", dimensions: 4 });
    expect(await again.stamp()).toMatch(/^postgres:old_stamp:[0-9a-f-]{36}:0$/);
    await again.upsert(makeStoreRecords(1, { dimensions: 4 }));
    expect(await again.stamp()).toMatch(/:1$/);
    await again.close();
    await admin.query("DROP TABLE old_stamp; DROP TABLE old_stamp_meta");
  });

  it("full text uses the English configuration (stemming) and websearch syntax", async () => {
    const store = new PostgresStore({ pool: admin, table: "fts_check" });
    await store.open({ embedderId: "e", dimensions: 4 });
    const texts = ["The controller shall erase personal data", "Erasure of records is logged", "Unrelated aircraft noise"];
    await store.upsert(
      makeStoreRecords(3, { dimensions: 4 }).map((r, i) => ({ ...r, record: { ...r.record, indexedText: texts[i] } })),
    );
    const erase = await store.fullTextSearch({ text: "erasing", topK: 5 });
    expect(erase.map((h) => h.id)).toEqual([makeStoreRecords(1)[0].record.id]);
    const phrase = await store.fullTextSearch({ text: '"personal data" -aircraft', topK: 5 });
    expect(phrase).toHaveLength(1);
    expect(await store.fullTextSearch({ text: "the", topK: 5 })).toEqual([]);
    await store.close();
    await admin.query('DROP TABLE fts_check; DROP TABLE fts_check_meta');
  });

  it("rejects unsafe table names before touching the database", () => {
    expect(() => new PostgresStore({ pool: admin, table: 'x"; DROP TABLE y; --' })).toThrow(/must match/);
  });

  it("maps a server that goes away mid-session to E_STORE_UNAVAILABLE naming the operation", async () => {
    const second = new PGLiteSocketServer({ db, port: 0, maxConnections: 2 });
    await second.start();
    const store = new PostgresStore({
      connection: { ...hostPort(second), user: "postgres", database: "postgres", max: 1, connectionTimeoutMillis: 2000 },
      table: "goes_away",
      retry: { attempts: 2, baseDelayMs: 10 },
    });
    try {
      await store.open({ embedderId: "e", dimensions: 4 });
      await store.upsert(makeStoreRecords(2, { dimensions: 4 }));
      expect(await store.count()).toBe(2);
      await second.stop();
      await expectStoreUnavailable(store.count(), { adapter: "postgres", operation: "count" });
      await expectStoreUnavailable(store.upsert(makeStoreRecords(1, { dimensions: 4 })), { adapter: "postgres", operation: "upsert" });
    } finally {
      await store.close();
      await second.stop(); // idempotent; on failure the extra socket server would keep listening
      await admin.query("DROP TABLE IF EXISTS goes_away; DROP TABLE IF EXISTS goes_away_meta");
    }
  });

  it("retries a read across a server restart on the same port", async () => {
    const first = new PGLiteSocketServer({ db, port: 0, maxConnections: 2 });
    await first.start();
    const { host, port } = hostPort(first);
    const store = new PostgresStore({
      connection: { host, port, user: "postgres", database: "postgres", max: 1, connectionTimeoutMillis: 2000 },
      table: "restarts",
      retry: { attempts: 6, baseDelayMs: 100 },
    });
    let again: PGLiteSocketServer | undefined;
    let restart: Promise<void> | undefined;
    try {
      await store.open({ embedderId: "e", dimensions: 4 });
      await store.upsert(makeStoreRecords(3, { dimensions: 4 }));
      await first.stop();
      restart = new Promise<void>((resolve) =>
        setTimeout(() => {
          again = new PGLiteSocketServer({ db, port, maxConnections: 2 });
          // Settles either way: a failed restart shows up as the read below failing.
          void again.start().then(resolve, () => resolve());
        }, 150),
      );
      expect(await store.count()).toBe(3);
    } finally {
      await store.close();
      await first.stop(); // idempotent; on a failure before the restart it would keep listening
      await restart; // a restart scheduled before a failure still starts `again`: stop it too
      await again?.stop();
      await admin.query("DROP TABLE IF EXISTS restarts; DROP TABLE IF EXISTS restarts_meta");
    }
  });

  it("returns a complete top-k for a selective source filter, also when the plan is the HNSW index (iterative scan)", async () => {
    const store = new PostgresStore({ pool: admin, table: "filtered_knn" });
    await store.open({ embedderId: "e", dimensions: 8 });
    const records = Array.from({ length: 3000 }, (_, i) => makeStoreRecord(i, { dimensions: 8, record: { sourcePath: `s${i % 20}.md` } }));
    await store.upsert(records);
    // Without the source_path index the planner picks the HNSW index with a filter: the path where pgvector
    // alone would stop after ef_search candidates and return too few rows.
    await admin.query("DROP INDEX filtered_knn_source_path; ANALYZE filtered_knn");
    const query = makeVector("filtered-query", 8);
    const plan = await admin.query<{ "QUERY PLAN": string }>(
      `EXPLAIN SELECT id FROM filtered_knn WHERE source_path = ANY('{s1.md}') ORDER BY embedding <=> '${toVectorLiteral(query)}' LIMIT 10`,
    );
    expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("filtered_knn_embedding_hnsw");
    const hits = await store.vectorSearch({ vector: query, topK: 10, filter: { sourcePaths: ["s1.md"] } });
    const exact = records
      .filter((r) => r.record.sourcePath === "s1.md")
      .map((r) => ({ id: r.record.id, score: cosine(query, r.vector) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
    expect(hits).toHaveLength(10);
    const overlap = hits.filter((h) => exact.some((e) => e.id === h.id)).length;
    expect(overlap).toBeGreaterThanOrEqual(9);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
    await store.close();
    await admin.query("DROP TABLE filtered_knn; DROP TABLE filtered_knn_meta");
  });

  it("names the adapter and operation for a server-side error", async () => {
    const store = new PostgresStore({ pool: admin, table: "server_error" });
    await store.open({ embedderId: "e", dimensions: 4 });
    await admin.query("DROP TABLE server_error");
    await expectHierdocError(store.count(), { code: "E_STORE", adapter: "postgres", operation: "count", retryable: false });
    await store.close();
    await admin.query("DROP TABLE server_error_meta");
  });
});

(HAS_GDPR ? describe : describe.skip)(
  `GDPR on postgres: "right to erasure" finds Article 17 first by full text; vector top 5 equals brute force${HAS_GDPR ? "" : " (skipped: ../shared/corpora not present)"}`,
  () => {
    it("ingests the 99 articles and searches both legs", async () => {
      const store = new PostgresStore({ pool: admin, table: "gdpr" });
      await store.open({ embedderId: "test/tfidf-1024", dimensions: 1024 });
      try {
        const { records: articles, embedder } = gdprArticles(1024);
        expect(articles.length).toBe(99);
        await store.upsert(articles);
        const sectionOf = async (ids: string[]): Promise<string[]> => (await store.get(ids)).map((r) => r.sectionId);
        const text = await store.fullTextSearch({ text: "right to erasure", topK: 3 });
        expect((await sectionOf(text.map((h) => h.id)))[0]).toBe("Article 17");
        // A test TF-IDF embedder stands in for a model (none runs in adapter tests); its own ranking is not
        // the point: the store must return exactly the brute-force cosine top 5, scores included.
        const query = embedder.embed("right to erasure");
        const exact = articles
          .map((r) => ({ id: r.record.id, score: cosine(query, r.vector) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, 5);
        const dense = await store.vectorSearch({ vector: query, topK: 5 });
        expect(dense.map((h) => h.id)).toEqual(exact.map((e) => e.id));
        dense.forEach((h, i) => expect(h.score).toBeCloseTo(exact[i].score, 5));
        expect(await sectionOf(dense.map((h) => h.id))).toContain("Article 17");
      } finally {
        await store.close();
        await admin.query("DROP TABLE IF EXISTS gdpr; DROP TABLE IF EXISTS gdpr_meta");
      }
    });
  },
);
