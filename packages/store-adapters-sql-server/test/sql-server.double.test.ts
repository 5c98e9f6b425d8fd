import { createServer, type Server, type Socket } from "node:net";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import {
  closedPort,
  expectHierdocError,
  expectStoreUnavailable,
  gdprArticleRecords,
  makeStoreRecord,
  makeStoreRecords,
  makeVector,
  runStoreConformance,
} from "@hierdoc/core/testing";
import { SqlServerStore, mapSqlServerError, serverOf, statements } from "@hierdoc/store-adapters-sql-server";
import { FakeRequestError, SqlServerDouble } from "./sql-server-double.js";

const OPEN = { embedderId: "hash-4", dimensions: 4 };
let seq = 0;

function store(db: SqlServerDouble, extra: Partial<ConstructorParameters<typeof SqlServerStore>[0]> = {}): SqlServerStore {
  return new SqlServerStore({ connectionString: "Server=tcp:db.example,1433;Database=hd;User Id=u;Password=p", table: `t${++seq}`, pool: db.factory, retryDelayMs: 5, ...extra });
}

for (const fullText of ["none", "contains"] as const) {
  const db = new SqlServerDouble();
  runStoreConformance(`sql-server (statements executed by the ConnectionPool double, full_text: ${fullText})`, {
    async create() {
      const table = `conf_${++seq}`;
      const make = (): SqlServerStore => new SqlServerStore({ connectionString: "Server=db.example;Password=p", table, fullText, pool: db.factory, maxBatchSize: 8 });
      return { store: make(), reopen: async () => make(), cleanup: async () => void db.tables.delete(`dbo.${table}`) };
    },
    async unreachable() {
      return new SqlServerStore({ connectionString: `Server=127.0.0.1,${await closedPort()};Database=x;User Id=u;Password=p;Encrypt=false`, retries: 1, retryDelayMs: 5, timeoutMs: 3000 });
    },
  });
}

describe("SqlServerStore statements", () => {
  let db: SqlServerDouble;
  beforeEach(() => {
    db = new SqlServerDouble();
  });

  it("open connects once, creates the VECTOR(n) table, source index and meta table, then writes the meta rows", async () => {
    const s = store(db, { table: "chunks" });
    await s.open({ embedderId: "emb/x@1", dimensions: 4 });
    expect(db.connects).toBe(1);
    expect(db.statements[0].sql).toBe(statements.createTables({ schema: "dbo", table: "chunks" }, 4));
    expect(db.statements[0].sql).toContain("embedding VECTOR(4) NOT NULL");
    expect(db.tables.get("dbo.chunks")).toMatchObject({ dimensions: 4 });
    expect(db.tables.get("dbo.chunks")?.indexes.has("IX_chunks_source")).toBe(true);
    expect(db.statements.slice(2).map((x) => x.params)).toEqual([
      { name: "embedder_id", value: "emb/x@1" },
      { name: "dimensions", value: "4" },
    ]);
    expect(s.capabilities).toMatchObject({ fullText: false, nativeHybrid: false });
  });

  it("full_text contains creates the catalog and the full-text index on indexed_text and declares fullText", async () => {
    const s = store(db, { table: "ft", fullText: "contains", fullTextCatalog: "cat1" });
    expect(s.capabilities).toMatchObject({ fullText: true, nativeHybrid: false });
    await s.open(OPEN);
    expect(db.catalogs.has("cat1")).toBe(true);
    expect(db.tables.get("dbo.ft")?.fullText).toEqual({ column: "indexed_text", catalog: "cat1" });
  });

  it("upsert is one MERGE per batch with the rows as one JSON parameter; vectors cast to VECTOR(n)", async () => {
    const s = store(db, { table: "up", maxBatchSize: 2 });
    await s.open(OPEN);
    db.statements.length = 0;
    const records = makeStoreRecords(5, { dimensions: 4 });
    await s.upsert(records);
    expect(db.statements.map((x) => x.sql)).toEqual(Array(3).fill(statements.mergeRows({ schema: "dbo", table: "up" }, 4)));
    const rows = JSON.parse(String(db.statements[0].params.rows));
    expect(rows[0]).toEqual({ id: records[0].record.id, sourcePath: records[0].record.sourcePath, text: records[0].record.indexedText, record: records[0].record, vector: Array.from(records[0].vector) });
    expect(db.tables.get("dbo.up")?.rows.size).toBe(5);
  });

  it("vector search is VECTOR_DISTANCE('cosine') ascending with the filter as OPENJSON(@sources); score = 1 − distance", async () => {
    const s = store(db, { table: "vec" });
    await s.open(OPEN);
    const records = makeStoreRecords(4, { dimensions: 4, sourcePaths: ["a.md", "b.md"] });
    await s.upsert(records);
    db.statements.length = 0;
    const hits = await s.vectorSearch({ vector: records[1].vector, topK: 2, filter: { sourcePaths: ["b.md"] } });
    expect(hits.map((h) => h.id)).toEqual([records[1].record.id, records[3].record.id]);
    expect(hits[0].score).toBeCloseTo(1, 5);
    expect(db.statements[0].sql).toBe(statements.vectorSearch({ schema: "dbo", table: "vec" }, 4, true));
    expect(db.statements[0].params).toEqual({ k: 2, vector: JSON.stringify(Array.from(records[1].vector)), sources: JSON.stringify(["b.md"]) });
  });

  it("full text: CONTAINSTABLE with the words OR-ed, FREETEXTTABLE with the words; a wordless query sends nothing", async () => {
    const c = store(db, { table: "ct", fullText: "contains" });
    await c.open(OPEN);
    const texts = ["the right to erasure", "erasure erasure of data", "lawfulness of processing"];
    await c.upsert(texts.map((t, i) => makeStoreRecord(i, { dimensions: 4, record: { content: t, context: "", indexedText: t } })));
    db.statements.length = 0;
    const hits = await c.fullTextSearch({ text: "Erasure, RIGHT!", topK: 5 });
    expect(hits.map((h) => h.id)).toEqual(["docs/alpha.md_chunk_0", "docs/alpha.md_chunk_1"]);
    expect(db.statements[0].params).toEqual({ k: 5, query: '"erasure" OR "right"' });
    expect(db.statements[0].sql).toContain("FROM CONTAINSTABLE([dbo].[ct], indexed_text, @query) AS ft");
    expect(await c.fullTextSearch({ text: " — ", topK: 5 })).toEqual([]);
    expect(db.statements).toHaveLength(1);
    const f = store(db, { table: "ft2", fullText: "freetext" });
    await f.open(OPEN);
    await f.upsert(texts.map((t, i) => makeStoreRecord(i, { dimensions: 4, record: { content: t, context: "", indexedText: t } })));
    db.statements.length = 0;
    await f.fullTextSearch({ text: "lawfulness", topK: 3, filter: { sourcePaths: ["docs/alpha.md"] } });
    expect(db.statements[0].sql).toContain("FROM FREETEXTTABLE([dbo].[ft2], indexed_text, @query) AS ft");
    expect(db.statements[0].params).toEqual({ k: 3, query: "lawfulness", sources: JSON.stringify(["docs/alpha.md"]) });
  });

  it("without a full-text index full text is refused by the adapter, and the server's 7601 is an E_STORE", async () => {
    const s = store(db, { table: "noft" });
    await s.open(OPEN);
    await expectHierdocError(s.fullTextSearch({ text: "x", topK: 1 }), { code: "E_STORE", adapter: "sql-server", operation: "fullTextSearch" });
    const dropped = store(db, { table: "dropped", fullText: "contains" });
    await dropped.open(OPEN);
    delete db.tables.get("dbo.dropped")!.fullText; // someone ran DROP FULLTEXT INDEX
    const err = await expectHierdocError(dropped.fullTextSearch({ text: "x", topK: 1 }), { code: "E_STORE", adapter: "sql-server", operation: "fullTextSearch" });
    expect(err.message).toContain("because it is not full-text indexed. (error 7601)");
  });

  it("scan pages by id (keyset), deletes by ids and by source", async () => {
    const s = store(db, { table: "scan", scanPageSize: 3 });
    await s.open(OPEN);
    const records = makeStoreRecords(7, { dimensions: 4, sourcePaths: ["a.md", "b.md"] });
    await s.upsert(records);
    db.statements.length = 0;
    const seen: string[] = [];
    for await (const r of s.scan()) seen.push(r.id);
    expect(seen).toEqual(records.map((r) => r.record.id).sort());
    expect(db.statements.map((x) => x.params.after)).toEqual(["", seen[2], seen[5]]);
    await s.deleteByIds([records[0].record.id, "missing"]);
    await s.deleteBySource("b.md");
    expect(db.statements.slice(-2).map((x) => x.params)).toEqual([{ ids: JSON.stringify([records[0].record.id, "missing"]) }, { source: "b.md" }]);
    expect(await s.count()).toBe(3);
  });
});

describe("SqlServerStore failures", () => {
  it("a deadlock (1205) is retried; a persistent Azure SQL 40613 is a retryable E_STORE_UNAVAILABLE naming the server, not the password", async () => {
    const db = new SqlServerDouble();
    const s = store(db, { retries: 1 });
    await s.open(OPEN);
    db.failNext = [new FakeRequestError(1205, "Transaction was deadlocked on lock resources with another process and has been chosen as the deadlock victim.")];
    await s.upsert([makeStoreRecord(0, { dimensions: 4 })]);
    expect(await s.count()).toBe(1);
    db.failNext = [0, 1].map(() => new FakeRequestError(40613, "Database 'hd' on server 'db' is not currently available."));
    const err = await expectStoreUnavailable(s.count(), { adapter: "sql-server", operation: "count" });
    expect(err.message).toContain("SQL Server at db.example,1433 is unavailable: count failed");
    expect(err.details.attempts).toBe(2);
    expect(JSON.stringify(err.toJSON())).not.toContain("Password");
  });

  it("a vector of another size rejected by the server is E_DIMENSION_MISMATCH; the meta rows refuse another embedder or size", async () => {
    const db = new SqlServerDouble();
    const s = store(db, { table: "dims" });
    await s.open(OPEN);
    db.tables.get("dbo.dims")!.dimensions = 3;
    await expectHierdocError(s.upsert([makeStoreRecord(0, { dimensions: 4 })]), { code: "E_DIMENSION_MISMATCH", adapter: "sql-server", operation: "upsert" });
    await expectHierdocError(s.vectorSearch({ vector: makeVector("q", 4), topK: 1 }), { code: "E_DIMENSION_MISMATCH", adapter: "sql-server", operation: "vectorSearch" });
    await expectHierdocError(store(db, { table: "dims" }).open({ embedderId: "other", dimensions: 4 }), { code: "E_EMBEDDER_MISMATCH", adapter: "sql-server", operation: "open" });
  });

  it("rejects a table name that is not a plain identifier before connecting", () => {
    expect(() => new SqlServerStore({ connectionString: "Server=x", table: "a];DROP TABLE b;--" })).toThrow(/vector_store\.table/);
  });

  it("maps the mssql client's own errors: login failure, socket failure, request timeout", () => {
    const login = Object.assign(new Error("Login failed for user 'u'."), { name: "ConnectionError", code: "ELOGIN" });
    expect(mapSqlServerError(login, "open", "h")).toMatchObject({ code: "E_STORE", retryable: false });
    expect(mapSqlServerError(login, "open", "h").message).toContain("vector_store.connection_string");
    const socket = Object.assign(new Error("Failed to connect to h:1433 - Could not connect (sequence)"), { name: "ConnectionError", code: "ESOCKET" });
    expect(mapSqlServerError(socket, "open", "h")).toMatchObject({ code: "E_STORE_UNAVAILABLE", retryable: true });
    const timeout = Object.assign(new Error("Timeout: Request failed to complete in 10000ms"), { name: "RequestError", code: "ETIMEOUT" });
    expect(mapSqlServerError(timeout, "count", "h")).toMatchObject({ code: "E_TIMEOUT", retryable: true });
    expect(serverOf("mssql://u:secret@db.local:1433/x")).toBe("db.local:1433");
    expect(serverOf("Data Source=tcp:sql.example.net,1433;Password=x")).toBe("sql.example.net,1433");
  });
});

describe("the real mssql client (tedious) against sockets that fail", () => {
  it("a closed port: one retryable E_STORE_UNAVAILABLE naming the server, not the password", async () => {
    const port = await closedPort();
    const s = new SqlServerStore({ connectionString: `mssql://alice:s3cr3t@127.0.0.1:${port}/hd?encrypt=false`, retries: 0, timeoutMs: 5000 });
    const err = await expectStoreUnavailable(s.open(OPEN), { adapter: "sql-server", operation: "open" });
    expect(err.message).toContain(`SQL Server at 127.0.0.1:${port} is unavailable: open failed`);
    expect(JSON.stringify(err.toJSON())).not.toContain("s3cr3t");
  });

  describe("a server that accepts TCP and never speaks TDS", () => {
    let server: Server;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      server = createServer((socket) => {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });

    it("fails open once, after the connect timeout, with a retryable E_TIMEOUT (not retried within the call)", async () => {
      const port = (server.address() as { port: number }).port;
      const s = new SqlServerStore({ connectionString: `Server=127.0.0.1,${port};Database=hd;User Id=u;Password=p;Encrypt=false`, retries: 3, timeoutMs: 1000 });
      const err = await expectHierdocError(s.open(OPEN), { code: "E_TIMEOUT", adapter: "sql-server", operation: "open", retryable: true });
      expect(err.details.attempts).toBeUndefined();
    });
  });
});

const GDPR_MD = join(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora/gdpr/gdpr_2016_679.md");
const HAS_GDPR = existsSync(GDPR_MD);

(HAS_GDPR ? describe : describe.skip)(`GDPR articles through CONTAINSTABLE${HAS_GDPR ? "" : " (skipped: ../shared/corpora not present)"}`, () => {
  it("\"right to erasure\" ranks Article 17 first by full text", async () => {
    const db = new SqlServerDouble();
    const s = store(db, { table: "gdpr", fullText: "contains" });
    await s.open({ embedderId: "toy", dimensions: 32 });
    await s.upsert(gdprArticleRecords(GDPR_MD, 32));
    expect(await s.count()).toBe(99);
    const hits = await s.fullTextSearch({ text: "right to erasure", topK: 3 });
    expect((await s.get([hits[0].id]))[0].sectionId).toBe("Article 17");
  });
});
