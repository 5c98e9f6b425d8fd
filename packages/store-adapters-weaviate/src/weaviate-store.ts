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
import * as weaviateModule from "weaviate-ts-client";
import { ApiKey, FusionType, type WeaviateClass, type WeaviateClient, type WhereFilter } from "weaviate-ts-client";
import { ADAPTER, httpFailure, withRetry, type RetryPolicy } from "./errors.js";
import { objectId } from "./object-id.js";

type WeaviateApp = { client(params: { host: string; apiKey?: ApiKey; headers?: Record<string, string> }): WeaviateClient };

/**
 * The client factory. The package ships ESM (`index.mjs`, default export = the app) with CommonJS-style
 * typings, so TypeScript and Node disagree on where `default` is; accept either shape.
 */
const weaviateApp: WeaviateApp = (() => {
  const ns = weaviateModule as unknown as { default?: WeaviateApp & { default?: WeaviateApp } };
  const app = typeof ns.default?.client === "function" ? ns.default : ns.default?.default;
  if (app === undefined) throw new HierdocError("E_INTERNAL", "weaviate-ts-client exports no client factory", { details: { adapter: ADAPTER, operation: "load" } });
  return app;
})();

/** Options of {@link WeaviateStore}. */
export interface WeaviateStoreOptions {
  /** Server URL (REST/GraphQL port). Default `http://127.0.0.1:8080`. */
  url?: string;
  /** API key (Weaviate Cloud), sent as a bearer token. Never logged. */
  apiKey?: string;
  /** Extra headers. */
  headers?: Record<string, string>;
  /** Class (collection) name: starts with an upper-case letter, then letters, digits, `_`. Default `Hierdoc`. */
  className?: string;
  /** Weight of the vector leg in hybrid search (Weaviate `alpha`: 0 = pure BM25, 1 = pure vector). Default 0.5. */
  alpha?: number;
  /** Retries of idempotent calls after a connection / 429 / 5xx failure. Default 3. */
  retries?: number;
  /** Delay before the first retry in ms; doubles each retry. Default 100. */
  retryDelayMs?: number;
  /** Time limit of one request in ms (E_TIMEOUT). Default 60 000. */
  timeoutMs?: number;
  /** Objects per batch request. Default 200. */
  maxBatchSize?: number;
  /** Page size of {@link WeaviateStore.scan} (cursor API). Default 500. */
  scanPageSize?: number;
}

const DESCRIPTION_PREFIX = "hierdoc ";
const FIELDS = "chunkId sourcePath text record";

interface Row {
  chunkId?: string;
  sourcePath?: string;
  text?: string;
  record?: string;
  _additional?: { id?: string; score?: string | number; distance?: number };
}

/**
 * A {@link VectorStoreAdapter} over a Weaviate server, on the official REST/GraphQL TypeScript client
 * `weaviate-ts-client` (v2). weaviate-client v3 sends queries and batches over gRPC; this adapter keeps to
 * HTTP so every call it makes is the documented REST / GraphQL wire format.
 *
 * One class per index, `vectorizer: "none"` (vectors passed in), HNSW with cosine distance, BM25 on the
 * `text` property (the record's `indexedText`). Native hybrid is one GraphQL `Get` with
 * `hybrid: { query, vector, alpha, properties: ["text"], fusionType: relativeScoreFusion }`. Object ids are
 * UUIDs derived from chunk ids; the rest of the `ChunkRecord` is a JSON string in the unindexed `record`
 * property. The embedder id and vector size live in the class description.
 */
export class WeaviateStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen). */
  readonly capabilities: StoreCapabilities;
  private readonly url: string;
  private readonly className: string;
  private readonly alpha: number;
  private readonly retry: RetryPolicy;
  private readonly scanPageSize: number;
  private client: WeaviateClient | undefined;
  private dimensions = 0;

  /**
   * Creates a closed store; call {@link open} before anything else. Does not contact the server (the
   * client, which reads `/v1/meta` when created, is made in `open`).
   * @throws HierdocError E_CONFIG for a bad URL, class name, alpha or batch size.
   */
  constructor(private readonly options: WeaviateStoreOptions = {}) {
    this.url = (options.url ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
    this.className = options.className ?? "Hierdoc";
    this.alpha = options.alpha ?? 0.5;
    const maxBatchSize = options.maxBatchSize ?? 200;
    if (!/^[A-Z][_0-9A-Za-z]{0,254}$/.test(this.className)) throw this.error("E_CONFIG", "configure", `weaviate class name "${this.className}" must start with an upper-case letter and hold only letters, digits and _`);
    if (!(this.alpha >= 0 && this.alpha <= 1)) throw this.error("E_CONFIG", "configure", `weaviate alpha must be in [0, 1], got ${this.alpha}`);
    if (!Number.isInteger(maxBatchSize) || maxBatchSize <= 0) throw this.error("E_CONFIG", "configure", `weaviate maxBatchSize must be a positive integer, got ${maxBatchSize}`);
    if (!/^https?:\/\/[^/]+/.test(this.url)) throw this.error("E_CONFIG", "configure", `weaviate url "${this.url}" must start with http:// or https://`);
    this.capabilities = Object.freeze({
      vectorSearch: true,
      nativeHybrid: true,
      fullText: true,
      metadataFilter: true,
      deleteByFilter: true,
      persistent: true,
      maxBatchSize,
    });
    this.retry = { retries: options.retries ?? 3, baseDelayMs: options.retryDelayMs ?? 100, timeoutMs: options.timeoutMs ?? 60_000 };
    this.scanPageSize = options.scanPageSize ?? 500;
  }

  /**
   * Gets or creates the class and checks it was built for this embedder and vector size.
   * @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH; E_STORE_UNAVAILABLE when the server
   *   cannot be reached (after retries); E_STORE for a class hierdoc did not create or a non-cosine one.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    const client =
      this.client ??
      weaviateApp.client({
        host: this.url,
        apiKey: this.options.apiKey ? new ApiKey(this.options.apiKey) : undefined,
        headers: this.options.headers,
      });
    this.client = client;
    const cls = await this.getOrCreate(client, options);
    const described = parseDescription(cls.description);
    if (described === undefined) {
      throw this.error("E_STORE", "open", `weaviate class "${this.className}" was not created by hierdoc (no "${DESCRIPTION_PREFIX}{…}" description)`);
    }
    assertSameEmbedder(`weaviate class "${this.className}"`, described.embedderId, options, this.error);
    assertSameDimensions(`weaviate class "${this.className}"`, described.dimensions, options, this.error);
    const distance = (cls.vectorIndexConfig as { distance?: string } | undefined)?.distance;
    if (distance !== undefined && distance !== "cosine") throw this.error("E_STORE", "open", `weaviate class "${this.className}" uses ${distance} distance; hierdoc needs cosine`);
    this.dimensions = options.dimensions;
  }

  /**
   * Adds or replaces objects by id with batch imports (`POST /v1/batch/objects`), `maxBatchSize` at a time.
   * The whole input is validated first; a failure mid-way leaves earlier batches committed (re-running
   * completes it). Per-object errors in the batch answer fail the call.
   * @throws HierdocError E_DIMENSION_MISMATCH / E_INVALID_ARGUMENT; E_STORE_UNAVAILABLE / E_STORE from the server.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    const client = this.ready("upsert");
    const unique = uniqueUpsertRecords(records, { checkVector: this.checkVector, error: this.error });
    for (const batch of batchesOf(unique, this.capabilities.maxBatchSize)) {
      const objects = batch.map(({ record, vector }) => {
        const { indexedText, ...rest } = record;
        return {
          class: this.className,
          id: objectId(record.id),
          vector: Array.from(vector),
          properties: { chunkId: record.id, sourcePath: record.sourcePath, text: indexedText, record: JSON.stringify(rest) },
        };
      });
      const results = await this.call("upsert", () => client.batch.objectsBatcher().withObjects(...objects).do());
      for (const r of results) {
        const messages = r.result?.errors?.error?.map((e) => e.message ?? "") ?? [];
        if (messages.length === 0) continue;
        const text = messages.join("; ");
        const code = /vector lengths? don'?t match|vector.*length|dimension/i.test(text) ? "E_DIMENSION_MISMATCH" : "E_STORE";
        throw this.error(code, "upsert", `weaviate: upsert failed: object ${String(r.id)} rejected: ${text}`, { objectId: r.id });
      }
    }
  }

  /** Records for the given ids (GraphQL `Get` filtered on `chunkId`), in the order asked; missing ids are skipped. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    const client = this.ready("get");
    return fetchInOrder(ids, this.capabilities.maxBatchSize, async (batch) => {
      const rows = await this.rows("get", () =>
        client.graphql.get().withClassName(this.className).withFields(FIELDS).withWhere(anyOf("chunkId", batch)).withLimit(batch.length).do(),
      );
      return rows.map((row) => this.decode(row));
    });
  }

  /** Removes objects by id with batch deletes (`DELETE /v1/batch/objects`); unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    this.ready("deleteByIds");
    for (const batch of batchesOf(ids, this.capabilities.maxBatchSize)) await this.batchDelete("deleteByIds", anyOf("chunkId", batch));
  }

  /** Removes every object of `sourcePath` with batch deletes filtered on `sourcePath`. */
  async deleteBySource(sourcePath: string): Promise<void> {
    this.ready("deleteBySource");
    await this.batchDelete("deleteBySource", { path: ["sourcePath"], operator: "Equal", valueText: sourcePath });
  }

  /** Every record (without vectors), read with the cursor API (`after` + `limit`, ordered by object id). */
  async *scan(): AsyncIterable<ChunkRecord> {
    const client = this.ready("scan");
    let after: string | undefined;
    for (;;) {
      const rows = await this.rows("scan", () => {
        const q = client.graphql.get().withClassName(this.className).withFields(`${FIELDS} _additional { id }`).withLimit(this.scanPageSize);
        return (after === undefined ? q : q.withAfter(after)).do();
      });
      for (const row of rows) yield this.decode(row);
      if (rows.length < this.scanPageSize) return;
      after = rows[rows.length - 1]._additional?.id;
      if (after === undefined) throw this.error("E_STORE", "scan", "weaviate cursor page without _additional.id");
    }
  }

  /** Number of objects in the class (GraphQL `Aggregate { meta { count } }`). */
  async count(): Promise<number> {
    const client = this.ready("count");
    const res = await this.call("count", () => client.graphql.aggregate().withClassName(this.className).withFields("meta { count }").do());
    const rows = (res as { data?: { Aggregate?: Record<string, Array<{ meta?: { count?: number } }>> } }).data?.Aggregate?.[this.className] ?? [];
    return Number(rows[0]?.meta?.count ?? 0);
  }

  /**
   * The `topK` records nearest to `query.vector` (`nearVector`), best first, score `1 − cosine distance`;
   * `filter.sourcePaths` becomes a `where` filter on `sourcePath`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    const client = this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const where = toWhere(query.filter);
    if (k === 0 || where === null) return [];
    const rows = await this.rows("vectorSearch", () => {
      const q = client.graphql.get().withClassName(this.className).withFields("chunkId _additional { distance }").withNearVector({ vector: Array.from(query.vector) }).withLimit(k);
      return (where === undefined ? q : q.withWhere(where)).do();
    });
    return rows.map((r) => ({ id: this.chunkId(r, "vectorSearch"), score: 1 - Number(r._additional?.distance ?? 1) }));
  }

  /** BM25 on the `text` property (`bm25: { query, properties: ["text"] }`), best first. */
  async fullTextSearch(query: StoreQuery & { text: string }): Promise<ScoredId[]> {
    const client = this.ready("fullTextSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const where = toWhere(query.filter);
    if (k === 0 || where === null || query.text.trim() === "") return [];
    const rows = await this.rows("fullTextSearch", () => {
      const q = client.graphql.get().withClassName(this.className).withFields("chunkId _additional { score }").withBm25({ query: query.text, properties: ["text"] }).withLimit(k);
      return (where === undefined ? q : q.withWhere(where)).do();
    });
    return rows.map((r) => ({ id: this.chunkId(r, "fullTextSearch"), score: Number(r._additional?.score ?? 0) }));
  }

  /**
   * Native hybrid in one GraphQL `Get`: `hybrid: { query, vector, alpha, properties: ["text"],
   * fusionType: relativeScoreFusion }`, filtered with `where`. Scores are Weaviate's fused scores.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async hybridSearch(query: StoreQuery & { text: string; vector: Float32Array }): Promise<ScoredId[]> {
    const client = this.ready("hybridSearch");
    this.checkVector(query.vector, "hybridSearch");
    const k = Math.max(0, Math.floor(query.topK));
    const where = toWhere(query.filter);
    if (k === 0 || where === null) return [];
    const rows = await this.rows("hybridSearch", () => {
      const q = client.graphql
        .get()
        .withClassName(this.className)
        .withFields("chunkId _additional { score }")
        .withHybrid({ query: query.text, vector: Array.from(query.vector), alpha: this.alpha, properties: ["text"], fusionType: FusionType.relativeScoreFusion })
        .withLimit(k);
      return (where === undefined ? q : q.withWhere(where)).do();
    });
    return rows.map((r) => ({ id: this.chunkId(r, "hybridSearch"), score: Number(r._additional?.score ?? 0) }));
  }

  /** No-op: a batch answer means the objects are stored. */
  async flush(): Promise<void> {
    this.ready("flush");
  }

  /** Forgets the client; the server keeps the data. */
  async close(): Promise<void> {
    this.client = undefined;
  }

  private async getOrCreate(client: WeaviateClient, options: StoreOpenOptions): Promise<WeaviateClass> {
    try {
      return await this.call("open", () => client.schema.classGetter().withClassName(this.className).do());
    } catch (err) {
      if (httpFailure(err)?.status !== 404) throw err;
    }
    const cls: WeaviateClass = {
      class: this.className,
      description: `${DESCRIPTION_PREFIX}${JSON.stringify({ embedderId: options.embedderId, dimensions: options.dimensions })}`,
      vectorizer: "none",
      vectorIndexType: "hnsw",
      vectorIndexConfig: { distance: "cosine" },
      invertedIndexConfig: { bm25: { k1: 1.2, b: 0.75 } },
      properties: [
        { name: "text", dataType: ["text"], tokenization: "word", indexFilterable: false, indexSearchable: true },
        { name: "sourcePath", dataType: ["text"], tokenization: "field", indexFilterable: true, indexSearchable: false },
        { name: "chunkId", dataType: ["text"], tokenization: "field", indexFilterable: true, indexSearchable: false },
        { name: "record", dataType: ["text"], indexFilterable: false, indexSearchable: false },
      ],
    };
    try {
      await withRetry("open", this.url, { ...this.retry, retries: 0 }, () => client.schema.classCreator().withClass(cls).do());
    } catch (err) {
      // Another process created it between our GET and POST (422 "already exists"): read what is there.
      if (!/already exists/i.test(httpFailure(err)?.message ?? "")) throw err;
    }
    return this.call("open", () => client.schema.classGetter().withClassName(this.className).do());
  }

  private async batchDelete(operation: string, where: WhereFilter): Promise<void> {
    const client = this.ready(operation);
    for (let round = 0; round < 1000; round++) {
      const res = await this.call(operation, () => client.batch.objectsBatchDeleter().withClassName(this.className).withWhere(where).withOutput("minimal").do());
      const r = res.results ?? {};
      if ((r.failed ?? 0) > 0) throw this.error("E_STORE", operation, `weaviate: ${operation} failed for ${r.failed} of ${r.matches} objects`);
      // One request deletes at most `limit` (QUERY_MAXIMUM_RESULTS) matches; repeat while more matched.
      if ((r.matches ?? 0) <= (r.successful ?? 0) || (r.successful ?? 0) === 0) return;
    }
  }

  private async rows(operation: string, fn: () => Promise<unknown>): Promise<Row[]> {
    const res = await this.call(operation, fn);
    return (res as { data?: { Get?: Record<string, Row[] | null> } }).data?.Get?.[this.className] ?? [];
  }

  private chunkId(row: Row, operation: string): string {
    if (typeof row.chunkId !== "string") throw this.error("E_INDEX_CORRUPT", operation, "weaviate object without chunkId; not written by hierdoc");
    return row.chunkId;
  }

  private decode(row: Row): ChunkRecord {
    try {
      const rest = JSON.parse(row.record ?? "") as Omit<ChunkRecord, "indexedText">;
      if (typeof rest.id !== "string") throw new Error("no id");
      return { ...rest, indexedText: row.text ?? "" } as ChunkRecord;
    } catch (err) {
      throw new HierdocError("E_INDEX_CORRUPT", `weaviate object "${String(row.chunkId)}" holds no hierdoc record; not written by hierdoc`, {
        cause: err,
        details: { adapter: ADAPTER, operation: "decode", className: this.className },
      });
    }
  }

  private call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return withRetry(operation, this.url, this.retry, fn);
  }

  private ready(operation: string): WeaviateClient {
    if (this.client === undefined || this.dimensions === 0) throw this.error("E_STORE", operation, "weaviate store is not open; call open() first");
    return this.client;
  }

  private readonly checkVector = vectorChecker(ADAPTER, () => this.dimensions, () => ({ className: this.className }));

  private readonly error = storeErrorBuilder(ADAPTER, () => ({ className: this.className }));
}

function parseDescription(description: string | undefined): { embedderId?: unknown; dimensions?: unknown } | undefined {
  if (description === undefined || !description.startsWith(DESCRIPTION_PREFIX)) return undefined;
  try {
    return JSON.parse(description.slice(DESCRIPTION_PREFIX.length)) as { embedderId?: unknown; dimensions?: unknown };
  } catch {
    return undefined;
  }
}

/** `path` equal to any of `values` (an `Or` of `Equal`s, which every Weaviate 1.x understands). */
function anyOf(path: string, values: string[]): WhereFilter {
  if (values.length === 1) return { path: [path], operator: "Equal", valueText: values[0] };
  return { operator: "Or", operands: values.map((v) => ({ path: [path], operator: "Equal", valueText: v })) };
}

/** `undefined` = no filter; `null` = an empty path list, which matches nothing. */
function toWhere(filter: StoreFilter | undefined): WhereFilter | undefined | null {
  const paths = filter?.sourcePaths;
  if (paths === undefined) return undefined;
  return paths.length === 0 ? null : anyOf("sourcePath", paths);
}
