import type { ChunkRecord, ScoredId, StoreCapabilities, StoreOpenOptions, StoreQuery, StoreRecord, VectorStoreAdapter } from "@hierdoc/core";
import {
  HierdocError,
  assertOpenDimensions,
  assertSameDimensions,
  assertSameEmbedder,
  batchesOf,
  chunkUuid,
  fetchInOrder,
  uniqueUpsertRecords,
  redactUrl,
  storeErrorBuilder,
  vectorChecker,
} from "@hierdoc/core";
import { CosmosClient, type Container, type SqlQuerySpec } from "@azure/cosmos";
import { containerDefinition, declaredVector, hasFullTextIndex, type CosmosVectorIndexType } from "./container-definition.js";
import { ADAPTER, isConflict, isNotFound, withRetry, type RetryPolicy } from "./cosmos-errors.js";
import { CHUNK_KIND, META_KIND, byIdsQuery, countQuery, fullTextQuery, hybridQuery, idsQuery, keysByIdsQuery, queryTerms, scanQuery, vectorQuery } from "./cosmos-queries.js";

/** Options of {@link CosmosStore}. */
export interface CosmosStoreOptions {
  /** Account endpoint, `https://ACCOUNT.documents.azure.com:443/`. */
  endpoint: string;
  /** Account key (primary or secondary). Never logged. */
  key: string;
  /** Database id, created when missing. Default `hierdoc`. */
  database?: string;
  /** Container id, created when missing with the vector and full-text policies. Default `chunks`. */
  container?: string;
  /** Vector index of a new container. Default `quantizedFlat`. */
  vectorIndex?: CosmosVectorIndexType;
  /** Full-text language of a new container. Default `en-US`. */
  language?: string;
  /**
   * Use the container's full-text index (full text and native hybrid search). Default true; set false for an
   * account without the full-text feature: the capabilities then say so and hierdoc fuses in the app.
   */
  fullText?: boolean;
  /** Retries of idempotent calls after a connection / 5xx failure (the SDK retries 429 itself). Default 2. */
  retries?: number;
  /** Delay before the first retry in ms; doubles each retry. Default 200. */
  retryDelayMs?: number;
  /** Time limit of one request in ms (the SDK's `requestTimeout`; E_TIMEOUT). Default 10 000. */
  timeoutMs?: number;
  /** Records per upsert call handed to the service concurrently. Default 100. */
  maxBatchSize?: number;
  /** Concurrent item requests within a batch. Default 8. */
  concurrency?: number;
  /** Page size of {@link CosmosStore.scan}. Default 200. */
  scanPageSize?: number;
}

/** Id and partition key of the document that records the embedder and vector size of the container. */
export const META_ID = "hierdoc-meta";
export const META_PARTITION = "hierdoc:meta";

interface ChunkDocument {
  id: string;
  kind: typeof CHUNK_KIND;
  sourcePath: string;
  chunkId: string;
  text: string;
  vector: number[];
  record: ChunkRecord;
}

/**
 * A {@link VectorStoreAdapter} over an Azure Cosmos DB for NoSQL container, on the official `@azure/cosmos` SDK.
 *
 * One document per chunk (`id` = a UUID of the chunk id, Cosmos ids may not hold `/`), partitioned by
 * `sourcePath`, with the vector in `/vector` (float32, cosine, vector index) and the indexed text in
 * `/text` (full-text policy and index). Vector search is `ORDER BY VectorDistance`, full text is
 * `FullTextContainsAny` + `ORDER BY RANK FullTextScore`, native hybrid is one
 * `ORDER BY RANK RRF(FullTextScore(...), VectorDistance(...))` query; the SDK fetches the query plan and
 * runs the per-partition and global-statistics queries. The embedder id and vector size live in one
 * `kind: "meta"` document in its own partition.
 *
 * Use it when the chunks live in Cosmos DB for NoSQL (accounts with vector search and full-text search on).
 */
export class CosmosStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen); `fullText` and `nativeHybrid` follow the `fullText` option. */
  readonly capabilities: StoreCapabilities;
  private readonly endpoint: string;
  private readonly databaseId: string;
  private readonly containerId: string;
  private readonly vectorIndex: CosmosVectorIndexType;
  private readonly language: string;
  private readonly client: CosmosClient;
  private readonly retry: RetryPolicy;
  private readonly concurrency: number;
  private readonly scanPageSize: number;
  private readonly timeoutMs: number;
  private container: Container | undefined;
  private dimensions = 0;
  private readonly error = storeErrorBuilder(ADAPTER, () => ({ endpoint: redactUrl(this.endpoint), database: this.databaseId, container: this.containerId }));
  private readonly checkVector = vectorChecker(ADAPTER, () => this.dimensions, () => ({ container: this.containerId }));

  /**
   * Creates a closed store; call {@link open} before anything else. Does not contact the service.
   * @throws HierdocError E_CONFIG for a missing endpoint or key, or a bad batch size.
   */
  constructor(options: CosmosStoreOptions) {
    this.endpoint = options.endpoint;
    this.databaseId = options.database ?? "hierdoc";
    this.containerId = options.container ?? "chunks";
    this.vectorIndex = options.vectorIndex ?? "quantizedFlat";
    this.language = options.language ?? "en-US";
    const maxBatchSize = options.maxBatchSize ?? 100;
    const configure = (message: string): HierdocError => new HierdocError("E_CONFIG", message, { details: { adapter: ADAPTER, operation: "configure" } });
    if (!Number.isInteger(maxBatchSize) || maxBatchSize <= 0) throw configure(`azure-cosmos maxBatchSize must be a positive integer, got ${maxBatchSize}`);
    if (typeof options.endpoint !== "string" || options.endpoint === "") throw configure("azure-cosmos needs an account endpoint (vector_store.endpoint)");
    if (typeof options.key !== "string" || options.key === "") throw configure("azure-cosmos needs an account key (vector_store.key)");
    const fullText = options.fullText ?? true;
    this.capabilities = Object.freeze({
      vectorSearch: true,
      nativeHybrid: fullText,
      fullText,
      metadataFilter: true,
      deleteByFilter: false,
      persistent: true,
      maxBatchSize,
    });
    try {
      this.client = new CosmosClient({
        endpoint: options.endpoint,
        key: options.key,
        connectionPolicy: { enableEndpointDiscovery: false, requestTimeout: options.timeoutMs ?? 10_000, retryOptions: { maxRetryAttemptCount: 3, fixedRetryIntervalInMilliseconds: 0, maxWaitTimeInSeconds: 10 } },
      });
    } catch (err) {
      throw new HierdocError("E_CONFIG", `azure-cosmos endpoint "${redactUrl(options.endpoint)}" or key is not usable: ${(err as Error).message}`, { cause: err, details: { adapter: ADAPTER, operation: "configure" } });
    }
    this.retry = { retries: options.retries ?? 2, baseDelayMs: options.retryDelayMs ?? 200 };
    this.concurrency = Math.max(1, options.concurrency ?? 8);
    this.scanPageSize = options.scanPageSize ?? 200;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /**
   * Gets or creates the database and the container (vector + full-text policies and indexes) and checks
   * that the container was built for this embedder and vector size.
   * @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH; E_STORE_UNAVAILABLE when the account
   *   cannot be reached; E_STORE for a container without a cosine `/vector` policy (or, with full text on,
   *   without a `/text` full-text index).
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    const { database } = await this.call("open", () => this.client.databases.createIfNotExists({ id: this.databaseId }, this.deadline()));
    const def = containerDefinition({ id: this.containerId, dimensions: options.dimensions, vectorIndex: this.vectorIndex, language: this.language });
    const container = database.container(this.containerId);
    const readContainer = (): Promise<unknown> =>
      this.call("open", () => container.read(this.deadline())).then(
        (r) => r.resource,
        (err: unknown) => {
          if (isNotFound(err)) return undefined;
          throw err;
        },
      );
    let definition = await readContainer();
    if (definition === undefined) {
      await this.call("open", () => database.containers.create(def, this.deadline())).catch((err: unknown) => {
        if (!isConflict(err)) throw err;
      });
      definition = await readContainer();
    }
    const what = `azure-cosmos container "${this.databaseId}/${this.containerId}"`;
    const vector = declaredVector(definition);
    if (vector === undefined) throw this.error("E_STORE", "open", `${what} has no vector embedding policy on /vector; it was not created by hierdoc`);
    if (vector.distanceFunction !== "cosine") throw this.error("E_STORE", "open", `${what} uses ${String(vector.distanceFunction)} distance; hierdoc needs cosine`);
    if (this.capabilities.fullText && !hasFullTextIndex(definition)) {
      throw this.error("E_STORE", "open", `${what} has no full-text index on /text; recreate it or set vector_store.full_text: false`);
    }
    assertSameDimensions(what, vector.dimensions, options, this.error);
    const meta = await this.call("open", () => container.item(META_ID, META_PARTITION).read<{ embedderId?: string }>(this.deadline())).catch((err: unknown) => {
      if (isNotFound(err)) return { resource: undefined };
      throw err;
    });
    if (meta.resource === undefined) {
      const doc = { id: META_ID, kind: META_KIND, sourcePath: META_PARTITION, embedderId: options.embedderId, dimensions: options.dimensions };
      await this.call("open", () => container.items.upsert(doc, this.deadline()));
    } else {
      assertSameEmbedder(what, meta.resource.embedderId, options, this.error);
    }
    this.container = container;
    this.dimensions = options.dimensions;
  }

  /**
   * Adds or replaces records by id (one upsert per document, `concurrency` at a time, in batches of
   * `maxBatchSize`). The whole input is validated first; a failure mid-way leaves earlier documents
   * written (re-running completes it).
   * @throws HierdocError E_DIMENSION_MISMATCH / E_INVALID_ARGUMENT for bad vectors or ids;
   *   E_STORE_UNAVAILABLE / E_STORE from the service.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    const container = this.ready("upsert");
    for (const batch of batchesOf(uniqueUpsertRecords(records, { checkVector: this.checkVector, error: this.error }), this.capabilities.maxBatchSize)) {
      await this.pool(batch, ({ record, vector }) => {
        const doc: ChunkDocument = { id: chunkUuid(record.id), kind: CHUNK_KIND, sourcePath: record.sourcePath, chunkId: record.id, text: record.indexedText, vector: Array.from(vector), record };
        return this.call("upsert", () => container.items.upsert(doc, this.deadline()));
      });
    }
  }

  /** Records for the given ids, in the order asked; missing ids are skipped. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    const container = this.ready("get");
    return fetchInOrder(ids, this.capabilities.maxBatchSize, async (batch) => {
      const docs = await this.query<ChunkDocument>(container, "get", byIdsQuery(batch.map(chunkUuid)));
      return docs.map((d) => this.decode(d, "get"));
    });
  }

  /** Removes records by id; unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    const container = this.ready("deleteByIds");
    for (const batch of batchesOf(ids, this.capabilities.maxBatchSize)) {
      const keys = await this.query<{ id: string; sourcePath: string }>(container, "deleteByIds", keysByIdsQuery(batch.map(chunkUuid)));
      await this.pool(keys, (k) => this.deleteItem(container, "deleteByIds", k.id, k.sourcePath));
    }
  }

  /** Removes every record of `sourcePath`: a query inside its partition, then one delete per document. */
  async deleteBySource(sourcePath: string): Promise<void> {
    const container = this.ready("deleteBySource");
    const docs = await this.query<{ id: string }>(container, "deleteBySource", idsQuery(), sourcePath);
    await this.pool(docs, (d) => this.deleteItem(container, "deleteBySource", d.id, sourcePath));
  }

  /** Every record (without vectors), paged with the SDK's continuation tokens. */
  async *scan(): AsyncIterable<ChunkRecord> {
    const container = this.ready("scan");
    const iterator = container.items.query<ChunkDocument>(scanQuery() as SqlQuerySpec, { maxItemCount: this.scanPageSize });
    while (iterator.hasMoreResults()) {
      const page = await this.call("scan", () => iterator.fetchNext());
      for (const d of page.resources ?? []) yield this.decode(d, "scan");
    }
  }

  /** Number of chunk documents (`SELECT VALUE COUNT(1)`). */
  async count(): Promise<number> {
    const container = this.ready("count");
    const [n] = await this.query<number>(container, "count", countQuery());
    return n ?? 0;
  }

  /**
   * The `topK` chunks nearest to `query.vector` by cosine (`ORDER BY VectorDistance`), best first, with the
   * cosine similarity Cosmos returns as score; `filter.sourcePaths` becomes `ARRAY_CONTAINS`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    const container = this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.max(0, Math.floor(query.topK));
    if (k === 0 || query.filter?.sourcePaths?.length === 0) return [];
    const rows = await this.query<{ chunkId: string; score: number }>(container, "vectorSearch", vectorQuery(query.vector, k, query.filter));
    return rows.map((r) => ({ id: this.chunkId(r, "vectorSearch"), score: r.score }));
  }

  /**
   * BM25 full text: chunks containing any word of `query.text` (`FullTextContainsAny`), ranked by
   * `ORDER BY RANK FullTextScore`. Cosmos returns no score for a RANK query: scores are `1 / (60 + rank)`.
   * A query without any word returns nothing.
   */
  async fullTextSearch(query: StoreQuery & { text: string }): Promise<ScoredId[]> {
    const container = this.ready("fullTextSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const terms = queryTerms(query.text);
    if (k === 0 || terms.length === 0 || query.filter?.sourcePaths?.length === 0) return [];
    return this.ranked(container, "fullTextSearch", fullTextQuery(terms, k, query.filter));
  }

  /**
   * Native hybrid in one query: `ORDER BY RANK RRF(FullTextScore(...), VectorDistance(...))`, fused by Cosmos
   * (the SDK runs the component queries). Scores are `1 / (60 + rank)` of the fused order. A query without
   * any word is a vector search.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async hybridSearch(query: StoreQuery & { text: string; vector: Float32Array }): Promise<ScoredId[]> {
    const container = this.ready("hybridSearch");
    this.checkVector(query.vector, "hybridSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const terms = queryTerms(query.text);
    if (terms.length === 0) return this.vectorSearch(query);
    if (k === 0 || query.filter?.sourcePaths?.length === 0) return [];
    return this.ranked(container, "hybridSearch", hybridQuery(query.vector, terms, k, query.filter));
  }

  /** No-op: every write is acknowledged by the service before the call returns. */
  async flush(): Promise<void> {
    this.ready("flush");
  }

  /** Forgets the open state and releases the SDK's timers; the service keeps the data. */
  async close(): Promise<void> {
    this.container = undefined;
    this.client.dispose();
  }

  private async ranked(container: Container, operation: string, spec: Parameters<CosmosStore["query"]>[2]): Promise<ScoredId[]> {
    try {
      const rows = await this.query<{ chunkId: string }>(container, operation, spec);
      return rows.map((r, i) => ({ id: this.chunkId(r, operation), score: 1 / (60 + i + 1) }));
    } catch (err) {
      // The SDK's hybrid pipeline refuses global statistics of an empty container ("GlobalStats validation failed").
      if (err instanceof HierdocError && /GlobalStats validation failed/.test(err.message)) return [];
      throw err;
    }
  }

  private async query<T>(container: Container, operation: string, spec: { query: string; parameters: unknown[] }, partitionKey?: string): Promise<T[]> {
    const res = await this.call(operation, () => {
      const options = partitionKey === undefined ? this.deadline() : { ...this.deadline(), partitionKey };
      return container.items.query<T>(spec as SqlQuerySpec, options).fetchAll();
    });
    return res.resources;
  }

  private async deleteItem(container: Container, operation: string, id: string, partitionKey: string): Promise<void> {
    try {
      await this.call(operation, () => container.item(id, partitionKey).delete(this.deadline()));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private async pool<T>(items: T[], run: (item: T) => Promise<unknown>): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < items.length) await run(items[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, items.length) }, worker));
  }

  /**
   * Request options that abort the whole call, the SDK's own retries (429, connection resets) included, after
   * 1.5 × `timeoutMs`: a hung or throttling service is reported once, as E_TIMEOUT, within the limit.
   */
  private deadline(): { abortSignal: AbortSignal } {
    return { abortSignal: AbortSignal.timeout(Math.ceil(this.timeoutMs * 1.5)) };
  }

  private call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return withRetry(operation, this.endpoint, this.retry, fn);
  }

  private ready(operation: string): Container {
    if (this.container === undefined) throw this.error("E_STORE", operation, "azure-cosmos store is not open; call open() first");
    return this.container;
  }

  private chunkId(row: { chunkId?: unknown }, operation: string): string {
    if (typeof row?.chunkId !== "string") throw this.error("E_INDEX_CORRUPT", operation, `azure-cosmos document without a chunkId in container "${this.containerId}"; not written by hierdoc`);
    return row.chunkId;
  }

  private decode(doc: ChunkDocument, operation: string): ChunkRecord {
    if (doc?.record === undefined || typeof doc.record.id !== "string") {
      throw this.error("E_INDEX_CORRUPT", operation, `azure-cosmos document ${String(doc?.id)} has no chunk record; not written by hierdoc`);
    }
    return doc.record;
  }
}

