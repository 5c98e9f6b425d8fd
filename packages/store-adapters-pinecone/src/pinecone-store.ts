import type { ChunkRecord, ScoredId, StoreCapabilities, StoreOpenOptions, StoreQuery, StoreRecord, VectorStoreAdapter } from "@hierdoc/core";
import { HierdocError, assertOpenDimensions, assertSameDimensions, assertSameEmbedder, batchesOf, fetchInOrder, keepLastById, storeErrorBuilder, vectorChecker } from "@hierdoc/core";
import { Pinecone, type Index, type RecordMetadata } from "@pinecone-database/pinecone";
import { ADAPTER, timedFetch, withRetry, type RetryPolicy } from "./errors.js";

/** Options of {@link PineconeStore}. */
export interface PineconeStoreOptions {
  /** Pinecone API key (sent as `Api-Key`). Never logged. */
  apiKey: string;
  /** The index host from the console or `describeIndex` (`https://NAME-PROJECT.svc.REGION.pinecone.io`). */
  host: string;
  /** Namespace of the records. Default `hierdoc`. The embedder record lives in `{namespace}__hierdoc_meta`. */
  namespace?: string;
  /** Retries of idempotent calls after a connection / 429 / 5xx failure. Default 3. */
  retries?: number;
  /** Delay before the first retry in ms; doubles each retry. Default 100. */
  retryDelayMs?: number;
  /** Time limit of one request in ms (aborted; E_TIMEOUT). Default 60 000. */
  timeoutMs?: number;
  /** Records per upsert request (Pinecone allows 1000 records / 2 MB). Default 100. */
  maxBatchSize?: number;
  /** Ids per fetch request (ids travel in the query string). Default 50. */
  fetchBatchSize?: number;
  /** Page size of {@link PineconeStore.scan} (list + fetch). Default 100 (list's maximum). */
  scanPageSize?: number;
}

/** Id of the record holding the embedder id and vector size, in the meta namespace. */
export const META_ID = "hierdoc-meta";
/** Metadata keys of the meta record. */
export const EMBEDDER_KEY = "hierdoc_embedder_id";
export const DIMENSIONS_KEY = "hierdoc_dimensions";
/** Pinecone's limit of metadata per record. */
export const MAX_METADATA_BYTES = 40 * 1024;

type Meta = RecordMetadata & { sourcePath?: string; record?: string };

/**
 * A {@link VectorStoreAdapter} over a Pinecone index (dense, `metric: cosine`), on the official
 * `@pinecone-database/pinecone` SDK, addressed by index host (data plane only: the index is created in the
 * console or with `pc.createIndex`, not by this adapter).
 *
 * Records go in one namespace: id = chunk id, values = the vector, metadata = `sourcePath` (for filters and
 * deletes) and `record` (the whole `ChunkRecord` as JSON; Pinecone metadata values are flat). Pinecone has no
 * full text in a dense index, so `fullText` and `nativeHybrid` are false: the router pairs it with a
 * separate keyword index and fuses in the application.
 */
export class PineconeStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen). */
  readonly capabilities: StoreCapabilities;
  private readonly host: string;
  private readonly namespace: string;
  private readonly retry: RetryPolicy;
  private readonly fetchBatchSize: number;
  private readonly scanPageSize: number;
  private readonly index: Index<Meta>;
  private readonly meta: Index<Meta>;
  private dimensions = 0;

  /**
   * Creates a closed store; call {@link open} before anything else. Does not contact Pinecone.
   * @throws HierdocError E_CONFIG for a missing key or host, or a bad batch size.
   */
  constructor(options: PineconeStoreOptions) {
    this.host = options?.host ?? "";
    this.namespace = options?.namespace ?? "hierdoc";
    const maxBatchSize = options?.maxBatchSize ?? 100;
    if (!options?.apiKey) throw this.error("E_CONFIG", "configure", "pinecone apiKey is required");
    if (!this.host) throw this.error("E_CONFIG", "configure", "pinecone index host is required (see describeIndex or the console)");
    if (!Number.isInteger(maxBatchSize) || maxBatchSize <= 0 || maxBatchSize > 1000) throw this.error("E_CONFIG", "configure", `pinecone maxBatchSize must be an integer in 1..1000, got ${maxBatchSize}`);
    this.capabilities = Object.freeze({
      vectorSearch: true,
      nativeHybrid: false,
      fullText: false,
      metadataFilter: true,
      deleteByFilter: true,
      persistent: true,
      maxBatchSize,
    });
    this.retry = { retries: options.retries ?? 3, baseDelayMs: options.retryDelayMs ?? 100, timeoutMs: options.timeoutMs ?? 60_000 };
    this.fetchBatchSize = options.fetchBatchSize ?? 50;
    this.scanPageSize = options.scanPageSize ?? 100;
    // The SDK's own 5xx retries are off: this adapter retries (with 429 and connection errors too) itself.
    const pc = new Pinecone({ apiKey: options.apiKey, maxRetries: 0, fetchApi: timedFetch(this.retry.timeoutMs) as never });
    this.index = pc.index<Meta>({ host: this.host, namespace: this.namespace });
    this.meta = pc.index<Meta>({ host: this.host, namespace: `${this.namespace}__hierdoc_meta` });
  }

  /**
   * Reads the index's vector size (`describe_index_stats`) and the meta record; writes the meta record on
   * first use.
   * @throws HierdocError E_DIMENSION_MISMATCH (index size or meta record) / E_EMBEDDER_MISMATCH;
   *   E_STORE_UNAVAILABLE when the host cannot be reached (after retries); E_STORE otherwise.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    const stats = await this.call("open", () => this.index.describeIndexStats());
    if (stats.dimension !== undefined) assertSameDimensions(`pinecone index at ${this.host}`, stats.dimension, options, this.error);
    const fetched = await this.call("open", () => this.meta.fetch({ ids: [META_ID] }));
    const meta = fetched.records?.[META_ID]?.metadata;
    if (meta === undefined) {
      const values = new Array<number>(options.dimensions).fill(0);
      values[0] = 1; // Pinecone rejects all-zero dense vectors.
      await this.call("open", () =>
        this.meta.upsert({ records: [{ id: META_ID, values, metadata: { [EMBEDDER_KEY]: options.embedderId, [DIMENSIONS_KEY]: options.dimensions } }] }),
      );
    } else {
      assertSameEmbedder(`pinecone namespace "${this.namespace}"`, meta[EMBEDDER_KEY], options, this.error);
      assertSameDimensions(`pinecone namespace "${this.namespace}"`, meta[DIMENSIONS_KEY], options, this.error);
    }
    this.dimensions = options.dimensions;
  }

  /**
   * Adds or replaces records by id (`POST /vectors/upsert`), `maxBatchSize` at a time. The whole input is
   * validated first (vector size, finite values, metadata ≤ 40 KB); a failure mid-way leaves earlier
   * batches committed (re-running completes it).
   * @throws HierdocError E_DIMENSION_MISMATCH / E_INVALID_ARGUMENT; E_STORE_UNAVAILABLE / E_STORE.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    this.ready("upsert");
    const encoded = records.map(({ record, vector }) => {
      if (typeof record?.id !== "string" || record.id.length === 0 || Buffer.byteLength(record.id) > 512) {
        throw this.error("E_INVALID_ARGUMENT", "upsert", "every record needs a non-empty string id of at most 512 bytes");
      }
      this.checkVector(vector, "upsert", record.id);
      const metadata: Meta = { sourcePath: record.sourcePath, record: JSON.stringify(record) };
      const bytes = Buffer.byteLength(JSON.stringify(metadata));
      if (bytes > MAX_METADATA_BYTES) throw this.error("E_INVALID_ARGUMENT", "upsert", `record "${record.id}" needs ${bytes} bytes of metadata; Pinecone allows ${MAX_METADATA_BYTES}`);
      return { id: record.id, values: Array.from(vector), metadata };
    });
    const unique = keepLastById(encoded, (r) => r.id);
    for (const batch of batchesOf(unique, this.capabilities.maxBatchSize)) {
      await this.call("upsert", () => this.index.upsert({ records: batch }));
    }
  }

  /** Records for the given ids (`GET /vectors/fetch`), in the order asked; missing ids are skipped. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    this.ready("get");
    return fetchInOrder(ids, this.fetchBatchSize, async (batch) => {
      const res = await this.call("get", () => this.index.fetch({ ids: batch }));
      return Object.entries(res.records ?? {}).map(([id, r]) => this.decode(id, r.metadata));
    });
  }

  /** Removes records by id (`POST /vectors/delete` with `ids`); unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    this.ready("deleteByIds");
    for (const batch of batchesOf(ids, this.capabilities.maxBatchSize)) {
      await this.call("deleteByIds", () => this.index.deleteMany({ ids: batch }));
    }
  }

  /** Removes every record of `sourcePath` with one delete by metadata filter (`{ sourcePath: { $eq } }`). */
  async deleteBySource(sourcePath: string): Promise<void> {
    this.ready("deleteBySource");
    await this.call("deleteBySource", () => this.index.deleteMany({ filter: { sourcePath: { $eq: sourcePath } } }));
  }

  /** Every record (without vectors): ids paged with `GET /vectors/list`, then fetched. Serverless indexes only. */
  async *scan(): AsyncIterable<ChunkRecord> {
    this.ready("scan");
    let token: string | undefined;
    for (;;) {
      const page = await this.call("scan", () => this.index.listPaginated({ limit: this.scanPageSize, paginationToken: token }));
      const ids = (page.vectors ?? []).flatMap((v) => (v.id === undefined ? [] : [v.id]));
      for (const r of await this.get(ids)) yield r;
      token = page.pagination?.next;
      if (token === undefined || ids.length === 0) return;
    }
  }

  /** Number of records in the namespace (`describe_index_stats`; Pinecone updates it with a short delay). */
  async count(): Promise<number> {
    this.ready("count");
    const stats = await this.call("count", () => this.index.describeIndexStats());
    return stats.namespaces?.[this.namespace]?.recordCount ?? 0;
  }

  /**
   * The `topK` records nearest to `query.vector` (`POST /query`, cosine metric), best first, with
   * Pinecone's cosine score; `filter.sourcePaths` becomes `{ sourcePath: { $in } }`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.min(10_000, Math.max(0, Math.floor(query.topK)));
    const paths = query.filter?.sourcePaths;
    if (k === 0 || (paths !== undefined && paths.length === 0)) return [];
    const res = await this.call("vectorSearch", () =>
      this.index.query({
        vector: Array.from(query.vector),
        topK: k,
        includeMetadata: false,
        includeValues: false,
        ...(paths === undefined ? {} : { filter: { sourcePath: { $in: paths } } }),
      }),
    );
    return (res.matches ?? []).map((m) => ({ id: m.id, score: m.score ?? 0 }));
  }

  /** No-op: an upsert answer means the write is durable (Pinecone makes it searchable shortly after). */
  async flush(): Promise<void> {
    this.ready("flush");
  }

  /** Forgets the open state; Pinecone keeps the data. */
  async close(): Promise<void> {
    this.dimensions = 0;
  }

  private decode(id: string, metadata: Meta | undefined): ChunkRecord {
    try {
      const record = JSON.parse(String(metadata?.record)) as ChunkRecord;
      if (typeof record.id !== "string") throw new Error("no id");
      return record;
    } catch (err) {
      throw new HierdocError("E_INDEX_CORRUPT", `pinecone record "${id}" holds no hierdoc record metadata; not written by hierdoc`, {
        cause: err,
        details: { adapter: ADAPTER, operation: "decode", id },
      });
    }
  }

  private call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return withRetry(operation, this.host, this.retry, fn);
  }

  private ready(operation: string): void {
    if (this.dimensions === 0) throw this.error("E_STORE", operation, "pinecone store is not open; call open() first");
  }

  private readonly checkVector = vectorChecker(ADAPTER, () => this.dimensions, () => ({ host: this.host, namespace: this.namespace }));

  private readonly error = storeErrorBuilder(ADAPTER, () => ({ host: this.host, namespace: this.namespace }));
}
