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
import { HierdocError, assertOpenDimensions, assertSameDimensions, assertSameEmbedder, batchesOf, fetchInOrder, keepLastById, storeErrorBuilder, vectorChecker } from "@hierdoc/core";
import { AzureKeyCredential, SearchClient, SearchIndexClient, type SearchIndex, type SearchOptions } from "@azure/search-documents";
import { ADAPTER, restStatus, withRetry, type RetryPolicy } from "./errors.js";
import { META_KEY, VECTOR_ALGORITHM, azureIndexDefinition, documentKey, odataString } from "./index-schema.js";

/** Options of {@link AzureSearchStore}. */
export interface AzureSearchStoreOptions {
  /** Service endpoint, `https://NAME.search.windows.net`. */
  endpoint: string;
  /** Admin API key (sent as `api-key`). Never logged. */
  apiKey: string;
  /** Index name (lowercase letters, digits, dashes). Default `hierdoc`. */
  indexName?: string;
  /** REST API version. Default `2024-07-01` (GA with vector and hybrid search). */
  serviceVersion?: string;
  /** Retries of idempotent calls after a connection / 429 / 503 / 5xx failure. Default 3. */
  retries?: number;
  /** Delay before the first retry in ms; doubles each retry. Default 100. */
  retryDelayMs?: number;
  /** Time limit of one request in ms (aborted; E_TIMEOUT). Default 60 000. */
  timeoutMs?: number;
  /** Documents per indexing batch (the service allows 1000 / 16 MB). Default 500. */
  maxBatchSize?: number;
  /** Page size of {@link AzureSearchStore.scan}. Default 500. */
  scanPageSize?: number;
  /** k of the vector leg of a hybrid query: `max(topK × 4, 50)` by default (the service fuses with RRF). */
  hybridCandidates?: (topK: number) => number;
  /** HNSW parameters used when the index is created. */
  hnsw?: { m?: number; efConstruction?: number; efSearch?: number };
}

interface Doc {
  id: string;
  chunkId?: string;
  sourcePath?: string;
  kind?: string;
  text?: string;
  record?: string;
  embedderId?: string;
  dimensions?: number;
  vector?: number[];
}

const CHUNKS = "kind eq 'chunk'";

/**
 * A {@link VectorStoreAdapter} over an Azure AI Search index, on the official `@azure/search-documents`
 * SDK: HNSW vectors with the cosine metric, BM25 full text on `text`, and native hybrid — one search request
 * carrying both `search` text and a vector query, fused by the service with RRF.
 *
 * Use it when the index lives in Azure AI Search. Delete by source is two steps (find keys with a filtered
 * search, then delete them), since the service has no delete-by-query.
 */
export class AzureSearchStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen). */
  readonly capabilities: StoreCapabilities;
  private readonly endpoint: string;
  private readonly indexName: string;
  private readonly retry: RetryPolicy;
  private readonly scanPageSize: number;
  private readonly candidates: (topK: number) => number;
  private readonly indexClient: SearchIndexClient;
  private readonly client: SearchClient<Doc>;
  private dimensions = 0;

  /**
   * Creates a closed store; call {@link open} before anything else. Does not contact the service.
   * @throws HierdocError E_CONFIG for a missing endpoint or key, a bad index name or batch size.
   */
  constructor(private readonly options: AzureSearchStoreOptions) {
    this.endpoint = options?.endpoint ?? "";
    this.indexName = options?.indexName ?? "hierdoc";
    const maxBatchSize = options?.maxBatchSize ?? 500;
    if (!/^https?:\/\/[^/]+/.test(this.endpoint)) throw this.error("E_CONFIG", "configure", `azure-search endpoint "${this.endpoint}" must be an http(s) URL`);
    if (!options.apiKey) throw this.error("E_CONFIG", "configure", "azure-search apiKey is required");
    if (!/^[a-z0-9][a-z0-9-]{0,126}[a-z0-9]$/.test(this.indexName) || this.indexName.includes("--")) {
      throw this.error("E_CONFIG", "configure", `azure-search index name "${this.indexName}" must be 2-128 lowercase letters, digits or single dashes, not starting or ending with a dash`);
    }
    if (!Number.isInteger(maxBatchSize) || maxBatchSize <= 0 || maxBatchSize > 1000) throw this.error("E_CONFIG", "configure", `azure-search maxBatchSize must be an integer in 1..1000, got ${maxBatchSize}`);
    this.capabilities = Object.freeze({
      vectorSearch: true,
      nativeHybrid: true,
      fullText: true,
      metadataFilter: true,
      // The service has no delete-by-query: deleteBySource searches for keys, then deletes them.
      deleteByFilter: false,
      persistent: true,
      maxBatchSize,
    });
    this.retry = { retries: options.retries ?? 3, baseDelayMs: options.retryDelayMs ?? 100, timeoutMs: options.timeoutMs ?? 60_000 };
    this.scanPageSize = options.scanPageSize ?? 500;
    this.candidates = options.hybridCandidates ?? ((k) => Math.max(k * 4, 50));
    const credential = new AzureKeyCredential(options.apiKey);
    // The SDK's own retries are off: this adapter retries (with its own backoff and error mapping) itself.
    // Plain http is only for local stand-ins and emulators; the SDK refuses it unless told otherwise.
    // `apiVersion` (deprecated alias) is passed too: SearchClient 13.0.0 hands its options to the generated
    // client, which reads `apiVersion`, so `serviceVersion` alone leaves document calls on the SDK default.
    const version = options.serviceVersion ?? "2024-07-01";
    const clientOptions = {
      serviceVersion: version,
      apiVersion: version,
      retryOptions: { maxRetries: 0 },
      allowInsecureConnection: this.endpoint.startsWith("http://"),
    };
    this.indexClient = new SearchIndexClient(this.endpoint, credential, clientOptions);
    this.client = new SearchClient<Doc>(this.endpoint, this.indexName, credential, clientOptions);
  }

  /**
   * Gets or creates the index, checks its vector field, and reads (or writes, on first use) the meta
   * document with the embedder id and vector size.
   * @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH; E_STORE_UNAVAILABLE when the service
   *   cannot be reached (after retries); E_STORE for an index hierdoc did not create or a non-cosine one.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    const index = await this.getOrCreate(options);
    const vector = index.fields.find((f) => f.name === "vector") as { vectorSearchDimensions?: number } | undefined;
    const algorithm = index.vectorSearch?.algorithms?.find((a) => a.name === VECTOR_ALGORITHM) as { parameters?: { metric?: string } } | undefined;
    if (vector === undefined || index.fields.find((f) => f.name === "record") === undefined) {
      throw this.error("E_STORE", "open", `azure-search index "${this.indexName}" was not created by hierdoc (no "vector" / "record" fields)`);
    }
    assertSameDimensions(`azure-search index "${this.indexName}"`, vector.vectorSearchDimensions, options, this.error);
    const metric = algorithm?.parameters?.metric;
    if (metric !== undefined && metric !== "cosine") throw this.error("E_STORE", "open", `azure-search index "${this.indexName}" uses the ${metric} metric; hierdoc needs cosine`);
    // The meta document is read with a filtered search rather than a lookup by key: it is one code path
    // (no 404 handling), and works the same on every API version.
    const [meta] = (await this.search("open", undefined, { filter: "kind eq 'meta'", top: 1, select: ["id", "embedderId", "dimensions"] })).map((r) => r.doc);
    if (meta === undefined) {
      await this.index("open", [{ id: META_KEY, kind: "meta", embedderId: options.embedderId, dimensions: options.dimensions }]);
    } else {
      assertSameEmbedder(`azure-search index "${this.indexName}"`, meta.embedderId, options, this.error);
    }
    this.dimensions = options.dimensions;
  }

  /**
   * Adds or replaces documents by key with `upload` actions (`POST /indexes('{name}')/docs/search.index`),
   * `maxBatchSize` at a time. The whole input is validated first; a failure mid-way leaves earlier batches
   * committed (re-running completes it). A 207 answer with failed items fails the call.
   * @throws HierdocError E_DIMENSION_MISMATCH / E_INVALID_ARGUMENT; E_STORE_UNAVAILABLE / E_STORE.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    this.ready("upsert");
    const docs = records.map(({ record, vector }) => {
      if (typeof record?.id !== "string" || record.id.length === 0 || documentKey(record.id).length > 1024) {
        throw this.error("E_INVALID_ARGUMENT", "upsert", "every record needs a non-empty string id (at most 1024 characters once base64url-encoded)");
      }
      this.checkVector(vector, "upsert", record.id);
      const { indexedText, ...rest } = record;
      return { id: documentKey(record.id), chunkId: record.id, sourcePath: record.sourcePath, kind: "chunk", text: indexedText, record: JSON.stringify(rest), vector: Array.from(vector) } satisfies Doc;
    });
    const unique = keepLastById(docs, (d) => d.id);
    for (const batch of batchesOf(unique, this.capabilities.maxBatchSize)) await this.index("upsert", batch);
  }

  /** Records for the given ids (one filtered search per batch: `search.in(id, …)`), in the order asked. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    this.ready("get");
    return fetchInOrder(ids, this.capabilities.maxBatchSize, async (batch) => {
      const keys = batch.map(documentKey);
      const docs = await this.search("get", undefined, { filter: `search.in(id, ${odataString(keys.join(","))}, ',')`, top: keys.length, select: ["chunkId", "text", "record"] });
      return docs.map(({ doc }) => this.decode(doc));
    });
  }

  /** Removes documents by key with `delete` actions; unknown ids are ignored by the service. */
  async deleteByIds(ids: string[]): Promise<void> {
    this.ready("deleteByIds");
    for (const batch of batchesOf(ids, this.capabilities.maxBatchSize)) {
      const keys = batch.map(documentKey);
      await this.call("deleteByIds", (abortSignal) => this.client.deleteDocuments("id", keys, { abortSignal, throwOnAnyFailure: true }));
    }
  }

  /**
   * Removes every record of `sourcePath`: pages through the matching keys (`orderby id`, `id gt last`, so
   * documents deleted a moment ago but still visible are never read twice) and deletes each page.
   */
  async deleteBySource(sourcePath: string): Promise<void> {
    this.ready("deleteBySource");
    const base = `${CHUNKS} and sourcePath eq ${odataString(sourcePath)}`;
    const size = this.capabilities.maxBatchSize;
    let last: string | undefined;
    for (;;) {
      const filter = last === undefined ? base : `${base} and id gt ${odataString(last)}`;
      const docs = await this.search("deleteBySource", undefined, { filter, orderBy: ["id asc"], top: size, select: ["id"] });
      if (docs.length === 0) return;
      const keys = docs.map(({ doc }) => doc.id);
      await this.call("deleteBySource", (abortSignal) => this.client.deleteDocuments("id", keys, { abortSignal, throwOnAnyFailure: true }));
      if (docs.length < size) return;
      last = keys[keys.length - 1];
    }
  }

  /** Every record (without vectors), paged by key (`orderby id`, `filter id gt last`), which needs no `$skip`. */
  async *scan(): AsyncIterable<ChunkRecord> {
    this.ready("scan");
    let last: string | undefined;
    for (;;) {
      const filter = last === undefined ? CHUNKS : `${CHUNKS} and id gt ${odataString(last)}`;
      const docs = await this.search("scan", undefined, { filter, orderBy: ["id asc"], top: this.scanPageSize, select: ["id", "chunkId", "text", "record"] });
      for (const { doc } of docs) yield this.decode(doc);
      if (docs.length < this.scanPageSize) return;
      last = docs[docs.length - 1].doc.id;
    }
  }

  /** Number of chunk documents (a filtered search with `count: true` and `top: 0`; the meta document is not counted). */
  async count(): Promise<number> {
    this.ready("count");
    const res = await this.call("count", (abortSignal) => this.client.search("*", { filter: CHUNKS, includeTotalCount: true, top: 0, abortSignal }));
    return Number(res.count ?? 0);
  }

  /**
   * The `topK` records nearest to `query.vector` (a vector query, `k = topK`, pre-filtered), best first.
   * Score = cosine similarity, recovered from the service's `@search.score = 1 / (1 + (1 − cos))`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const filter = toFilter(query.filter);
    if (k === 0 || filter === null) return [];
    const docs = await this.search("vectorSearch", undefined, {
      filter,
      top: k,
      select: ["chunkId"],
      vectorSearchOptions: { queries: [{ kind: "vector", vector: Array.from(query.vector), kNearestNeighborsCount: k, fields: ["vector"] }], filterMode: "preFilter" },
    });
    return docs.map(({ doc, score }) => ({ id: this.chunkId(doc, "vectorSearch"), score: 2 - 1 / score }));
  }

  /** BM25 full text on `text` (simple query syntax, `searchMode: any`), best first, filtered by source. */
  async fullTextSearch(query: StoreQuery & { text: string }): Promise<ScoredId[]> {
    this.ready("fullTextSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const filter = toFilter(query.filter);
    if (k === 0 || filter === null || query.text.trim() === "") return [];
    const docs = await this.search("fullTextSearch", query.text, { filter, top: k, select: ["chunkId"], searchFields: ["text"], queryType: "simple", searchMode: "any" });
    return docs.map(({ doc, score }) => ({ id: this.chunkId(doc, "fullTextSearch"), score }));
  }

  /**
   * Native hybrid in one request: `search` text on `text` plus a vector query (k = `hybridCandidates(topK)`),
   * both filtered; the service fuses the two rankings with RRF. Scores are the service's RRF scores.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async hybridSearch(query: StoreQuery & { text: string; vector: Float32Array }): Promise<ScoredId[]> {
    this.ready("hybridSearch");
    this.checkVector(query.vector, "hybridSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const filter = toFilter(query.filter);
    if (k === 0 || filter === null) return [];
    const docs = await this.search("hybridSearch", query.text, {
      filter,
      top: k,
      select: ["chunkId"],
      searchFields: ["text"],
      queryType: "simple",
      searchMode: "any",
      vectorSearchOptions: {
        queries: [{ kind: "vector", vector: Array.from(query.vector), kNearestNeighborsCount: Math.max(k, this.candidates(k)), fields: ["vector"] }],
        filterMode: "preFilter",
      },
    });
    return docs.map(({ doc, score }) => ({ id: this.chunkId(doc, "hybridSearch"), score }));
  }

  /** No-op: an indexing answer means the documents are stored (searchable about a second later). */
  async flush(): Promise<void> {
    this.ready("flush");
  }

  /** Forgets the open state; the service keeps the data. */
  async close(): Promise<void> {
    this.dimensions = 0;
  }

  private async search(operation: string, text: string | undefined, options: SearchOptions<Doc>): Promise<Array<{ doc: Doc; score: number }>> {
    return this.call(operation, async (abortSignal) => {
      const res = await this.client.search(text, { ...options, abortSignal } as SearchOptions<Doc>);
      const out: Array<{ doc: Doc; score: number }> = [];
      for await (const r of res.results) {
        out.push({ doc: r.document as Doc, score: r.score });
        if (out.length >= (options.top ?? 50)) break;
      }
      return out;
    });
  }

  private async index(operation: string, docs: Doc[]): Promise<void> {
    await this.call(operation, async (abortSignal) => {
      const res = await this.client.uploadDocuments(docs, { abortSignal, throwOnAnyFailure: false });
      const failed = res.results.filter((r) => !r.succeeded);
      if (failed.length === 0) return;
      const first = failed[0];
      const status = first.statusCode;
      const message = `azure-search: ${operation} failed: document "${first.key}" rejected with ${status}: ${first.errorMessage ?? ""} (${failed.length} of ${docs.length} failed)`;
      // 409, 422 and 503 per-item failures are transient (the service asks to retry them).
      const transient = status === 409 || status === 422 || status === 503;
      const code = transient ? "E_STORE_UNAVAILABLE" : /dimension/i.test(first.errorMessage ?? "") ? "E_DIMENSION_MISMATCH" : "E_STORE";
      throw new HierdocError(code, message, { retryable: transient, details: { adapter: ADAPTER, operation, endpoint: this.endpoint, indexName: this.indexName, status, documentKey: first.key } });
    });
  }

  private async getOrCreate(options: StoreOpenOptions): Promise<SearchIndex> {
    try {
      return await this.call("open", (abortSignal) => this.indexClient.getIndex(this.indexName, { abortSignal }));
    } catch (err) {
      if (restStatus(err) !== 404) throw err;
    }
    try {
      await withRetry("open", this.endpoint, { ...this.retry, retries: 0 }, (abortSignal) =>
        this.indexClient.createIndex(azureIndexDefinition(this.indexName, options.dimensions, this.options.hnsw), { abortSignal }),
      );
    } catch (err) {
      // Another process created it between our GET and POST (409): read what is there.
      if (restStatus(err) !== 409) throw err;
    }
    return this.call("open", (abortSignal) => this.indexClient.getIndex(this.indexName, { abortSignal }));
  }

  private chunkId(doc: Doc, operation: string): string {
    if (typeof doc.chunkId !== "string") throw this.error("E_INDEX_CORRUPT", operation, `azure-search document "${doc.id}" has no chunkId; not written by hierdoc`);
    return doc.chunkId;
  }

  private decode(doc: Doc): ChunkRecord {
    try {
      const rest = JSON.parse(doc.record ?? "") as Omit<ChunkRecord, "indexedText">;
      if (typeof rest.id !== "string") throw new Error("no id");
      return { ...rest, indexedText: doc.text ?? "" } as ChunkRecord;
    } catch (err) {
      throw new HierdocError("E_INDEX_CORRUPT", `azure-search document "${doc.id}" holds no hierdoc record; not written by hierdoc`, {
        cause: err,
        details: { adapter: ADAPTER, operation: "decode", indexName: this.indexName },
      });
    }
  }

  private call<T>(operation: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return withRetry(operation, this.endpoint, this.retry, fn);
  }

  private ready(operation: string): void {
    if (this.dimensions === 0) throw this.error("E_STORE", operation, "azure-search store is not open; call open() first");
  }

  private readonly checkVector = vectorChecker(ADAPTER, () => this.dimensions, () => ({ endpoint: this.endpoint, indexName: this.indexName }));

  private readonly error = storeErrorBuilder(ADAPTER, () => ({ endpoint: this.endpoint, indexName: this.indexName }));
}

/** `kind eq 'chunk'` plus the source filter; `null` = an empty path list, which matches nothing. */
function toFilter(filter: StoreFilter | undefined): string | null {
  const paths = filter?.sourcePaths;
  if (paths === undefined) return CHUNKS;
  if (paths.length === 0) return null;
  return `${CHUNKS} and (${paths.map((p) => `sourcePath eq ${odataString(p)}`).join(" or ")})`;
}
