import { HierdocError, type KeywordIndex, type ToolConfig } from "@hierdoc/core";
import type { Env } from "./resolve-config.js";

/**
 * The keyword index a config names when it is not the tool's own persisted in-memory BM25: `opensearch`
 * (`endpoint`, `index_name`, `username`/`password` or `api_key`, `verify_certs`, `timeout_seconds`).
 * Returns undefined for `in-memory`. When the OpenSearch cluster fails at search time, results come back
 * semantic-only with a warning.
 * @throws HierdocError E_CONFIG when `endpoint` or `index_name` is missing.
 */
export async function createKeywordIndex(config: ToolConfig, env: Env): Promise<KeywordIndex | undefined> {
  const k = config.keyword_index;
  if (k.provider === "in-memory") return undefined;
  const endpoint = k.endpoint ?? env("HIERDOC_OPENSEARCH_URL");
  if (!endpoint) throw new HierdocError("E_CONFIG", "keyword_index.endpoint: set the OpenSearch endpoint", { details: { path: "keyword_index.endpoint" } });
  if (!k.index_name) throw new HierdocError("E_CONFIG", "keyword_index.index_name: name the OpenSearch index", { details: { path: "keyword_index.index_name" } });
  const { OpenSearchKeywordIndex } = await import("@hierdoc/keyword-search");
  const auth = k.api_key ? { apiKey: k.api_key } : k.username && k.password ? { username: k.username, password: k.password } : undefined;
  return new OpenSearchKeywordIndex({
    node: endpoint,
    indexName: k.index_name,
    auth,
    tls: { rejectUnauthorized: k.verify_certs },
    requestTimeoutMs: k.timeout_seconds * 1000,
  });
}
