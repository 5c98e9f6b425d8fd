import { randomUUID } from "node:crypto";
import pg from "pg";
import type {
  ChunkRecord,
  ScoredId,
  StoreCapabilities,
  StoreOpenOptions,
  StoreQuery,
  StoreRecord,
  VectorStoreAdapter,
} from "@hierdoc/core";
import { HierdocError, redactUrl, assertOpenDimensions, assertSameDimensions, assertSameEmbedder, assertVector, storeErrorBuilder } from "@hierdoc/core";
import { ADAPTER, mapPgError } from "./errors.js";
import { withRetry, type RetryOptions } from "./retry.js";
import {
  createMetaSql,
  createTableSql,
  quoteIdent,
  tableNames,
  toVectorLiteral,
  upsertSql,
  type TableNames,
} from "./sql.js";

/** Options of {@link PostgresStore}. */
export interface PostgresStoreOptions {
  /** A pool the caller owns (not ended by `close()`). Give this or `connection`. */
  pool?: pg.Pool;
  /** Connection settings for a pool the store creates and ends on `close()`. */
  connection?: pg.PoolConfig;
  /** Chunk table name, `[a-z_][a-z0-9_]*` (default `hierdoc_chunks`); the meta table is `{table}_meta`. */
  table?: string;
  /** Schema of the tables (default: the connection's search path). */
  schema?: string;
  /** Text search configuration of the generated tsvector column (default `english`). */
  textSearchConfig?: string;
  /** Rows per upsert batch and declared `capabilities.maxBatchSize` (default 500). */
  maxBatchSize?: number;
  /** Retries of idempotent reads on connection errors (default 3 attempts, 100 ms base delay). */
  retry?: RetryOptions;
  /** `hnsw.ef_search` for vector searches (default: max(40, 2·topK)). */
  efSearch?: number;
}

const SCAN_PAGE = 1000;
const SCHEMA_VERSION = "1";

/**
 * Vector store on Postgres with pgvector: one table per index with a `vector(d)` column (HNSW, cosine),
 * a generated `tsvector` column (GIN) for native full-text search (`websearch_to_tsquery`, `ts_rank_cd`)
 * and the chunk record as JSONB, plus a `{table}_meta` table recording the embedder and vector size.
 *
 * Use it when the index must live in a shared database. Writes commit per call, so `flush()` is a no-op.
 */
export class PostgresStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen). */
  readonly capabilities: StoreCapabilities;
  private readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly names: TableNames;
  private readonly textConfig: string;
  private readonly retry: RetryOptions;
  private readonly batchSize: number;
  private readonly efSearch: number | undefined;
  private dimensions = 0;
  private closed = false;
  private iterativeScan = false;

  /**
   * Creates a store; no connection is made until {@link open}.
   * @throws HierdocError E_INVALID_ARGUMENT for a bad table, schema or text search configuration name, or
   *   when neither `pool` nor `connection` is given.
   */
  constructor(options: PostgresStoreOptions) {
    this.names = tableNames(options.table ?? "hierdoc_chunks", options.schema);
    this.textConfig = options.textSearchConfig ?? "english";
    quoteIdent(this.textConfig, "text search configuration");
    this.batchSize = Math.max(1, Math.floor(options.maxBatchSize ?? 500));
    this.retry = { ...options.retry, where: serverOf(options.pool?.options ?? options.connection) };
    this.efSearch = options.efSearch;
    if (options.pool !== undefined) {
      this.pool = options.pool;
      this.ownsPool = false;
    } else if (options.connection !== undefined) {
      this.pool = new pg.Pool({ connectionTimeoutMillis: 10_000, ...options.connection });
      this.pool.on("error", () => undefined);
      this.ownsPool = true;
    } else {
      throw new HierdocError("E_INVALID_ARGUMENT", "postgres store needs a `pool` or `connection` option", {
        details: { adapter: ADAPTER, operation: "configure" },
      });
    }
    this.capabilities = Object.freeze({
      vectorSearch: true,
      nativeHybrid: false,
      fullText: true,
      metadataFilter: true,
      deleteByFilter: true,
      persistent: true,
      maxBatchSize: this.batchSize,
    });
  }

  /**
   * Creates the pgvector extension, tables and indexes when missing, or checks the existing ones were
   * built for this embedder and vector size.
   * @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH naming both values;
   *   E_STORE_UNAVAILABLE (retryable) when the server cannot be reached; E_STORE otherwise.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    const meta = await withRetry("open", this.retry, () =>
      this.transaction(async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`hierdoc:${this.names.display}`]);
        await client.query("CREATE EXTENSION IF NOT EXISTS vector");
        const ext = await client.query<{ v: string }>("SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'");
        const [major, minor] = (ext.rows[0]?.v ?? "0.0").split(".").map(Number);
        this.iterativeScan = major > 0 || minor >= 8;
        await client.query(createMetaSql(this.names));
        const rows = await client.query<{ key: string; value: string }>(`SELECT key, value FROM ${this.names.meta}`);
        const found = Object.fromEntries(rows.rows.map((r) => [r.key, r.value]));
        // The identity of this table's contents (see stamp()): a table created before stamps existed gets one.
        if (found.embedder_id !== undefined && found.created === undefined) {
          await client.query(`INSERT INTO ${this.names.meta} (key, value) VALUES ('created', $1) ON CONFLICT (key) DO NOTHING`, [randomUUID()]);
        }
        if (found.embedder_id !== undefined) return found;
        for (const sql of createTableSql(this.names, options.dimensions, this.textConfig)) await client.query(sql);
        const values: Record<string, string> = {
          embedder_id: options.embedderId,
          dimensions: String(options.dimensions),
          text_config: this.textConfig,
          schema_version: SCHEMA_VERSION,
          created: randomUUID(),
          writes: "0",
        };
        for (const [key, value] of Object.entries(values)) {
          await client.query(`INSERT INTO ${this.names.meta} (key, value) VALUES ($1, $2)`, [key, value]);
        }
        return values;
      }),
    );
    assertSameEmbedder(`postgres table ${this.names.display}`, meta.embedder_id, options, this.error);
    assertSameDimensions(`postgres table ${this.names.display}`, meta.dimensions, options, this.error);
    this.dimensions = options.dimensions;
  }

  /**
   * Adds or replaces records by id in one transaction (`INSERT … ON CONFLICT (id) DO UPDATE`), in batches
   * of `maxBatchSize` rows; the last record wins when an id repeats.
   * @throws HierdocError E_DIMENSION_MISMATCH for a vector of the wrong length (nothing is written);
   *   E_STORE_UNAVAILABLE (retryable) when the server cannot be reached.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    this.ready("upsert");
    const byId = new Map<string, StoreRecord>();
    for (const r of records) {
      if (typeof r.record?.id !== "string" || r.record.id.length === 0) {
        throw new HierdocError("E_INVALID_ARGUMENT", "every record needs a non-empty string id", {
          details: { adapter: ADAPTER, operation: "upsert" },
        });
      }
      this.checkVector(r.vector, "upsert", r.record.id);
      byId.set(r.record.id, r);
    }
    if (byId.size === 0) return;
    const unique = [...byId.values()];
    const sql = upsertSql(this.names, this.dimensions);
    try {
      await this.transaction(async (client) => {
        for (let i = 0; i < unique.length; i += this.batchSize) {
          const batch = unique.slice(i, i + this.batchSize);
          await client.query(sql, [
            batch.map((r) => r.record.id),
            batch.map((r) => r.record.sourcePath),
            batch.map((r) => toVectorLiteral(r.vector)),
            batch.map((r) => r.record.indexedText ?? r.record.content ?? ""),
            batch.map((r) => JSON.stringify(r.record)),
          ]);
        }
        await this.bumpWrites(client);
      });
    } catch (err) {
      throw mapPgError(err, "upsert", this.retry.where);
    }
  }

  /**
   * The identity of the table's contents: `postgres:{schema.table}:{created}:{writes}`, where `created` is a
   * random id given to the table when first opened (a dropped and re-created table gets another) and `writes`
   * a counter every upsert and every delete that removed rows bumps in its own transaction (by any process).
   * Reads and deletes that remove nothing leave it unchanged.
   * @throws HierdocError E_STORE when the store is not open; E_STORE_UNAVAILABLE when the server cannot be reached.
   */
  async stamp(): Promise<string | null> {
    this.ready("stamp");
    const rows = await this.read<{ key: string; value: string }>("stamp", `SELECT key, value FROM ${this.names.meta} WHERE key IN ('created', 'writes')`, []);
    const meta = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    return meta.created === undefined ? null : `postgres:${this.names.display}:${meta.created}:${meta.writes ?? "0"}`;
  }

  /** Records for the given ids (retried on connection errors); missing ids are skipped. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    this.ready("get");
    if (ids.length === 0) return [];
    const res = await this.read<{ id: string; record: ChunkRecord }>("get", `SELECT id, record FROM ${this.names.table} WHERE id = ANY($1::text[])`, [ids]);
    const found = new Map(res.map((r) => [r.id, r.record]));
    return ids.flatMap((id) => (found.has(id) ? [found.get(id) as ChunkRecord] : []));
  }

  /** Removes records by id; unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    this.ready("deleteByIds");
    if (ids.length === 0) return;
    await this.deleteWhere("deleteByIds", `DELETE FROM ${this.names.table} WHERE id = ANY($1::text[])`, [ids]);
  }

  /** Removes every record of one source file. */
  async deleteBySource(sourcePath: string): Promise<void> {
    this.ready("deleteBySource");
    await this.deleteWhere("deleteBySource", `DELETE FROM ${this.names.table} WHERE source_path = $1`, [sourcePath]);
  }

  /** Every record in id order, paged by keyset (each page retried on connection errors). */
  async *scan(): AsyncIterable<ChunkRecord> {
    this.ready("scan");
    let after = "";
    for (;;) {
      const page = await this.read<{ id: string; record: ChunkRecord }>(
        "scan",
        `SELECT id, record FROM ${this.names.table} WHERE id > $1 ORDER BY id LIMIT ${SCAN_PAGE}`,
        [after],
      );
      for (const row of page) yield row.record;
      if (page.length < SCAN_PAGE) return;
      after = page[page.length - 1].id;
    }
  }

  /** Number of records. */
  async count(): Promise<number> {
    this.ready("count");
    const rows = await this.read<{ n: number }>("count", `SELECT count(*)::int AS n FROM ${this.names.table}`, []);
    return rows[0].n;
  }

  /**
   * Top-k by cosine similarity (score = 1 − cosine distance) through the HNSW index, optionally restricted
   * to source paths (pgvector's iterative index scan keeps filtered results complete where supported).
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.max(0, Math.floor(query.topK));
    if (k === 0) return [];
    const paths = query.filter?.sourcePaths;
    const where = paths !== undefined ? "WHERE source_path = ANY($3::text[])" : "";
    const sql = `SELECT id, 1 - (embedding <=> $1::vector) AS score FROM ${this.names.table} ${where}
      ORDER BY embedding <=> $1::vector LIMIT $2`;
    const params: unknown[] = [toVectorLiteral(query.vector), k];
    if (paths !== undefined) params.push(paths);
    const ef = Math.min(1000, Math.max(this.efSearch ?? 40, 2 * k));
    const rows = await withRetry("vectorSearch", this.retry, () =>
      this.transaction(async (client) => {
        await client.query(`SET LOCAL hnsw.ef_search = ${ef}`);
        if (paths !== undefined && this.iterativeScan) await client.query("SET LOCAL hnsw.iterative_scan = strict_order");
        return (await client.query<{ id: string; score: number }>(sql, params)).rows;
      }),
    );
    return rows.map((r) => ({ id: r.id, score: Number(r.score) }));
  }

  /**
   * Native full-text search: `websearch_to_tsquery` over the indexed text, ranked by `ts_rank_cd`.
   * Returns nothing for a query without searchable words.
   */
  async fullTextSearch(query: StoreQuery & { text: string }): Promise<ScoredId[]> {
    this.ready("fullTextSearch");
    const k = Math.max(0, Math.floor(query.topK));
    if (k === 0 || query.text.trim() === "") return [];
    const paths = query.filter?.sourcePaths;
    const where = paths !== undefined ? "AND source_path = ANY($3::text[])" : "";
    const sql = `SELECT id, ts_rank_cd(tsv, q) AS score
      FROM ${this.names.table}, websearch_to_tsquery('${this.textConfig}'::regconfig, $1) AS q
      WHERE tsv @@ q ${where} ORDER BY score DESC, id LIMIT $2`;
    const params: unknown[] = [query.text, k];
    if (paths !== undefined) params.push(paths);
    const rows = await this.read<{ id: string; score: number }>("fullTextSearch", sql, params);
    return rows.map((r) => ({ id: r.id, score: Number(r.score) }));
  }

  /** No-op: every write is committed when its call returns. */
  async flush(): Promise<void> {
    this.ready("flush");
  }

  /** Ends the pool when the store created it; a caller's pool is left open. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end().catch(() => undefined);
  }

  private async read<T extends pg.QueryResultRow>(operation: string, sql: string, params: unknown[]): Promise<T[]> {
    return withRetry(operation, this.retry, async () => (await this.pool.query<T>(sql, params)).rows);
  }

  /** Runs a DELETE and, when it removed rows, bumps the write counter in the same transaction. */
  private async deleteWhere(operation: string, sql: string, params: unknown[]): Promise<void> {
    try {
      await this.transaction(async (client) => {
        const res = await client.query(sql, params);
        if ((res.rowCount ?? 0) > 0) await this.bumpWrites(client);
      });
    } catch (err) {
      throw mapPgError(err, operation, this.retry.where);
    }
  }

  /** Adds one to the `writes` meta row (created at 1 when missing), inside the caller's transaction. */
  private async bumpWrites(client: pg.PoolClient): Promise<void> {
    await client.query(
      `INSERT INTO ${this.names.meta} AS m (key, value) VALUES ('writes', '1')
       ON CONFLICT (key) DO UPDATE SET value = (m.value::bigint + 1)::text`,
    );
  }

  private async transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    // A checked-out client has no pool listener: without ours, a connection dropped mid-transaction raises
    // an unhandled 'error' event that kills the process. The failing query then rejects as usual.
    const onError = (): void => {
      broken = true;
    };
    client.on("error", onError);
    try {
      await client.query("BEGIN");
      const result = await fn(client);
      await client.query("COMMIT");
      return result;
    } catch (err) {
      broken = true;
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  }

  private ready(operation: string): void {
    if (this.closed || this.dimensions === 0) {
      throw new HierdocError("E_STORE", `postgres store is ${this.closed ? "closed" : "not open; call open() first"}`, {
        details: { adapter: ADAPTER, operation },
      });
    }
  }

  private readonly error = storeErrorBuilder(ADAPTER);

  private checkVector(vector: Float32Array, operation: string, recordId?: string): void {
    assertVector(vector, this.dimensions, { adapter: ADAPTER, operation, recordId });
  }
}

/** The server a pool connects to, for error messages: the connection string without credentials, or host:port/database. */
function serverOf(config: pg.PoolConfig | undefined): string | undefined {
  if (config === undefined) return undefined;
  if (config.connectionString) return redactUrl(config.connectionString);
  return `${config.host ?? "localhost"}:${config.port ?? 5432}${config.database ? `/${config.database}` : ""}`;
}
