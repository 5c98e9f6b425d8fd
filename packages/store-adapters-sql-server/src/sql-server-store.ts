import type { ChunkRecord, ScoredId, StoreCapabilities, StoreOpenOptions, StoreQuery, StoreRecord, VectorStoreAdapter } from "@hierdoc/core";
import { HierdocError, assertOpenDimensions, assertSameDimensions, assertSameEmbedder, batchesOf, fetchInOrder, uniqueUpsertRecords, storeErrorBuilder, vectorChecker } from "@hierdoc/core";
import { mssqlPool, type SqlPoolFactory, type SqlPoolLike } from "./pool.js";
import { ADAPTER, serverOf, withRetry, type RetryPolicy } from "./sql-server-errors.js";
import * as sql from "./sql-statements.js";

/** Options of {@link SqlServerStore}. */
export interface SqlServerStoreOptions {
  /** ADO-style (`Server=tcp:HOST,1433;Database=…;User Id=…;Password=…;Encrypt=true`) or `mssql://` connection string. Never logged. */
  connectionString: string;
  /** Table of the chunks (a `_meta` table is created beside it). Default `hierdoc_chunks`. */
  table?: string;
  /** Schema. Default `dbo`. */
  schema?: string;
  /**
   * Full text through a SQL Server full-text index on `indexed_text`: `contains` (CONTAINSTABLE, any word),
   * `freetext` (FREETEXTTABLE, stemmed) or `none` (default; hierdoc then uses its own keyword index).
   */
  fullText?: sql.FullTextMode;
  /** Full-text catalog created for the index. Default `hierdoc_catalog`. */
  fullTextCatalog?: string;
  /** Retries of idempotent calls after a connection failure or a transient error. Default 2. */
  retries?: number;
  /** Delay before the first retry in ms; doubles each retry. Default 200. */
  retryDelayMs?: number;
  /** Time limit of connecting and of one request in ms. Default 10 000. */
  timeoutMs?: number;
  /** Rows per MERGE (one JSON parameter). Default 200. */
  maxBatchSize?: number;
  /** Page size of {@link SqlServerStore.scan}. Default 500. */
  scanPageSize?: number;
  /** How the pool is made (tests pass a double). Default: `mssql`'s ConnectionPool. */
  pool?: SqlPoolFactory;
}

/** Meta row names. */
export const EMBEDDER_KEY = "embedder_id";
export const DIMENSIONS_KEY = "dimensions";

/**
 * A {@link VectorStoreAdapter} over a SQL Server 2025 (or Azure SQL) table, on the official `mssql` client.
 *
 * One row per chunk: `id` (primary key), `source_path` (indexed), `indexed_text`, `record` (the ChunkRecord
 * as JSON) and `embedding VECTOR(n)`. Dense search is exact `VECTOR_DISTANCE('cosine', …)` ordered ascending
 * (score = 1 − distance). With `fullText` set, a full-text catalog and index on `indexed_text` are created
 * and the full-text leg is `CONTAINSTABLE` (any word) or `FREETEXTTABLE`; SQL Server has no native hybrid,
 * so hierdoc fuses the legs in the app (RRF). Writes are one `MERGE` per batch from a JSON parameter.
 *
 * Use it when the chunks should live in SQL Server 2025 / Azure SQL next to the rest of the data.
 */
export class SqlServerStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen); `fullText` follows the `fullText` option. */
  readonly capabilities: StoreCapabilities;
  private readonly connectionString: string;
  private readonly server: string;
  private readonly t: sql.SqlTable;
  private readonly fullText: sql.FullTextMode;
  private readonly catalog: string;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly scanPageSize: number;
  private readonly makePool: SqlPoolFactory;
  private pool: SqlPoolLike | undefined;
  private opened = false;
  private dimensions = 0;
  private readonly error = storeErrorBuilder(ADAPTER, () => ({ server: this.server, table: `${this.t.schema}.${this.t.table}` }));
  private readonly checkVector = vectorChecker(ADAPTER, () => this.dimensions, () => ({ table: this.t.table }));

  /**
   * Creates a closed store; call {@link open} before anything else. Does not connect.
   * @throws HierdocError E_CONFIG for a missing connection string, a bad table / schema / catalog name or batch size.
   */
  constructor(options: SqlServerStoreOptions) {
    const configure = (message: string): HierdocError => new HierdocError("E_CONFIG", message, { details: { adapter: ADAPTER, operation: "configure" } });
    if (typeof options.connectionString !== "string" || options.connectionString.trim() === "") throw configure("sql-server needs a connection string (vector_store.connection_string)");
    this.connectionString = options.connectionString;
    this.server = serverOf(options.connectionString);
    this.t = { schema: options.schema ?? "dbo", table: options.table ?? "hierdoc_chunks" };
    this.catalog = options.fullTextCatalog ?? "hierdoc_catalog";
    for (const [key, name] of [["schema", this.t.schema], ["table", this.t.table], ["full_text_catalog", this.catalog]] as const) {
      if (!sql.isIdentifier(name)) throw configure(`vector_store.${key}: "${name}" is not a plain SQL identifier (letters, digits and _, not starting with a digit)`);
    }
    const maxBatchSize = options.maxBatchSize ?? 200;
    if (!Number.isInteger(maxBatchSize) || maxBatchSize <= 0) throw configure(`sql-server maxBatchSize must be a positive integer, got ${maxBatchSize}`);
    this.fullText = options.fullText ?? "none";
    this.capabilities = Object.freeze({
      vectorSearch: true,
      nativeHybrid: false,
      fullText: this.fullText !== "none",
      metadataFilter: true,
      deleteByFilter: true,
      persistent: true,
      maxBatchSize,
    });
    this.retry = { retries: options.retries ?? 2, baseDelayMs: options.retryDelayMs ?? 200 };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.scanPageSize = options.scanPageSize ?? 500;
    this.makePool = options.pool ?? mssqlPool;
  }

  /**
   * Connects, creates the tables (and the full-text catalog and index when configured) when missing, and
   * checks the meta rows against this embedder and vector size (writing them on a new table).
   * @throws HierdocError E_STORE_UNAVAILABLE when the server cannot be reached; E_EMBEDDER_MISMATCH /
   *   E_DIMENSION_MISMATCH; E_STORE for a login failure or a server without VECTOR / full-text support.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    if (this.pool === undefined) {
      const pool = await this.makePool(this.connectionString, { connectTimeoutMs: this.timeoutMs, requestTimeoutMs: this.timeoutMs }).catch((err: unknown) => {
        if (err instanceof HierdocError) throw err;
        throw new HierdocError("E_CONFIG", `vector_store.connection_string: not usable: ${(err as Error).message}`, { cause: err, details: { adapter: ADAPTER, operation: "open", server: this.server } });
      });
      await this.call("open", () => pool.connect());
      this.pool = pool;
    }
    await this.run("open", sql.createTables(this.t, options.dimensions));
    if (this.fullText !== "none") await this.run("open", sql.createFullTextIndex(this.t, this.catalog));
    const meta = new Map((await this.run<{ name: string; value: string }>("open", sql.readMeta(this.t))).map((r) => [r.name, r.value]));
    const what = `sql-server table ${this.t.schema}.${this.t.table}`;
    if (!meta.has(EMBEDDER_KEY)) {
      await this.run("open", sql.insertMeta(this.t), { name: EMBEDDER_KEY, value: options.embedderId });
      await this.run("open", sql.insertMeta(this.t), { name: DIMENSIONS_KEY, value: String(options.dimensions) });
    } else {
      assertSameEmbedder(what, meta.get(EMBEDDER_KEY), options, this.error);
      assertSameDimensions(what, meta.get(DIMENSIONS_KEY), options, this.error);
    }
    this.dimensions = options.dimensions;
    this.opened = true;
  }

  /**
   * Adds or replaces records by id: one `MERGE … USING OPENJSON(@rows)` per batch of `maxBatchSize`. The whole
   * input is validated first; a failure mid-way leaves earlier batches committed.
   * @throws HierdocError E_DIMENSION_MISMATCH / E_INVALID_ARGUMENT for bad vectors or ids.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    this.ready("upsert");
    for (const batch of batchesOf(uniqueUpsertRecords(records, { checkVector: this.checkVector, error: this.error }), this.capabilities.maxBatchSize)) {
      const rows = batch.map(({ record, vector }) => ({ id: record.id, sourcePath: record.sourcePath, text: record.indexedText, record, vector: Array.from(vector) }));
      await this.run("upsert", sql.mergeRows(this.t, this.dimensions), { rows: JSON.stringify(rows) });
    }
  }

  /** Records for the given ids, in the order asked; missing ids are skipped. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    this.ready("get");
    return fetchInOrder(ids, this.capabilities.maxBatchSize, async (batch) => {
      const rows = await this.run<{ id: string; record: string }>("get", sql.selectByIds(this.t), { ids: JSON.stringify(batch) });
      return rows.map((r) => this.decode(r, "get"));
    });
  }

  /** Removes records by id; unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    this.ready("deleteByIds");
    for (const batch of batchesOf(ids, this.capabilities.maxBatchSize)) await this.run("deleteByIds", sql.deleteByIds(this.t), { ids: JSON.stringify(batch) });
  }

  /** Removes every record of `sourcePath` with one DELETE. */
  async deleteBySource(sourcePath: string): Promise<void> {
    this.ready("deleteBySource");
    await this.run("deleteBySource", sql.deleteBySource(this.t), { source: sourcePath });
  }

  /** Every record, by id, in keyset pages of `scanPageSize`. */
  async *scan(): AsyncIterable<ChunkRecord> {
    this.ready("scan");
    let after = "";
    for (;;) {
      const rows = await this.run<{ id: string; record: string }>("scan", sql.scanPage(this.t), { limit: this.scanPageSize, after });
      for (const r of rows) yield this.decode(r, "scan");
      if (rows.length < this.scanPageSize) return;
      after = rows[rows.length - 1].id;
    }
  }

  /** Number of rows. */
  async count(): Promise<number> {
    this.ready("count");
    const [row] = await this.run<{ n: number | string }>("count", sql.countRows(this.t));
    return Number(row?.n ?? 0);
  }

  /**
   * The `topK` rows nearest to `query.vector`: exact `VECTOR_DISTANCE('cosine', …)`, ascending; score =
   * 1 − distance (cosine similarity). `filter.sourcePaths` becomes `source_path IN OPENJSON(@sources)`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.max(0, Math.floor(query.topK));
    if (k === 0 || query.filter?.sourcePaths?.length === 0) return [];
    const filtered = query.filter?.sourcePaths !== undefined;
    const params: Record<string, unknown> = { k, vector: JSON.stringify(Array.from(query.vector)) };
    if (filtered) params.sources = JSON.stringify(query.filter!.sourcePaths);
    const rows = await this.run<{ id: string; distance: number }>("vectorSearch", sql.vectorSearch(this.t, this.dimensions, filtered), params);
    return rows.map((r) => ({ id: r.id, score: 1 - Number(r.distance) }));
  }

  /**
   * Full text through the full-text index (only when configured): CONTAINSTABLE with the query's words
   * joined by OR, or FREETEXTTABLE with them; score = the engine's RANK. A query without words returns nothing.
   * @throws HierdocError E_STORE when full text is not configured.
   */
  async fullTextSearch(query: StoreQuery & { text: string }): Promise<ScoredId[]> {
    this.ready("fullTextSearch");
    if (this.fullText === "none") throw this.error("E_STORE", "fullTextSearch", "sql-server full text is off; set vector_store.full_text to contains or freetext");
    const k = Math.max(0, Math.floor(query.topK));
    const words = sql.queryWords(query.text);
    if (k === 0 || words.length === 0 || query.filter?.sourcePaths?.length === 0) return [];
    const filtered = query.filter?.sourcePaths !== undefined;
    const params: Record<string, unknown> = { k, query: this.fullText === "contains" ? sql.containsCondition(words) : words.join(" ") };
    if (filtered) params.sources = JSON.stringify(query.filter!.sourcePaths);
    const rows = await this.run<{ id: string; score: number }>("fullTextSearch", sql.fullTextSearch(this.t, this.fullText, filtered), params);
    return rows.map((r) => ({ id: r.id, score: Number(r.score) }));
  }

  /**
   * Waits (up to `timeoutMs`) until the full-text catalog has indexed the writes so far (change tracking is
   * asynchronous); writes themselves are committed when each statement returns.
   */
  async flush(): Promise<void> {
    this.ready("flush");
    if (this.fullText === "none") return;
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const [row] = await this.run<{ status: number }>("flush", sql.catalogStatus(this.catalog));
      if (Number(row?.status ?? 0) === 0 || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Closes the pool; the server keeps the data. */
  async close(): Promise<void> {
    this.opened = false;
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close().catch(() => undefined);
  }

  private async run<T = Record<string, unknown>>(operation: string, statement: string, params: Record<string, unknown> = {}): Promise<T[]> {
    const pool = this.pool;
    if (pool === undefined) throw this.error("E_STORE", operation, "sql-server store is not open; call open() first");
    const res = await this.call(operation, () => {
      const request = pool.request();
      for (const [name, value] of Object.entries(params)) request.input(name, value);
      return request.query<T>(statement);
    });
    return res.recordset ?? [];
  }

  private call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return withRetry(operation, this.server, this.retry, fn);
  }

  private ready(operation: string): void {
    if (!this.opened) throw this.error("E_STORE", operation, "sql-server store is not open; call open() first");
  }

  private decode(row: { id: string; record: string }, operation: string): ChunkRecord {
    try {
      const record = JSON.parse(row.record) as ChunkRecord;
      if (typeof record?.id === "string") return record;
    } catch {
      // reported below
    }
    throw this.error("E_INDEX_CORRUPT", operation, `sql-server row ${row.id} has no valid record JSON; not written by hierdoc`);
  }
}
