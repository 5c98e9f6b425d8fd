import type { ChunkRecord, ScoredId, StoreCapabilities, StoreOpenOptions, StoreQuery, StoreRecord, VectorStoreAdapter } from "@hierdoc/core";
import { HierdocError, assertOpenDimensions, assertSameDimensions, assertSameEmbedder, assertVector, batchesOf, storeErrorBuilder } from "@hierdoc/core";
import { MongoClient, type AnyBulkWriteOperation, type Collection, type Document } from "mongodb";
import { ADAPTER, withRetry, type RetryPolicy } from "./errors.js";
import { hybridPipeline, searchIndexDefinitions, textSearchPipeline, vectorSearchPipeline, type IndexNames } from "./pipelines.js";

/** Options of {@link MongoStore}. */
export interface MongoStoreOptions {
  /** Connection string of an Atlas cluster (or a local Atlas deployment, which has Atlas Search). */
  uri: string;
  /** Database name. Default `hierdoc`. */
  database?: string;
  /** Collection name. Default `chunks`; the embedder record lives in `{collection}__hierdoc_meta`. */
  collection?: string;
  /** Names of the two Atlas Search indexes. Default `{collection}_vector` / `{collection}_text`. */
  indexNames?: IndexNames;
  /** Retries of idempotent calls after a server-selection / network failure. Default 3. */
  retries?: number;
  /** Delay before the first retry in ms; doubles each retry. Default 100. */
  retryDelayMs?: number;
  /** Server selection timeout in ms (how long an unreachable cluster takes to fail). Default 30 000. */
  timeoutMs?: number;
  /** Documents per bulk write. Default 500. */
  maxBatchSize?: number;
  /** Weights of the `$rankFusion` pipelines. Default 1 / 1. */
  hybridWeights?: { vector: number; text: number };
  /** Candidates each hybrid pipeline contributes: `max(topK × 4, 20)` by default. */
  hybridCandidates?: (topK: number) => number;
  /** How long `open()` waits for new search indexes to become queryable. Default 120 000 ms. */
  indexReadyTimeoutMs?: number;
}

interface ChunkDoc {
  _id: string;
  sourcePath: string;
  text: string;
  record: Omit<ChunkRecord, "indexedText">;
  vector?: number[];
}

/**
 * A {@link VectorStoreAdapter} over a MongoDB Atlas collection, on the official `mongodb` driver: Atlas
 * Vector Search (`$vectorSearch`, cosine) for dense search, Atlas Search (`$search`, BM25 on `text`) for
 * full text, and native hybrid as **one aggregation** with `$rankFusion` (reciprocal rank fusion of both
 * pipelines, MongoDB 8.0+ / Atlas). Documents: `_id` = chunk id, `sourcePath`, `text` (the `indexedText`),
 * `record` (the rest of the `ChunkRecord` as a sub-document), `vector`.
 *
 * Use it when the chunks should live in MongoDB Atlas next to application data.
 */
export class MongoStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen). */
  readonly capabilities: StoreCapabilities;
  private readonly client: MongoClient;
  private readonly where: string;
  private readonly dbName: string;
  private readonly collectionName: string;
  private readonly names: IndexNames;
  private readonly retry: RetryPolicy;
  private readonly options: MongoStoreOptions;
  private collection: Collection<ChunkDoc> | undefined;
  private dimensions = 0;

  /**
   * Creates a closed store; call {@link open} before anything else. Does not connect.
   * @throws HierdocError E_CONFIG for a malformed connection string or a bad batch size.
   */
  constructor(options: MongoStoreOptions) {
    this.options = options;
    this.dbName = options?.database ?? "hierdoc";
    this.collectionName = options?.collection ?? "chunks";
    this.names = options?.indexNames ?? { vector: `${this.collectionName}_vector`, text: `${this.collectionName}_text` };
    const maxBatchSize = options?.maxBatchSize ?? 500;
    if (!Number.isInteger(maxBatchSize) || maxBatchSize <= 0) throw this.error("E_CONFIG", "configure", `mongodb maxBatchSize must be a positive integer, got ${maxBatchSize}`);
    try {
      this.client = new MongoClient(options.uri, { serverSelectionTimeoutMS: options.timeoutMs ?? 30_000 });
    } catch (err) {
      throw new HierdocError("E_CONFIG", `mongodb connection string is not valid: ${(err as Error).message}`, { cause: err, details: { adapter: ADAPTER, operation: "configure" } });
    }
    // Where errors point: host list of the connection string, without credentials.
    this.where = options.uri.replace(/^[a-z+]+:\/\/(?:[^@/]*@)?/i, "").split("/")[0];
    this.capabilities = Object.freeze({
      vectorSearch: true,
      nativeHybrid: true,
      fullText: true,
      metadataFilter: true,
      deleteByFilter: true,
      persistent: true,
      maxBatchSize,
    });
    this.retry = { retries: options.retries ?? 3, baseDelayMs: options.retryDelayMs ?? 100 };
  }

  /**
   * Connects, checks or writes the embedder record, and creates the two Atlas Search indexes when missing,
   * waiting until they are queryable.
   * @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH; E_STORE_UNAVAILABLE when the cluster
   *   cannot be reached; E_STORE when the deployment has no Atlas Search or an index is not ready in time.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    await this.call("open", () => this.client.connect());
    const db = this.client.db(this.dbName);
    const meta = db.collection<{ _id: string; embedderId: string; dimensions: number }>(`${this.collectionName}__hierdoc_meta`);
    const found = await this.call("open", () => meta.findOne({ _id: "meta" }));
    if (found === null) {
      await this.call("open", () => meta.updateOne({ _id: "meta" }, { $setOnInsert: { embedderId: options.embedderId, dimensions: options.dimensions } }, { upsert: true }));
    } else {
      assertSameEmbedder(`mongodb collection "${this.collectionName}"`, found.embedderId, options, this.error);
      assertSameDimensions(`mongodb collection "${this.collectionName}"`, found.dimensions, options, this.error);
    }
    const collection = db.collection<ChunkDoc>(this.collectionName);
    await this.ensureSearchIndexes(collection, options.dimensions);
    this.collection = collection;
    this.dimensions = options.dimensions;
  }

  /**
   * Adds or replaces documents by `_id` with one unordered `bulkWrite` of `replaceOne … upsert` per batch.
   * @throws HierdocError E_DIMENSION_MISMATCH / E_INVALID_ARGUMENT; E_STORE_UNAVAILABLE / E_STORE.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    const collection = this.ready("upsert");
    const ops: AnyBulkWriteOperation<ChunkDoc>[] = records.map(({ record, vector }) => {
      if (typeof record?.id !== "string" || record.id.length === 0) throw this.error("E_INVALID_ARGUMENT", "upsert", "every record needs a non-empty string id");
      this.checkVector(vector, "upsert", record.id);
      const { indexedText, ...rest } = record;
      const doc: ChunkDoc = { _id: record.id, sourcePath: record.sourcePath, text: indexedText, record: rest, vector: Array.from(vector) };
      return { replaceOne: { filter: { _id: record.id }, replacement: doc, upsert: true } };
    });
    for (const batch of batchesOf(ops, this.capabilities.maxBatchSize)) {
      await this.call("upsert", () => collection.bulkWrite(batch, { ordered: true }));
    }
  }

  /** Records for the given ids (`find({ _id: { $in } })` without vectors), in the order asked. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    const collection = this.ready("get");
    if (ids.length === 0) return [];
    const docs = await this.call("get", () => collection.find({ _id: { $in: ids } }, { projection: { vector: 0 } }).toArray());
    const found = new Map(docs.map((d) => [d._id, decode(d)]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /** Removes documents by `_id`; unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    const collection = this.ready("deleteByIds");
    if (ids.length > 0) await this.call("deleteByIds", () => collection.deleteMany({ _id: { $in: ids } }));
  }

  /** Removes every document of `sourcePath` with one `deleteMany`. */
  async deleteBySource(sourcePath: string): Promise<void> {
    const collection = this.ready("deleteBySource");
    await this.call("deleteBySource", () => collection.deleteMany({ sourcePath }));
  }

  /** Every record (without vectors), by `_id` order, from one cursor. */
  async *scan(): AsyncIterable<ChunkRecord> {
    const collection = this.ready("scan");
    const cursor = collection.find({}, { projection: { vector: 0 } }).sort({ _id: 1 });
    try {
      for (;;) {
        const doc = await this.call("scan", () => cursor.next());
        if (doc === null) return;
        yield decode(doc);
      }
    } finally {
      await cursor.close().catch(() => undefined);
    }
  }

  /** Number of documents (`countDocuments`). */
  async count(): Promise<number> {
    const collection = this.ready("count");
    return this.call("count", () => collection.countDocuments({}));
  }

  /**
   * `$vectorSearch` top-k (cosine), best first; score = cosine, recovered from Atlas's `(1 + cos) / 2`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    this.checkVector(query.vector, "vectorSearch");
    const paths = query.filter?.sourcePaths;
    const k = Math.max(0, Math.floor(query.topK));
    if (k === 0 || paths?.length === 0) return [];
    const rows = await this.aggregate("vectorSearch", vectorSearchPipeline(this.names.vector, Array.from(query.vector), k, paths));
    return rows.map((r) => ({ id: r._id, score: 2 * r.score - 1 }));
  }

  /** `$search` `text` on `text` (Atlas Search BM25), best first. */
  async fullTextSearch(query: StoreQuery & { text: string }): Promise<ScoredId[]> {
    this.ready("fullTextSearch");
    const paths = query.filter?.sourcePaths;
    const k = Math.max(0, Math.floor(query.topK));
    if (k === 0 || paths?.length === 0 || query.text.trim() === "") return [];
    const rows = await this.aggregate("fullTextSearch", textSearchPipeline(this.names.text, query.text, k, paths));
    return rows.map((r) => ({ id: r._id, score: r.score }));
  }

  /**
   * Native hybrid in one aggregation: `$rankFusion` over the `$vectorSearch` and `$search` pipelines (each
   * `hybridCandidates(topK)` long, each filtered), weighted; scores are the fused RRF scores.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length; E_STORE on servers
   *   without `$rankFusion` (before MongoDB 8.0).
   */
  async hybridSearch(query: StoreQuery & { text: string; vector: Float32Array }): Promise<ScoredId[]> {
    this.checkVector(query.vector, "hybridSearch");
    const paths = query.filter?.sourcePaths;
    const k = Math.max(0, Math.floor(query.topK));
    if (k === 0 || paths?.length === 0) return [];
    const candidates = Math.max(k, (this.options.hybridCandidates ?? ((n: number) => Math.max(n * 4, 20)))(k));
    const pipeline = hybridPipeline(this.names, query.text, Array.from(query.vector), k, { candidates, weights: this.options.hybridWeights, sourcePaths: paths });
    const rows = await this.aggregate("hybridSearch", pipeline);
    return rows.map((r) => ({ id: r._id, score: r.score }));
  }

  /** No-op: each write is acknowledged by the cluster (Atlas Search indexes catch up within seconds). */
  async flush(): Promise<void> {
    this.ready("flush");
  }

  /** Closes the client's connections; the cluster keeps the data. */
  async close(): Promise<void> {
    this.collection = undefined;
    this.dimensions = 0;
    await this.client.close().catch(() => undefined);
  }

  private async aggregate(operation: string, pipeline: Document[]): Promise<Array<{ _id: string; score: number }>> {
    const collection = this.ready(operation);
    return this.call(operation, () => collection.aggregate<{ _id: string; score: number }>(pipeline).toArray());
  }

  private async ensureSearchIndexes(collection: Collection<ChunkDoc>, dimensions: number): Promise<void> {
    await this.call("open", () => this.client.db(this.dbName).createCollection(this.collectionName).catch((err: { code?: number }) => {
      if (err?.code !== 48) throw err; // NamespaceExists
    }));
    type SearchIndexInfo = { name: string; queryable?: boolean; latestDefinition?: unknown };
    const existing = (await this.call("open", () => collection.listSearchIndexes().toArray())) as SearchIndexInfo[];
    const vector = existing.find((i) => i.name === this.names.vector);
    const dims = (vector?.latestDefinition as { fields?: Array<{ type?: string; numDimensions?: number }> } | undefined)?.fields?.find((f) => f.type === "vector")?.numDimensions;
    if (vector !== undefined && dims !== undefined && dims !== dimensions) {
      throw this.error("E_DIMENSION_MISMATCH", "open", `mongodb vector index "${this.names.vector}" holds ${dims}-dimensional vectors, not ${dimensions}`);
    }
    const missing = searchIndexDefinitions(this.names, dimensions).filter((d) => !existing.some((i) => i.name === d.name));
    if (missing.length > 0) await this.call("open", () => collection.createSearchIndexes(missing));
    const deadline = Date.now() + (this.options.indexReadyTimeoutMs ?? 120_000);
    for (;;) {
      const all = (await this.call("open", () => collection.listSearchIndexes().toArray())) as SearchIndexInfo[];
      const ready = [this.names.vector, this.names.text].every((n) => all.some((i) => i.name === n && i.queryable === true));
      if (ready) return;
      if (Date.now() > deadline) throw this.error("E_STORE", "open", `mongodb search indexes ${this.names.vector} / ${this.names.text} are not queryable after ${this.options.indexReadyTimeoutMs ?? 120_000} ms`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  private call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return withRetry(operation, this.where, this.retry, fn);
  }

  private ready(operation: string): Collection<ChunkDoc> {
    if (this.collection === undefined) throw this.error("E_STORE", operation, "mongodb store is not open; call open() first");
    return this.collection;
  }

  private checkVector(vector: Float32Array, operation: string, recordId?: string): void {
    this.ready(operation);
    assertVector(vector, this.dimensions, { adapter: ADAPTER, operation, recordId, details: { collection: this.collectionName } });
  }

  private readonly error = storeErrorBuilder(ADAPTER, () => ({ collection: this.collectionName }));
}

function decode(doc: ChunkDoc): ChunkRecord {
  if (doc.record === undefined || typeof doc.record.id !== "string") {
    throw new HierdocError("E_INDEX_CORRUPT", `mongodb document "${doc._id}" holds no hierdoc record; not written by hierdoc`, { details: { adapter: ADAPTER, operation: "decode", id: doc._id } });
  }
  return { ...doc.record, indexedText: doc.text ?? "" } as ChunkRecord;
}
