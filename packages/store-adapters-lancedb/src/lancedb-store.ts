import type {
  ChunkRecord,
  ScoredId,
  StoreCapabilities,
  StoreOpenOptions,
  StoreQuery,
  StoreRecord,
  VectorStoreAdapter,
} from "@hierdoc/core";
import { HierdocError, assertOpenDimensions, assertSameDimensions, assertSameEmbedder, batchesOf, fetchInOrder, uniqueUpsertRecords, storeErrorBuilder, vectorChecker } from "@hierdoc/core";
import { connect, Index, makeArrowTable, rerankers, type Connection, type FtsOptions, type Table } from "@lancedb/lancedb";
import type { Schema } from "apache-arrow";
import { ADAPTER, mapLanceError } from "./errors.js";
import { decodeRow, encodeRow, META_DIMENSIONS, META_EMBEDDER, sqlIn, sqlString, tableSchema } from "./row-codec.js";

/** Options of {@link LanceDbStore}. */
export interface LanceDbStoreOptions {
  /** Database folder (created when missing; its parent must exist). */
  uri: string;
  /** Table name. Default `hierdoc_chunks`. */
  table?: string;
  /** `k` of LanceDB's RRF reranker in {@link LanceDbStore.hybridSearch}. Default 60. */
  rrfK?: number;
  /** Full-text index settings (tokenizer, stemming, stop words…); LanceDB's defaults when absent. */
  fts?: Partial<FtsOptions>;
}

/** Rows per `mergeInsert` call. */
export const LANCEDB_MAX_BATCH = 10_000;
const ID_CHUNK = 1000;
const FTS_INDEX = "text_idx";

/** Result columns LanceDB adds to search results. */
type Hit = { id: string; _distance?: number; _score?: number; _relevance_score?: number };

/**
 * A {@link VectorStoreAdapter} over an embedded LanceDB folder, with native full text and native hybrid
 * search (vector + full-text index on the indexed text, fused by LanceDB's RRF reranker).
 *
 * Rows hold `id`, `source_path` (SQL filters), `text` (the record's `indexedText`, full-text indexed),
 * `record` (the rest of the chunk record as JSON) and `vector` (cosine). The embedder id and vector size
 * live in the table's schema metadata. Writes are `mergeInsert("id")`, so upserts are idempotent. The
 * full-text index is brought up to date lazily, before the next text or hybrid search or on `flush()`
 * (LanceDB still searches rows the index has not seen, only slower).
 *
 * Use it for a persistent local index that needs keyword and hybrid search without a server.
 */
export class LanceDbStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen). */
  readonly capabilities: StoreCapabilities = Object.freeze({
    vectorSearch: true,
    nativeHybrid: true,
    fullText: true,
    metadataFilter: true,
    deleteByFilter: true,
    persistent: true,
    maxBatchSize: LANCEDB_MAX_BATCH,
  });
  private readonly uri: string;
  private readonly tableName: string;
  private readonly rrfK: number;
  private readonly ftsOptions: Partial<FtsOptions> | undefined;
  private db: Connection | undefined;
  private table: Table | undefined;
  private reranker: rerankers.RRFReranker | undefined;
  private dimensions = 0;
  private schema: Schema | undefined;
  private ftsStale = false;
  private indexing: Promise<void> | undefined;

  /** Creates a closed store; call {@link open} before anything else. Touches no files. */
  constructor(options: LanceDbStoreOptions) {
    if (typeof options?.uri !== "string" || options.uri.length === 0) {
      throw new HierdocError("E_CONFIG", "lancedb store needs a uri (a folder)", { details: { adapter: ADAPTER, operation: "configure" } });
    }
    this.uri = options.uri;
    this.tableName = options.table ?? "hierdoc_chunks";
    this.rrfK = options.rrfK ?? 60;
    this.ftsOptions = options.fts;
  }

  /**
   * Opens or creates the table (with its full-text index) and checks it was built for this embedder and
   * vector size.
   * @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH; E_STORE_UNAVAILABLE when the folder
   *   cannot be opened or created; E_STORE for a table hierdoc did not write.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    await this.call("open", async () => {
      const db = await connect(this.uri);
      const names = await db.tableNames();
      const table = names.includes(this.tableName)
        ? await db.openTable(this.tableName)
        : await db.createEmptyTable(this.tableName, tableSchema(options.embedderId, options.dimensions), { mode: "create", existOk: true });
      await this.checkTable(table, options);
      const indices = await table.listIndices();
      if (!indices.some((i) => i.indexType === "FTS" && i.columns.includes("text"))) {
        await table.createIndex("text", { config: Index.fts(this.ftsOptions), replace: true, name: FTS_INDEX });
      }
      this.reranker = await rerankers.RRFReranker.create(this.rrfK);
      this.db = db;
      this.table = table;
      this.dimensions = options.dimensions;
      this.schema = await table.schema();
      this.ftsStale = indices.some((i) => i.indexType === "FTS" && (i.numUnindexedRows ?? 0) > 0);
    });
  }

  /**
   * Adds or replaces records by id (`mergeInsert("id")`), in batches of {@link LANCEDB_MAX_BATCH}. The
   * whole input is validated first; each batch is one atomic LanceDB commit.
   * @throws HierdocError E_DIMENSION_MISMATCH / E_INVALID_ARGUMENT for bad vectors or ids; E_STORE.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    const table = this.ready("upsert");
    const unique = uniqueUpsertRecords(records, { checkVector: this.checkVector, error: this.error });
    for (const batch of batchesOf(unique, LANCEDB_MAX_BATCH)) {
      const rows = batch.map(({ record, vector }) => encodeRow(record, vector));
      await this.call("upsert", () =>
        table
          .mergeInsert("id")
          .whenMatchedUpdateAll()
          .whenNotMatchedInsertAll()
          .execute(makeArrowTable(rows, { schema: this.schema })),
      );
      this.ftsStale = true;
    }
  }

  /** Records for the given ids, in the order asked; missing ids are skipped. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    const table = this.ready("get");
    return fetchInOrder(ids, ID_CHUNK, async (batch) => {
      const rows = await this.call("get", () => table.query().where(sqlIn("id", batch)).select(["id", "text", "record"]).toArray());
      return (rows as { id: string; text: string; record: string }[]).map((row) => decodeRow(row.id, row.text, row.record));
    });
  }

  /** Removes records by id; unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    const table = this.ready("deleteByIds");
    for (const batch of batchesOf(ids, ID_CHUNK)) {
      await this.call("deleteByIds", () => table.delete(sqlIn("id", batch)));
      this.ftsStale = true;
    }
  }

  /** Removes every record whose `sourcePath` equals `sourcePath` (one SQL delete). */
  async deleteBySource(sourcePath: string): Promise<void> {
    const table = this.ready("deleteBySource");
    await this.call("deleteBySource", () => table.delete(`source_path = ${sqlString(sourcePath)}`));
    this.ftsStale = true;
  }

  /** Every record (without vectors), streamed batch by batch from the table version current at the call. */
  async *scan(): AsyncIterable<ChunkRecord> {
    const table = this.ready("scan");
    const it = table.query().select(["id", "text", "record"])[Symbol.asyncIterator]();
    for (;;) {
      const next = await this.call("scan", () => it.next());
      if (next.done) return;
      const batch = next.value;
      const id = batch.getChild("id");
      const text = batch.getChild("text");
      const record = batch.getChild("record");
      for (let i = 0; i < batch.numRows; i++) yield decodeRow(id?.get(i), text?.get(i), record?.get(i));
    }
  }

  /** Number of records. */
  async count(): Promise<number> {
    const table = this.ready("count");
    return this.call("count", () => table.countRows());
  }

  /**
   * The table's version (`lancedb:<table>:v<n>`): LanceDB commits a new version on every write (and on index
   * updates and compaction), so a caller's state derived from the records (the tool's `derived.bin`) is
   * current while the stamp is unchanged. A version committed by another process is seen after a reopen.
   * @throws HierdocError E_STORE when the store is not open.
   */
  async stamp(): Promise<string | null> {
    const table = this.ready("stamp");
    return this.call("stamp", async () => `lancedb:${this.tableName}:v${await table.version()}`);
  }

  /**
   * The `topK` records nearest to `query.vector` by cosine distance, best first, score `1 − distance`;
   * `query.filter.sourcePaths` is a SQL prefilter on `source_path`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    const table = this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const where = this.where(query);
    if (k === 0 || where === null) return [];
    const hits = await this.call("vectorSearch", () => {
      let q = table.query().nearestTo(query.vector).distanceType("cosine").limit(k);
      if (where !== undefined) q = q.where(where);
      return q.select(["id", "_distance"]).toArray();
    });
    return (hits as Hit[]).map((h) => ({ id: h.id, score: 1 - (h._distance ?? 1) }));
  }

  /**
   * BM25 full-text search over the indexed text (LanceDB's FTS index: its tokenizer, stemming and stop
   * words), best first, score = LanceDB's BM25 score. Brings the index up to date first when writes are
   * pending. Blank queries return nothing.
   */
  async fullTextSearch(query: StoreQuery & { text: string }): Promise<ScoredId[]> {
    const table = this.ready("fullTextSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const where = this.where(query);
    if (k === 0 || where === null || query.text.trim().length === 0) return [];
    await this.refreshFts("fullTextSearch");
    const hits = await this.call("fullTextSearch", () => {
      let q = table.query().fullTextSearch(query.text, { columns: ["text"] }).limit(k);
      if (where !== undefined) q = q.where(where);
      return q.select(["id", "_score"]).toArray();
    });
    return (hits as Hit[]).map((h) => ({ id: h.id, score: h._score ?? 0 }));
  }

  /**
   * Native hybrid search: LanceDB runs the vector and full-text legs and fuses them with its RRF
   * reranker. Returns ids in the fused order with the RRF relevance as score.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async hybridSearch(query: StoreQuery & { text: string; vector: Float32Array }): Promise<ScoredId[]> {
    const table = this.ready("hybridSearch");
    this.checkVector(query.vector, "hybridSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const where = this.where(query);
    if (k === 0 || where === null) return [];
    if (query.text.trim().length === 0) return this.vectorSearch(query);
    await this.refreshFts("hybridSearch");
    const reranker = this.reranker as rerankers.RRFReranker;
    const hits = await this.call("hybridSearch", () => {
      let q = table.query().nearestTo(query.vector).distanceType("cosine").fullTextSearch(query.text, { columns: ["text"] }).rerank(reranker).limit(k);
      if (where !== undefined) q = q.where(where);
      return q.select(["id"]).toArray();
    });
    return (hits as Hit[]).slice(0, k).map((h) => ({ id: h.id, score: h._relevance_score ?? 0 }));
  }

  /**
   * Brings the full-text index up to date and compacts small fragments (`table.optimize()`). Each write
   * is already durable when it returns; this only makes the on-disk index complete.
   */
  async flush(): Promise<void> {
    this.ready("flush");
    await this.refreshFts("flush");
  }

  /** Waits for index maintenance and releases the table and connection. */
  async close(): Promise<void> {
    if (this.table === undefined) return;
    await this.indexing?.catch(() => undefined);
    this.table.close();
    this.db?.close();
    this.table = undefined;
    this.db = undefined;
  }

  private async refreshFts(operation: string): Promise<void> {
    const table = this.ready(operation);
    if (this.indexing === undefined && this.ftsStale) {
      this.ftsStale = false;
      this.indexing = this.call(operation, async () => {
        await table.optimize();
      }).then(
        () => {
          this.indexing = undefined;
        },
        (err: unknown) => {
          this.ftsStale = true;
          this.indexing = undefined;
          throw err;
        },
      );
    }
    await this.indexing;
  }

  private async checkTable(table: Table, options: StoreOpenOptions): Promise<void> {
    const schema = await table.schema();
    const embedderId = schema.metadata.get(META_EMBEDDER);
    const dimensions = schema.metadata.get(META_DIMENSIONS);
    if (embedderId === undefined || dimensions === undefined) {
      throw this.error("E_STORE", "open", `lancedb table "${this.tableName}" in ${this.uri} was not written by hierdoc (no ${META_EMBEDDER} metadata)`);
    }
    assertSameEmbedder(`lancedb table "${this.tableName}" in ${this.uri}`, embedderId, options, this.error);
    assertSameDimensions(`lancedb table "${this.tableName}" in ${this.uri}`, dimensions, options, this.error);
  }

  /** SQL prefilter for the query: undefined = none, null = matches nothing. */
  private where(query: StoreQuery): string | undefined | null {
    const paths = query.filter?.sourcePaths;
    if (paths === undefined) return undefined;
    return paths.length === 0 ? null : sqlIn("source_path", paths);
  }

  private async call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw mapLanceError(err, operation, this.uri);
    }
  }

  private ready(operation: string): Table {
    if (this.table === undefined) throw this.error("E_STORE", operation, "lancedb store is not open; call open() first");
    return this.table;
  }

  private readonly checkVector = vectorChecker(ADAPTER, () => this.dimensions, () => ({ uri: this.uri }));

  private readonly error = storeErrorBuilder(ADAPTER, () => ({ uri: this.uri }));
}
