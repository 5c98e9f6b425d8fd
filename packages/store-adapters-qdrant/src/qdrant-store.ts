import type {
  ChunkRecord,
  ScoredId,
  StoreCapabilities,
  StoreFilter,
  StoreOpenOptions,
  StoreQuery,
  StoreRecord,
  VectorStoreAdapter,
} from "@hierdoc/core";
import { HierdocError, assertOpenDimensions, assertSameDimensions, assertSameEmbedder, batchesOf, fetchInOrder, uniqueUpsertRecords, storeErrorBuilder, vectorChecker } from "@hierdoc/core";
import { QdrantClient } from "@qdrant/js-client-rest";
import { ADAPTER, isNotFound, withRetry, type RetryPolicy } from "./errors.js";
import { pointId } from "./point-id.js";
import { documentSparseVector, querySparseVector, type Bm25Options, type SparseVector } from "./sparse-terms.js";

/** Options of {@link QdrantStore}. */
export interface QdrantStoreOptions {
  /** Server URL (REST port). Default `http://127.0.0.1:6333`. A URL without a port uses 6333 (client rule). */
  url?: string;
  /** API key sent as the `api-key` header (Qdrant Cloud). Never logged. */
  apiKey?: string;
  /** Collection name. Default `hierdoc`. */
  collection?: string;
  /** Retries of idempotent calls after a connection / 429 / 5xx failure. Default 3. */
  retries?: number;
  /** Delay before the first retry in ms; doubles each retry. Default 100. */
  retryDelayMs?: number;
  /** Time limit of one request in ms (the client aborts it; E_TIMEOUT). Default 60 000. */
  timeoutMs?: number;
  /** Points per upsert request (Qdrant's default request limit is 32 MB of JSON). Default 256. */
  maxBatchSize?: number;
  /** Page size of {@link QdrantStore.scan}. Default 256. */
  scanPageSize?: number;
  /** Candidates each hybrid prefetch (dense, sparse) returns before RRF: `max(topK × 4, 20)` by default. */
  prefetchLimit?: (topK: number) => number;
  /** BM25 parameters of the client-side term weights. */
  bm25?: Bm25Options;
}

/** Name of the dense vector in the collection. */
export const DENSE_VECTOR = "dense";
/** Name of the sparse (BM25 term weight) vector in the collection. */
export const SPARSE_VECTOR = "text";
/** Collection metadata keys recording what the index was built for. */
export const EMBEDDER_KEY = "hierdoc_embedder_id";
export const DIMENSIONS_KEY = "hierdoc_dimensions";

type QdrantFilter = { must: Array<{ key: string; match: { any: string[] } | { value: string } }> };

interface CollectionInfoLike {
  config?: {
    params?: { vectors?: Record<string, { size?: number; distance?: string } | undefined>; sparse_vectors?: Record<string, unknown> | null };
    metadata?: Record<string, unknown> | null;
  };
}

/**
 * A {@link VectorStoreAdapter} over a Qdrant server, on the official `@qdrant/js-client-rest` client.
 *
 * One collection per index with a named dense vector (`dense`, cosine, HNSW) and a named sparse vector
 * (`text`) holding BM25 term weights computed here from each record's `indexedText`, with Qdrant's
 * server-side `modifier: "idf"`. Full text is a sparse query; native hybrid is one Query API call with a
 * dense and a sparse `prefetch` fused by `{ fusion: "rrf" }`. Point ids are UUIDs derived from chunk ids
 * (Qdrant accepts only integers and UUIDs); the whole `ChunkRecord` is the point's payload, with a keyword
 * payload index on `sourcePath`. The embedder id and vector size live in the collection's `metadata`
 * (Qdrant ≥ 1.16).
 *
 * Use it when the vectors live in a Qdrant server or Qdrant Cloud.
 */
export class QdrantStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen). */
  readonly capabilities: StoreCapabilities;
  private readonly url: string;
  private readonly collection: string;
  private readonly client: QdrantClient;
  private readonly retry: RetryPolicy;
  private readonly scanPageSize: number;
  private readonly prefetchLimit: (topK: number) => number;
  private readonly bm25: Bm25Options;
  private dimensions = 0;
  private opened = false;

  /**
   * Creates a closed store; call {@link open} before anything else. Does not contact the server.
   * @throws HierdocError E_CONFIG for a malformed URL or batch size.
   */
  constructor(options: QdrantStoreOptions = {}) {
    this.url = options.url ?? "http://127.0.0.1:6333";
    this.collection = options.collection ?? "hierdoc";
    const maxBatchSize = options.maxBatchSize ?? 256;
    if (!Number.isInteger(maxBatchSize) || maxBatchSize <= 0) {
      throw new HierdocError("E_CONFIG", `qdrant maxBatchSize must be a positive integer, got ${maxBatchSize}`, { details: { adapter: ADAPTER, operation: "configure" } });
    }
    this.capabilities = Object.freeze({
      vectorSearch: true,
      nativeHybrid: true,
      fullText: true,
      metadataFilter: true,
      deleteByFilter: true,
      persistent: true,
      maxBatchSize,
    });
    try {
      this.client = new QdrantClient({ url: this.url, apiKey: options.apiKey, timeout: options.timeoutMs ?? 60_000, checkCompatibility: false });
    } catch (err) {
      throw new HierdocError("E_CONFIG", `qdrant url "${this.url}" is not usable: ${(err as Error).message}`, { cause: err, details: { adapter: ADAPTER, operation: "configure" } });
    }
    this.retry = { retries: options.retries ?? 3, baseDelayMs: options.retryDelayMs ?? 100 };
    this.scanPageSize = options.scanPageSize ?? 256;
    this.prefetchLimit = options.prefetchLimit ?? ((k) => Math.max(k * 4, 20));
    this.bm25 = options.bm25 ?? {};
  }

  /**
   * Gets or creates the collection and checks it was built for this embedder and vector size.
   * @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH; E_STORE_UNAVAILABLE when the server
   *   cannot be reached (after retries); E_STORE for a collection that is not hierdoc's or not cosine.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    const info = (await this.getOrCreate(options)) as CollectionInfoLike;
    const dense = info.config?.params?.vectors?.[DENSE_VECTOR];
    const sparse = info.config?.params?.sparse_vectors?.[SPARSE_VECTOR];
    const meta = info.config?.metadata ?? {};
    if (dense === undefined || sparse === undefined || meta[EMBEDDER_KEY] === undefined) {
      throw this.error("E_STORE", "open", `qdrant collection "${this.collection}" was not created by hierdoc (needs a "${DENSE_VECTOR}" dense vector, a "${SPARSE_VECTOR}" sparse vector and ${EMBEDDER_KEY} metadata)`);
    }
    assertSameEmbedder(`qdrant collection "${this.collection}"`, meta[EMBEDDER_KEY], options, this.error);
    assertSameDimensions(`qdrant collection "${this.collection}"`, dense.size, options, this.error);
    if (dense.distance !== "Cosine") {
      throw this.error("E_STORE", "open", `qdrant collection "${this.collection}" uses ${String(dense.distance)} distance; hierdoc needs Cosine`);
    }
    this.dimensions = options.dimensions;
    this.opened = true;
  }

  /**
   * Adds or replaces records by id (`PUT /collections/{c}/points?wait=true`), in batches of `maxBatchSize`.
   * The whole input is validated first; a failure mid-way leaves earlier batches committed (re-running
   * completes it).
   * @throws HierdocError E_DIMENSION_MISMATCH / E_INVALID_ARGUMENT for bad vectors or ids;
   *   E_STORE_UNAVAILABLE / E_STORE from the server.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    this.ready("upsert");
    const unique = uniqueUpsertRecords(records, { checkVector: this.checkVector, error: this.error });
    for (const batch of batchesOf(unique, this.capabilities.maxBatchSize)) {
      const points = batch.map(({ record, vector }) => {
        const sparse = documentSparseVector(record.indexedText, this.bm25);
        const vectors: Record<string, number[] | SparseVector> = { [DENSE_VECTOR]: Array.from(vector) };
        if (sparse.indices.length > 0) vectors[SPARSE_VECTOR] = sparse;
        return { id: pointId(record.id), vector: vectors, payload: record as unknown as Record<string, unknown> };
      });
      await this.call("upsert", () => this.client.upsert(this.collection, { wait: true, points }));
    }
  }

  /** Records for the given ids, in the order asked; missing ids are skipped. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    this.ready("get");
    return fetchInOrder(ids, this.capabilities.maxBatchSize, async (batch) => {
      const points = await this.call("get", () => this.client.retrieve(this.collection, { ids: batch.map(pointId), with_payload: true, with_vector: false }));
      return points.map((p) => this.decode(p.id, p.payload));
    });
  }

  /** Removes records by id; unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    this.ready("deleteByIds");
    for (const batch of batchesOf(ids, this.capabilities.maxBatchSize)) {
      const points = batch.map(pointId);
      await this.call("deleteByIds", () => this.client.delete(this.collection, { wait: true, points }));
    }
  }

  /** Removes every record of `sourcePath` with one filtered delete. */
  async deleteBySource(sourcePath: string): Promise<void> {
    this.ready("deleteBySource");
    const filter: QdrantFilter = { must: [{ key: "sourcePath", match: { value: sourcePath } }] };
    await this.call("deleteBySource", () => this.client.delete(this.collection, { wait: true, filter }));
  }

  /** Every record (without vectors), paged with `scroll` and `next_page_offset`. */
  async *scan(): AsyncIterable<ChunkRecord> {
    this.ready("scan");
    let offset: string | number | undefined;
    for (;;) {
      const page = await this.call("scan", () =>
        this.client.scroll(this.collection, { limit: this.scanPageSize, offset, with_payload: true, with_vector: false }),
      );
      for (const p of page.points) yield this.decode(p.id, p.payload);
      const next = page.next_page_offset;
      if (next === null || next === undefined || page.points.length === 0) return;
      offset = next as string | number;
    }
  }

  /** Exact number of points in the collection. */
  async count(): Promise<number> {
    this.ready("count");
    const res = await this.call("count", () => this.client.count(this.collection, { exact: true }));
    return res.count;
  }

  /**
   * The `topK` records nearest to `query.vector` by cosine (Query API, `using: "dense"`), best first, with
   * Qdrant's cosine similarity as score; `filter.sourcePaths` becomes `match: { any }` on `sourcePath`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const filter = toFilter(query.filter);
    if (k === 0 || filter === null) return [];
    return this.query("vectorSearch", { query: Array.from(query.vector), using: DENSE_VECTOR, limit: k, filter });
  }

  /**
   * BM25 full text: the query's hashed terms against the sparse vectors (IDF applied by the server), best
   * first. A query without any word returns nothing.
   */
  async fullTextSearch(query: StoreQuery & { text: string }): Promise<ScoredId[]> {
    this.ready("fullTextSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const filter = toFilter(query.filter);
    const sparse = querySparseVector(query.text);
    if (k === 0 || filter === null || sparse.indices.length === 0) return [];
    return this.query("fullTextSearch", { query: sparse, using: SPARSE_VECTOR, limit: k, filter });
  }

  /**
   * Native hybrid in one Query API call: a sparse (BM25) and a dense prefetch, each limited to
   * `prefetchLimit(topK)` and filtered, fused by Qdrant with `{ fusion: "rrf" }`. Scores are RRF scores.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async hybridSearch(query: StoreQuery & { text: string; vector: Float32Array }): Promise<ScoredId[]> {
    this.ready("hybridSearch");
    this.checkVector(query.vector, "hybridSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const filter = toFilter(query.filter);
    if (k === 0 || filter === null) return [];
    const sparse = querySparseVector(query.text);
    const limit = Math.max(k, this.prefetchLimit(k));
    const prefetch: Array<Record<string, unknown>> = [{ query: Array.from(query.vector), using: DENSE_VECTOR, limit, filter }];
    if (sparse.indices.length > 0) prefetch.unshift({ query: sparse, using: SPARSE_VECTOR, limit, filter });
    return this.query("hybridSearch", { prefetch, query: { fusion: "rrf" }, limit: k, filter });
  }

  /** No-op: upserts and deletes are sent with `wait=true`, so they are applied before the call returns. */
  async flush(): Promise<void> {
    this.ready("flush");
  }

  /** Forgets the open state; the server keeps the data. */
  async close(): Promise<void> {
    this.opened = false;
  }

  private async query(operation: string, body: Record<string, unknown>): Promise<ScoredId[]> {
    const request = { ...body, with_payload: ["id"], with_vector: false } as Parameters<QdrantClient["query"]>[1];
    if ((request as { filter?: unknown }).filter === undefined) delete (request as { filter?: unknown }).filter;
    const res = await this.call(operation, () => this.client.query(this.collection, request));
    return res.points.map((p) => {
      const id = (p.payload as { id?: unknown } | null | undefined)?.id;
      if (typeof id !== "string") throw this.error("E_INDEX_CORRUPT", operation, `qdrant point ${String(p.id)} has no chunk id in its payload; not written by hierdoc`);
      return { id, score: p.score };
    });
  }

  private async getOrCreate(options: StoreOpenOptions): Promise<unknown> {
    try {
      return await this.call("open", () => this.client.getCollection(this.collection));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      await withRetry("open", this.url, { ...this.retry, retries: 0 }, () =>
        this.client.api().createCollection({
          collection_name: this.collection,
          vectors: { [DENSE_VECTOR]: { size: options.dimensions, distance: "Cosine" } },
          sparse_vectors: { [SPARSE_VECTOR]: { modifier: "idf" } },
          metadata: { [EMBEDDER_KEY]: options.embedderId, [DIMENSIONS_KEY]: options.dimensions },
        }),
      );
      await this.call("open", () => this.client.createPayloadIndex(this.collection, { wait: true, field_name: "sourcePath", field_schema: "keyword" }));
    } catch (err) {
      // Another process may have created it between our GET and PUT (409); read what is there.
      if (!(err instanceof HierdocError) || err.details.status !== 409) throw err;
    }
    return this.call("open", () => this.client.getCollection(this.collection));
  }

  private decode(id: string | number, payload: Record<string, unknown> | null | undefined): ChunkRecord {
    if (payload === null || payload === undefined || typeof payload.id !== "string" || typeof payload.indexedText !== "string") {
      throw this.error("E_INDEX_CORRUPT", "decode", `qdrant point ${String(id)} has no hierdoc record payload; not written by hierdoc`, { pointId: id });
    }
    return payload as unknown as ChunkRecord;
  }

  private call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return withRetry(operation, this.url, this.retry, fn);
  }

  private ready(operation: string): void {
    if (!this.opened) throw this.error("E_STORE", operation, "qdrant store is not open; call open() first");
  }

  private readonly checkVector = vectorChecker(ADAPTER, () => this.dimensions, () => ({ collection: this.collection }));

  private readonly error = storeErrorBuilder(ADAPTER, () => ({ collection: this.collection }));
}

/** `undefined` = no filter; `null` = an empty path list, which matches nothing. */
function toFilter(filter: StoreFilter | undefined): QdrantFilter | undefined | null {
  const paths = filter?.sourcePaths;
  if (paths === undefined) return undefined;
  if (paths.length === 0) return null;
  return { must: [{ key: "sourcePath", match: { any: paths } }] };
}
