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
import { HierdocError, assertOpenDimensions, assertSameDimensions, assertSameEmbedder, assertUpsertRecords, batchesOf, fetchInOrder, storeErrorBuilder, vectorChecker } from "@hierdoc/core";
import { Client } from "@opensearch-project/opensearch";
import { ADAPTER, classifyStatus, responseFailure, withRetry, type RetryPolicy } from "./errors.js";
import { EMBEDDER_KEY, hybridPipelineBody, openSearchIndexBody, type HybridWeights } from "./index-body.js";

/** Options of {@link OpenSearchStore}. */
export interface OpenSearchStoreOptions {
  /** Node URL. Default `http://127.0.0.1:9200`. */
  node?: string;
  /** Index name (lowercase letters, digits, `_ - .`). Default `hierdoc`. */
  index?: string;
  /** Basic auth, or an API key sent as `Authorization: ApiKey …`. Never logged. */
  auth?: { username: string; password: string } | { apiKey: string };
  /** TLS: verify the server certificate (default true) and an optional CA bundle (PEM). */
  tls?: { rejectUnauthorized?: boolean; ca?: string };
  /** Retries of idempotent calls after a connection / 429 / 5xx failure. Default 3. */
  retries?: number;
  /** Delay before the first retry in ms; doubles each retry. Default 100. */
  retryDelayMs?: number;
  /** Time limit of one request in ms (client `requestTimeout`; E_TIMEOUT). Default 60 000. */
  timeoutMs?: number;
  /** Documents per `_bulk` request. Default 500. */
  maxBatchSize?: number;
  /** Page size of {@link OpenSearchStore.scan}. Default 500. */
  scanPageSize?: number;
  /** Weights of the hybrid legs (text, vector), each in [0, 1], summing to 1. Default 0.5 / 0.5. */
  hybridWeights?: HybridWeights;
  /** k of the k-NN leg of a hybrid query: `max(topK × 4, 20)` by default. */
  hybridCandidates?: (topK: number) => number;
  /** Search pipeline holding the normalization processor. Default `hierdoc-hybrid-{index}`. */
  pipeline?: string;
  /** HNSW and BM25 parameters used when the index is created. */
  hnsw?: { m?: number; efConstruction?: number };
  bm25?: { k1?: number; b?: number };
  /** A preconfigured client (custom transports, AWS SigV4 signing); connection options are then ignored. */
  client?: Client;
}

interface Hit {
  _id: string;
  _score: number | null;
  _source?: { record?: Omit<ChunkRecord, "indexedText">; text?: string };
  sort?: unknown[];
}
type BulkItem = Record<string, { _id?: string; status?: number; error?: { type?: string; reason?: string; caused_by?: { type?: string; reason?: string } } }>;

/**
 * A {@link VectorStoreAdapter} over an OpenSearch index, on the official `@opensearch-project/opensearch`
 * client: `knn_vector` (HNSW, `cosinesimil`, Lucene engine) for dense search, a BM25 `text` field for full
 * text, and native hybrid through a `hybrid` query run with a search pipeline whose
 * `normalization-processor` normalises (min_max) and combines (weighted arithmetic mean) both legs.
 *
 * Use it when vectors and keywords should live in one OpenSearch cluster (OpenSearch ≥ 2.10 with the
 * k-NN and neural-search plugins, as in the default distribution).
 */
export class OpenSearchStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen). */
  readonly capabilities: StoreCapabilities;
  private readonly url: string;
  private readonly index: string;
  private readonly pipeline: string;
  private readonly client: Client;
  private readonly retry: RetryPolicy;
  private readonly scanPageSize: number;
  private readonly weights: HybridWeights;
  private readonly candidates: (topK: number) => number;
  private dimensions = 0;
  private opened = false;
  private closed = false;

  /**
   * Creates a closed store; call {@link open} before anything else. Does not contact the node.
   * @throws HierdocError E_CONFIG for a bad index name, batch size or hybrid weights.
   */
  constructor(private readonly options: OpenSearchStoreOptions = {}) {
    this.url = options.node ?? "http://127.0.0.1:9200";
    this.index = options.index ?? "hierdoc";
    if (!/^[a-z0-9][a-z0-9_\-.]*$/.test(this.index)) {
      throw this.error("E_CONFIG", "configure", `opensearch index name must be lowercase letters, digits, _ - . (got ${JSON.stringify(this.index)})`);
    }
    const maxBatchSize = options.maxBatchSize ?? 500;
    if (!Number.isInteger(maxBatchSize) || maxBatchSize <= 0) throw this.error("E_CONFIG", "configure", `opensearch maxBatchSize must be a positive integer, got ${maxBatchSize}`);
    this.weights = options.hybridWeights ?? { text: 0.5, vector: 0.5 };
    const { text, vector } = this.weights;
    if (!(text >= 0 && text <= 1 && vector >= 0 && vector <= 1 && Math.abs(text + vector - 1) < 1e-9)) {
      throw this.error("E_CONFIG", "configure", `opensearch hybridWeights must be in [0, 1] and sum to 1, got text ${text}, vector ${vector}`);
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
    this.pipeline = options.pipeline ?? `hierdoc-hybrid-${this.index}`;
    this.client =
      options.client ??
      new Client({
        node: this.url,
        auth: options.auth && "username" in options.auth ? options.auth : undefined,
        headers: options.auth && "apiKey" in options.auth ? { authorization: `ApiKey ${options.auth.apiKey}` } : undefined,
        ssl: options.tls ? { rejectUnauthorized: options.tls.rejectUnauthorized ?? true, ca: options.tls.ca } : undefined,
        requestTimeout: options.timeoutMs ?? 60_000,
        maxRetries: 0,
      });
    this.retry = { retries: options.retries ?? 3, baseDelayMs: options.retryDelayMs ?? 100 };
    this.scanPageSize = options.scanPageSize ?? 500;
    this.candidates = options.hybridCandidates ?? ((k) => Math.max(k * 4, 20));
  }

  /**
   * Gets or creates the index, checks it was built for this embedder and size, and puts the hybrid search
   * pipeline (idempotent).
   * @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH; E_STORE_UNAVAILABLE when the node
   *   cannot be reached (after retries); E_STORE for an index that is not hierdoc's or not cosine.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    if (this.closed) throw this.error("E_STORE", "open", "opensearch store was closed; create a new OpenSearchStore");
    assertOpenDimensions(options, this.error);
    const mapping = await this.getOrCreate(options);
    const meta = mapping._meta ?? {};
    const vector = mapping.properties?.vector;
    if (meta[EMBEDDER_KEY] === undefined || vector?.type !== "knn_vector") {
      throw this.error("E_STORE", "open", `opensearch index "${this.index}" was not created by hierdoc (no ${EMBEDDER_KEY} in _meta or no knn_vector "vector" field)`);
    }
    assertSameEmbedder(`opensearch index "${this.index}"`, meta[EMBEDDER_KEY], options, this.error);
    assertSameDimensions(`opensearch index "${this.index}"`, vector.dimension, options, this.error);
    const space = vector.method?.space_type;
    if (space !== undefined && space !== "cosinesimil") {
      throw this.error("E_STORE", "open", `opensearch index "${this.index}" uses the "${space}" space; hierdoc needs cosinesimil`);
    }
    await this.call("open", () => this.client.searchPipeline.put({ id: this.pipeline, body: hybridPipelineBody(this.weights) as never }));
    this.dimensions = options.dimensions;
    this.opened = true;
  }

  /**
   * Adds or replaces documents by id with `_bulk` `index` actions (`refresh=wait_for`), in batches of
   * `maxBatchSize`. The whole input is validated first; a failure mid-way leaves earlier batches committed
   * (re-running completes it). A bulk answer with item errors fails the call with the first item's error.
   * @throws HierdocError E_DIMENSION_MISMATCH / E_INVALID_ARGUMENT for bad vectors or ids;
   *   E_STORE_UNAVAILABLE / E_STORE from the node.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    this.ready("upsert");
    assertUpsertRecords(records, { checkVector: this.checkVector, error: this.error, maxIdBytes: 512 });
    for (const batch of batchesOf(records, this.capabilities.maxBatchSize)) {
      const body = batch.flatMap(({ record, vector }) => {
        const { indexedText, ...rest } = record;
        return [
          { index: { _index: this.index, _id: record.id } },
          { vector: Array.from(vector), text: indexedText, source_path: record.sourcePath, chunk_id: record.id, record: rest },
        ];
      });
      await this.bulk("upsert", body);
    }
  }

  /** Records for the given ids (`_mget`, vectors excluded), in the order asked; missing ids are skipped. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    this.ready("get");
    return fetchInOrder(ids, this.capabilities.maxBatchSize, async (batch) => {
      const res = await this.call("get", () => this.client.mget({ index: this.index, _source_excludes: ["vector"], body: { ids: batch } }));
      const docs = (res.body as unknown as { docs?: Array<Hit & { found?: boolean }> }).docs ?? [];
      return docs.filter((d) => d.found).map((d) => this.decode(d));
    });
  }

  /** Removes documents by id with `_bulk` `delete` actions; unknown ids (404 items) are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    this.ready("deleteByIds");
    for (const batch of batchesOf(ids, this.capabilities.maxBatchSize)) {
      await this.bulk("deleteByIds", batch.map((id) => ({ delete: { _index: this.index, _id: id } })));
    }
  }

  /** Removes every document of `sourcePath` with one `_delete_by_query` (`term` on `source_path`). */
  async deleteBySource(sourcePath: string): Promise<void> {
    this.ready("deleteBySource");
    await this.call("deleteBySource", () =>
      this.client.deleteByQuery({ index: this.index, refresh: true, conflicts: "proceed", body: { query: { term: { source_path: sourcePath } } } }),
    );
  }

  /** Every record (without vectors), paged with `search_after` on the `chunk_id` keyword. */
  async *scan(): AsyncIterable<ChunkRecord> {
    this.ready("scan");
    let after: unknown[] | undefined;
    for (;;) {
      const body: Record<string, unknown> = { size: this.scanPageSize, query: { match_all: {} }, sort: [{ chunk_id: "asc" }], _source: { excludes: ["vector"] } };
      if (after !== undefined) body.search_after = after;
      const hits = await this.search("scan", body);
      for (const h of hits) yield this.decode(h);
      if (hits.length < this.scanPageSize) return;
      after = hits[hits.length - 1].sort;
    }
  }

  /** Number of documents in the index (`_count`). */
  async count(): Promise<number> {
    this.ready("count");
    const res = await this.call("count", () => this.client.count({ index: this.index }));
    return Number((res.body as { count?: number }).count ?? 0);
  }

  /**
   * The `topK` records nearest to `query.vector` (`knn` query with `k = topK`, filter inside the k-NN
   * clause so it is applied during the HNSW search), best first. Score = cosine similarity, recovered from
   * OpenSearch's `cosinesimil` score `(1 + cos) / 2`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const filter = toFilter(query.filter);
    if (k === 0 || filter === null) return [];
    const hits = await this.search("vectorSearch", { size: k, _source: false, query: knnClause(query.vector, k, filter) });
    return hits.map((h) => ({ id: h._id, score: 2 * (h._score ?? 0) - 1 }));
  }

  /** BM25 `match` on the indexed text (filtered by `source_path`), best first, scored by OpenSearch. */
  async fullTextSearch(query: StoreQuery & { text: string }): Promise<ScoredId[]> {
    this.ready("fullTextSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const filter = toFilter(query.filter);
    if (k === 0 || filter === null || query.text.trim() === "") return [];
    const hits = await this.search("fullTextSearch", { size: k, _source: false, query: matchClause(query.text, filter) });
    return hits.map((h) => ({ id: h._id, score: h._score ?? 0 }));
  }

  /**
   * Native hybrid in one request: a `hybrid` query with a BM25 `match` and a `knn` sub-query (k =
   * `hybridCandidates(topK)`), each carrying the filter, run with `?search_pipeline=` so the node
   * normalises (min_max) and combines (weighted arithmetic mean) the scores. Scores are the combined ones.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async hybridSearch(query: StoreQuery & { text: string; vector: Float32Array }): Promise<ScoredId[]> {
    this.ready("hybridSearch");
    this.checkVector(query.vector, "hybridSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const filter = toFilter(query.filter);
    if (k === 0 || filter === null) return [];
    const candidates = Math.max(k, this.candidates(k));
    const body = {
      size: k,
      _source: false,
      query: { hybrid: { queries: [matchClause(query.text, filter), knnClause(query.vector, candidates, filter)] } },
    };
    const hits = await this.search("hybridSearch", body, this.pipeline);
    return hits.map((h) => ({ id: h._id, score: h._score ?? 0 }));
  }

  /** No-op: writes use `refresh=wait_for` / `refresh=true`, so they are searchable when the call returns. */
  async flush(): Promise<void> {
    this.ready("flush");
  }

  /** Closes the client's connections (unless the client was passed in); the node keeps the data. */
  async close(): Promise<void> {
    this.opened = false;
    if (this.closed || this.options.client !== undefined) return;
    this.closed = true;
    await this.client.close().catch(() => undefined);
  }

  private async search(operation: string, body: Record<string, unknown>, pipeline?: string): Promise<Hit[]> {
    const res = await this.call(operation, () =>
      this.client.search({ index: this.index, body: body as never, ...(pipeline === undefined ? {} : { search_pipeline: pipeline }) }),
    );
    return ((res.body as { hits?: { hits?: Hit[] } }).hits?.hits ?? []) as Hit[];
  }

  private async bulk(operation: string, body: Array<Record<string, unknown>>): Promise<void> {
    await this.call(operation, async () => {
      const res = await this.client.bulk({ body: body as never, refresh: "wait_for" });
      const out = res.body as { errors?: boolean; items?: BulkItem[] };
      if (!out.errors) return;
      for (const item of out.items ?? []) {
        const [action, result] = Object.entries(item)[0] ?? [];
        if (result?.error === undefined || (action === "delete" && result.status === 404)) continue;
        const status = result.status ?? 400;
        const type = result.error.type ?? "";
        const cause = result.error.caused_by;
        const reason = `${result.error.reason ?? ""}${cause?.reason ? ` (caused by ${cause.type ?? "error"}: ${cause.reason})` : ""}`;
        const { code, retryable } = classifyStatus(status, type, reason);
        throw new HierdocError(code, `opensearch: ${operation} failed: document "${result._id}" rejected with HTTP ${status} ${type}: ${reason}`, {
          retryable,
          details: { adapter: ADAPTER, operation, url: this.url, index: this.index, documentId: result._id, status, errorType: type },
        });
      }
    });
  }

  private async getOrCreate(options: StoreOpenOptions): Promise<MappingLike> {
    const read = async (): Promise<MappingLike> => {
      const res = await this.call("open", () => this.client.indices.getMapping({ index: this.index }));
      const byIndex = res.body as Record<string, { mappings?: MappingLike }>;
      return Object.values(byIndex)[0]?.mappings ?? {};
    };
    try {
      return await read();
    } catch (err) {
      if (responseFailure(err)?.status !== 404) throw err;
    }
    const body = openSearchIndexBody({ ...options, hnsw: this.options.hnsw, bm25: this.options.bm25 });
    try {
      await this.call("open", () => this.client.indices.create({ index: this.index, body: body as never }));
    } catch (err) {
      // Another process created it between our read and create: use what is there.
      if (responseFailure(err)?.type !== "resource_already_exists_exception") throw err;
    }
    return read();
  }

  private decode(hit: Hit): ChunkRecord {
    const record = hit._source?.record;
    if (record === undefined || typeof record.id !== "string") {
      throw this.error("E_INDEX_CORRUPT", "decode", `opensearch document "${hit._id}" has no hierdoc record; not written by hierdoc`, { documentId: hit._id });
    }
    return { ...record, indexedText: hit._source?.text ?? "" } as ChunkRecord;
  }

  private call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return withRetry(operation, this.url, this.retry, fn);
  }

  private ready(operation: string): void {
    if (!this.opened) throw this.error("E_STORE", operation, "opensearch store is not open; call open() first");
  }

  private readonly checkVector = vectorChecker(ADAPTER, () => this.dimensions, () => ({ index: this.index }));

  private readonly error = storeErrorBuilder(ADAPTER, () => ({ index: this.index }));
}

interface MappingLike {
  _meta?: Record<string, unknown>;
  properties?: { vector?: { type?: string; dimension?: number; method?: { space_type?: string } } };
}

type OsFilter = { terms: { source_path: string[] } };

/** `undefined` = no filter; `null` = an empty path list, which matches nothing. */
function toFilter(filter: StoreFilter | undefined): OsFilter | undefined | null {
  const paths = filter?.sourcePaths;
  if (paths === undefined) return undefined;
  return paths.length === 0 ? null : { terms: { source_path: paths } };
}

function knnClause(vector: Float32Array, k: number, filter: OsFilter | undefined): Record<string, unknown> {
  const inner: Record<string, unknown> = { vector: Array.from(vector), k };
  if (filter !== undefined) inner.filter = filter;
  return { knn: { vector: inner } };
}

function matchClause(text: string, filter: OsFilter | undefined): Record<string, unknown> {
  const match = { match: { text: { query: text } } };
  return filter === undefined ? match : { bool: { must: [match], filter: [filter] } };
}
