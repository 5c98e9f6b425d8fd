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
import { ChromaClient, type Collection, type Where } from "chromadb";
import { ADAPTER, withRetry, type RetryPolicy } from "./errors.js";
import { decodeRecord, encodeRecord } from "./record-codec.js";

/** Options of {@link ChromaStore}. */
export interface ChromaStoreOptions {
  /** Server URL. Default `http://127.0.0.1:8000`. */
  url?: string;
  /** Collection name (3–512 chars of `[a-zA-Z0-9._-]`). Default `hierdoc`. */
  collection?: string;
  /** Chroma tenant and database; the server defaults when absent. */
  tenant?: string;
  database?: string;
  /** Extra HTTP headers (e.g. `x-chroma-token`). Never logged. */
  headers?: Record<string, string>;
  /** Retries of idempotent calls after a connection / 5xx / rate-limit failure. Default 3. */
  retries?: number;
  /** Delay before the first retry in ms; doubles each retry. Default 100. */
  retryDelayMs?: number;
  /** Time limit of one request attempt in ms (E_TIMEOUT when exceeded). Default 60 000. */
  timeoutMs?: number;
  /** Page size of {@link ChromaStore.scan}. Default 500. */
  scanPageSize?: number;
}

/** Batch size assumed before `open()` has read the server's `max_batch_size`. */
export const DEFAULT_CHROMA_MAX_BATCH = 1000;

const EMBEDDER_KEY = "hierdoc_embedder_id";
const DIMENSIONS_KEY = "hierdoc_dimensions";

function capabilitiesFor(maxBatchSize: number): StoreCapabilities {
  return Object.freeze({
    vectorSearch: true,
    nativeHybrid: false,
    // Chroma's `$contains` document filter is a substring match, not ranked full text.
    fullText: false,
    metadataFilter: true,
    deleteByFilter: true,
    persistent: true,
    maxBatchSize,
  });
}

/**
 * A {@link VectorStoreAdapter} over a Chroma server (chromadb 3.x client): one collection with cosine
 * HNSW, vectors passed explicitly (no Chroma embedding function is configured or loaded).
 *
 * Each record is stored with its `indexedText` as the Chroma document and the rest of the chunk record as
 * a JSON string in metadata, next to scalar fields (`sourcePath`, `sectionId`, `chunkType`, …) used for
 * filtering. The embedder id and vector size live in the collection's metadata.
 *
 * Use it when the vectors should live in a shared Chroma server. It has no ranked full text: the router
 * pairs it with a separate keyword index.
 */
export class ChromaStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  private caps: StoreCapabilities = capabilitiesFor(DEFAULT_CHROMA_MAX_BATCH);
  private readonly url: string;
  private readonly collectionName: string;
  private readonly client: ChromaClient;
  private readonly retry: RetryPolicy;
  private readonly scanPageSize: number;
  private collection: Collection | undefined;
  private dimensions = 0;

  /**
   * Creates a closed store; call {@link open} before anything else. Does not contact the server.
   * @throws HierdocError E_CONFIG for a malformed URL or collection name.
   */
  constructor(options: ChromaStoreOptions = {}) {
    this.url = options.url ?? "http://127.0.0.1:8000";
    this.collectionName = options.collection ?? "hierdoc";
    if (!/^[a-zA-Z0-9][a-zA-Z0-9._-]{1,510}[a-zA-Z0-9]$/.test(this.collectionName)) {
      throw new HierdocError("E_CONFIG", `chroma collection name "${this.collectionName}" must be 3-512 characters of [a-zA-Z0-9._-], starting and ending with a letter or digit`, {
        details: { adapter: ADAPTER, operation: "configure" },
      });
    }
    let parsed: URL;
    try {
      parsed = new URL(this.url);
    } catch (err) {
      throw new HierdocError("E_CONFIG", `chroma url "${this.url}" is not a valid URL`, { cause: err, details: { adapter: ADAPTER, operation: "configure" } });
    }
    const ssl = parsed.protocol === "https:";
    this.client = new ChromaClient({
      host: parsed.hostname,
      port: parsed.port ? Number(parsed.port) : ssl ? 443 : 80,
      ssl,
      tenant: options.tenant,
      database: options.database,
      headers: options.headers,
    });
    this.retry = { retries: options.retries ?? 3, baseDelayMs: options.retryDelayMs ?? 100, timeoutMs: options.timeoutMs ?? 60_000 };
    this.scanPageSize = options.scanPageSize ?? 500;
  }

  /** What this store can do (frozen). `maxBatchSize` is the server's once {@link open} has run. */
  get capabilities(): StoreCapabilities {
    return this.caps;
  }

  /**
   * Gets or creates the collection (cosine space, no embedding function) and checks it was built for this
   * embedder and vector size.
   * @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH; E_STORE_UNAVAILABLE when the server
   *   cannot be reached (after retries); E_STORE for a collection that is not hierdoc's or not cosine.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    const maxBatch = await this.call("open", () => this.client.getMaxBatchSize());
    if (maxBatch > 0) this.caps = capabilitiesFor(maxBatch);
    const collection = await this.getOrCreate(options);
    const meta = collection.metadata ?? {};
    const embedderId = meta[EMBEDDER_KEY];
    const dimensions = meta[DIMENSIONS_KEY];
    if (embedderId === undefined || dimensions === undefined) {
      const n = await this.call("open", () => collection.count());
      if (n > 0) {
        throw this.error("E_STORE", "open", `chroma collection "${this.collectionName}" holds ${n} records not written by hierdoc (no ${EMBEDDER_KEY} metadata)`);
      }
      await this.call("open", () => collection.modify({ metadata: { ...meta, [EMBEDDER_KEY]: options.embedderId, [DIMENSIONS_KEY]: options.dimensions } }));
    } else {
      assertSameEmbedder(`chroma collection "${this.collectionName}"`, embedderId, options, this.error);
      assertSameDimensions(`chroma collection "${this.collectionName}"`, dimensions, options, this.error);
    }
    const space = (collection.configuration as { hnsw?: { space?: string } | null } | undefined)?.hnsw?.space;
    if (space !== undefined && space !== "cosine") {
      throw this.error("E_STORE", "open", `chroma collection "${this.collectionName}" uses the "${space}" space; hierdoc needs cosine`);
    }
    this.collection = collection;
    this.dimensions = options.dimensions;
  }

  /**
   * Adds or replaces records by id, in batches of the server's `max_batch_size`. The whole input is
   * validated first; a failure mid-way leaves earlier batches committed (re-running completes it).
   * @throws HierdocError E_DIMENSION_MISMATCH / E_INVALID_ARGUMENT for bad vectors or ids;
   *   E_STORE_UNAVAILABLE / E_STORE from the server.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    const collection = this.ready("upsert");
    const unique = uniqueUpsertRecords(records, { checkVector: this.checkVector, error: this.error });
    for (const batch of batchesOf(unique, this.caps.maxBatchSize)) {
      const encoded = batch.map(({ record }) => encodeRecord(record));
      await this.call("upsert", () =>
        collection.upsert({
          ids: batch.map(({ record }) => record.id),
          embeddings: batch.map(({ vector }) => Array.from(vector)),
          metadatas: encoded.map((e) => e.metadata),
          documents: encoded.map((e) => e.document),
        }),
      );
    }
  }

  /** Records for the given ids, in the order asked; missing ids are skipped. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    const collection = this.ready("get");
    return fetchInOrder(ids, this.caps.maxBatchSize, async (batch) => {
      const res = await this.call("get", () => collection.get({ ids: batch, include: ["metadatas", "documents"] }));
      return res.ids.map((id, j) => decodeRecord(id, res.metadatas[j], res.documents[j]));
    });
  }

  /** Removes records by id; unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    const collection = this.ready("deleteByIds");
    for (const batch of batchesOf(ids, this.caps.maxBatchSize)) {
      await this.call("deleteByIds", () => collection.delete({ ids: batch }));
    }
  }

  /** Removes every record whose `sourcePath` equals `sourcePath` (one `where` delete on the server). */
  async deleteBySource(sourcePath: string): Promise<void> {
    const collection = this.ready("deleteBySource");
    await this.call("deleteBySource", () => collection.delete({ where: { sourcePath: { $eq: sourcePath } } }));
  }

  /**
   * Every record (without vectors), read in pages with `get({ limit, offset })`. Writes made during the
   * scan may be missed or seen twice.
   */
  async *scan(): AsyncIterable<ChunkRecord> {
    const collection = this.ready("scan");
    for (let offset = 0; ; offset += this.scanPageSize) {
      const res = await this.call("scan", () =>
        collection.get({ limit: this.scanPageSize, offset, include: ["metadatas", "documents"] }),
      );
      for (let j = 0; j < res.ids.length; j++) yield decodeRecord(res.ids[j], res.metadatas[j], res.documents[j]);
      if (res.ids.length < this.scanPageSize) return;
    }
  }

  /** Number of records in the collection. */
  async count(): Promise<number> {
    const collection = this.ready("count");
    return this.call("count", () => collection.count());
  }

  /**
   * The `topK` records nearest to `query.vector` by cosine distance, best first, with score
   * `1 − distance`; `query.filter.sourcePaths` becomes `where: { sourcePath: { $in } }`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    const collection = this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const paths = query.filter?.sourcePaths;
    if (k === 0 || (paths !== undefined && paths.length === 0)) return [];
    const where: Where | undefined = paths === undefined ? undefined : { sourcePath: { $in: paths } };
    const res = await this.call("vectorSearch", () =>
      collection.query({ queryEmbeddings: [Array.from(query.vector)], nResults: k, where, include: ["distances"] }),
    );
    const ids = res.ids[0] ?? [];
    const distances = res.distances[0] ?? [];
    return ids.map((id, j) => ({ id, score: 1 - (distances[j] ?? 1) }));
  }

  /** No-op: the server makes each write durable before answering. */
  async flush(): Promise<void> {
    this.ready("flush");
  }

  /** Forgets the collection handle; the server keeps the data. */
  async close(): Promise<void> {
    this.collection = undefined;
  }

  private async getOrCreate(options: StoreOpenOptions): Promise<Collection> {
    try {
      return await this.call("open", () => this.client.getCollection({ name: this.collectionName }));
    } catch (err) {
      if (!(err instanceof HierdocError) || (err.cause as Error | undefined)?.name !== "ChromaNotFoundError") throw err;
    }
    try {
      return await withRetry("open", this.url, { ...this.retry, retries: 0 }, () =>
        this.client.createCollection({
          name: this.collectionName,
          embeddingFunction: null,
          configuration: { hnsw: { space: "cosine" } },
          metadata: { [EMBEDDER_KEY]: options.embedderId, [DIMENSIONS_KEY]: options.dimensions },
        }),
      );
    } catch (err) {
      if (!(err instanceof HierdocError) || (err.cause as Error | undefined)?.name !== "ChromaUniqueError") throw err;
      return this.call("open", () => this.client.getCollection({ name: this.collectionName }));
    }
  }

  private call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return withRetry(operation, this.url, this.retry, fn);
  }

  private ready(operation: string): Collection {
    if (this.collection === undefined) throw this.error("E_STORE", operation, "chroma store is not open; call open() first");
    return this.collection;
  }

  private readonly checkVector = vectorChecker(ADAPTER, () => this.dimensions);

  private readonly error = storeErrorBuilder(ADAPTER);
}
