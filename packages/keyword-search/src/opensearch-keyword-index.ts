import type { KeywordDocument, KeywordIndex, KeywordSearchOptions, ScoredId } from "@hierdoc/core";
import { HierdocError, lazyImport } from "@hierdoc/core";
import type { Client } from "@opensearch-project/opensearch";

type OpenSearchSdk = typeof import("@opensearch-project/opensearch");

/** The OpenSearch client package, loaded on first use (a failed load is tried again next time). */
const loadOpenSearch: () => Promise<OpenSearchSdk> = lazyImport(() => import("@opensearch-project/opensearch"));

/** Settings of an {@link OpenSearchKeywordIndex}. */
export interface OpenSearchKeywordOptions {
  /** Endpoint, e.g. `https://localhost:9200`. */
  node: string;
  indexName: string;
  /** Basic auth or an API key (sent as `Authorization: ApiKey …`). */
  auth?: { username: string; password: string } | { apiKey: string };
  /** TLS: verify the server certificate (default true) and an optional CA bundle (PEM). */
  tls?: { rejectUnauthorized?: boolean; ca?: string };
  /** Per-request timeout; default 5000 ms. */
  requestTimeoutMs?: number;
  /** Retries on connection errors / timeouts; default 1. */
  maxRetries?: number;
  /** Make writes visible to search before returning; default `wait_for`. */
  refresh?: boolean | "wait_for";
  /** BM25 parameters of the index's similarity; default k1 1.2, b 0.75 (as the in-memory `lucene` variant). */
  bm25?: { k1?: number; b?: number };
  /** Documents per bulk request; default 500. */
  batchSize?: number;
  /** A preconfigured client (tests, custom transports); the connection options above are then ignored. */
  client?: Client;
}

/**
 * The index settings and mapping hierdoc creates: BM25 similarity, and an analyzer close to the in-memory
 * default (standard tokenizer, lowercase, English stop words, Porter stemming).
 */
export function openSearchIndexBody(bm25: { k1?: number; b?: number } = {}): Record<string, unknown> {
  return {
    settings: {
      index: { similarity: { default: { type: "BM25", k1: bm25.k1 ?? 1.2, b: bm25.b ?? 0.75 } } },
      analysis: {
        filter: { hierdoc_stop: { type: "stop", stopwords: "_english_" } },
        analyzer: { hierdoc: { type: "custom", tokenizer: "standard", filter: ["lowercase", "hierdoc_stop", "porter_stem"] } },
      },
    },
    mappings: {
      dynamic: "strict",
      properties: { text: { type: "text", analyzer: "hierdoc" }, source_path: { type: "keyword" } },
    },
  };
}

/**
 * A `KeywordIndex` backed by an OpenSearch index (official `@opensearch-project/opensearch` client):
 * creates the index with an explicit mapping on first write, bulk upserts and deletes, deletes by
 * source, and `match` queries with an optional `ids` filter. Driver errors become HierdocError
 * `E_KEYWORD_UNAVAILABLE` (or `E_TIMEOUT`) naming the adapter and operation, so the router can degrade.
 * The client package loads on the first operation.
 * @throws HierdocError E_CONFIG from the constructor for an invalid index name or an endpoint that is not a URL.
 */
export class OpenSearchKeywordIndex implements KeywordIndex {
  readonly id = "opensearch";
  private client?: Client;
  private sdk?: OpenSearchSdk;
  private ensured = false;

  constructor(private readonly options: OpenSearchKeywordOptions) {
    if (!options.indexName || !/^[a-z0-9][a-z0-9_\-.]*$/.test(options.indexName)) {
      throw new HierdocError("E_CONFIG", `OpenSearch index name must be lowercase letters, digits, _ - . (got ${JSON.stringify(options.indexName)})`, {
        details: { path: "keyword_index.index_name" },
      });
    }
    if (!options.client && !URL.canParse(options.node)) {
      // Checked here because the client (which would reject it) is only created on the first operation.
      throw new HierdocError("E_CONFIG", "OpenSearch endpoint is not a valid URL", { details: { path: "keyword_index.endpoint" } });
    }
    this.client = options.client;
  }

  /** Creates the index with hierdoc's mapping when it does not exist. */
  async ensureIndex(): Promise<void> {
    if (this.ensured) return;
    await this.call("ensureIndex", async (client, osErrors) => {
      const exists = await client.indices.exists({ index: this.options.indexName });
      if (!exists.body) {
        try {
          await client.indices.create({ index: this.options.indexName, body: openSearchIndexBody(this.options.bm25) as never });
        } catch (err) {
          if (!(err instanceof osErrors.ResponseError && err.body?.error?.type === "resource_already_exists_exception")) throw err;
        }
      }
    });
    this.ensured = true;
  }

  /** Bulk-indexes documents by id (replacing existing ones). */
  async upsert(docs: KeywordDocument[]): Promise<void> {
    if (docs.length === 0) return;
    await this.ensureIndex();
    const size = this.options.batchSize ?? 500;
    for (let i = 0; i < docs.length; i += size) {
      const body = docs.slice(i, i + size).flatMap((d) => [
        { index: { _index: this.options.indexName, _id: d.id } },
        { text: d.text, source_path: d.sourcePath },
      ]);
      await this.bulk("upsert", body);
    }
  }

  /** Deletes documents by id; unknown ids are ignored. */
  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.ensureIndex();
    const size = this.options.batchSize ?? 500;
    for (let i = 0; i < ids.length; i += size) {
      await this.bulk("remove", ids.slice(i, i + size).map((id) => ({ delete: { _index: this.options.indexName, _id: id } })));
    }
  }

  /** Deletes every document of a source file; returns how many were deleted. */
  async removeBySource(sourcePath: string): Promise<number> {
    await this.ensureIndex();
    return this.call("removeBySource", async (client) => {
      const res = await client.deleteByQuery({
        index: this.options.indexName,
        refresh: this.options.refresh === false ? false : true,
        body: { query: { term: { source_path: sourcePath } } },
      });
      return Number((res.body as { deleted?: number }).deleted ?? 0);
    });
  }

  /** BM25 `match` query on the text, best first; an empty list when the index does not exist yet. */
  async search(query: string, options: KeywordSearchOptions): Promise<ScoredId[]> {
    if (!query.trim() || options.topK < 1) return [];
    if (options.allowIds && options.allowIds.size === 0) return [];
    const match = { match: { text: { query } } };
    const body = options.allowIds
      ? { size: options.topK, _source: false, query: { bool: { must: [match], filter: [{ ids: { values: [...options.allowIds] } }] } } }
      : { size: options.topK, _source: false, query: match };
    return this.call("search", async (client, osErrors) => {
      try {
        const res = await client.search({ index: this.options.indexName, body: body as never });
        const hits = (res.body as { hits?: { hits?: Array<{ _id: string; _score: number | null }> } }).hits?.hits ?? [];
        return hits.map((h) => ({ id: h._id, score: h._score ?? 0 }));
      } catch (err) {
        if (err instanceof osErrors.ResponseError && err.statusCode === 404) return [];
        throw err;
      }
    });
  }

  /** Number of documents in the index (0 when it does not exist). */
  async size(): Promise<number> {
    return this.call("size", async (client, osErrors) => {
      try {
        const res = await client.count({ index: this.options.indexName });
        return Number((res.body as { count?: number }).count ?? 0);
      } catch (err) {
        if (err instanceof osErrors.ResponseError && err.statusCode === 404) return 0;
        throw err;
      }
    });
  }

  /** Deletes the whole index (tests, `ingest --rebuild`). */
  async drop(): Promise<void> {
    await this.call("drop", async (client, osErrors) => {
      try {
        await client.indices.delete({ index: this.options.indexName });
      } catch (err) {
        if (!(err instanceof osErrors.ResponseError && err.statusCode === 404)) throw err;
      }
    });
    this.ensured = false;
  }

  /** Closes the client's connections (nothing to close before the first operation). */
  async close(): Promise<void> {
    await this.client?.close();
  }

  private async bulk(operation: string, body: Array<Record<string, unknown>>): Promise<void> {
    await this.call(operation, async (client) => {
      const res = await client.bulk({ body, refresh: this.options.refresh ?? "wait_for" } as never);
      const out = res.body as { errors?: boolean; items?: Array<Record<string, { _id?: string; status?: number; error?: { type?: string; reason?: string } }>> };
      if (!out.errors) return;
      for (const item of out.items ?? []) {
        const result = Object.values(item)[0];
        if (result?.error && !(operation === "remove" && result.status === 404)) {
          throw new HierdocError("E_KEYWORD_UNAVAILABLE", `OpenSearch ${operation} rejected document ${result._id}: ${result.error.type}: ${result.error.reason}`, {
            details: { adapter: "opensearch", operation, documentId: result._id },
          });
        }
      }
    });
  }

  /** The client (given, or created on first use) and the package's error classes. */
  private async connect(): Promise<{ client: Client; errors: OpenSearchSdk["errors"] }> {
    const sdk = (this.sdk ??= await loadOpenSearch());
    const o = this.options;
    this.client ??= new sdk.Client({
      node: o.node,
      auth: o.auth && "username" in o.auth ? o.auth : undefined,
      headers: o.auth && "apiKey" in o.auth ? { authorization: `ApiKey ${o.auth.apiKey}` } : undefined,
      ssl: o.tls ? { rejectUnauthorized: o.tls.rejectUnauthorized ?? true, ca: o.tls.ca } : undefined,
      requestTimeout: o.requestTimeoutMs ?? 5000,
      maxRetries: o.maxRetries ?? 1,
    });
    return { client: this.client, errors: sdk.errors };
  }

  private async call<T>(operation: string, fn: (client: Client, osErrors: OpenSearchSdk["errors"]) => Promise<T>): Promise<T> {
    try {
      const { client, errors } = await this.connect();
      return await fn(client, errors);
    } catch (err) {
      if (err instanceof HierdocError) throw err;
      const details = { adapter: "opensearch", operation, index: this.options.indexName };
      const osErrors = this.sdk?.errors;
      if (osErrors && err instanceof osErrors.TimeoutError) {
        throw new HierdocError("E_TIMEOUT", `opensearch ${operation} timed out after ${this.options.requestTimeoutMs ?? 5000} ms`, { cause: err, retryable: true, details });
      }
      if (osErrors && err instanceof osErrors.ResponseError) {
        const reason = err.body?.error?.reason ?? err.body?.error?.type ?? err.message;
        throw new HierdocError("E_KEYWORD_UNAVAILABLE", `opensearch ${operation} failed with HTTP ${err.statusCode}: ${reason}`, {
          cause: err, retryable: err.statusCode >= 500 || err.statusCode === 429, details: { ...details, status: err.statusCode },
        });
      }
      const reason = err instanceof Error ? err.message : String(err);
      throw new HierdocError("E_KEYWORD_UNAVAILABLE", `opensearch ${operation} failed: ${reason}`, { cause: err, retryable: true, details });
    }
  }
}
