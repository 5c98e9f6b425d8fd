import { defineStore, secretKey, serviceUrl, storeConfig, storeTimeout } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["opensearch"], {
  url: serviceUrl("Node URL (`https://HOST:9200`)", "opensearch"),
  index: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_.-]*$/, "an OpenSearch index name is lowercase letters, digits and _ - .")
    .optional()
    .describe("Index name (default `hierdoc`)"),
  username: z.string().min(1).optional().describe("Basic-auth user name (with `password`)"),
  password: secretKey("Basic-auth password"),
  api_key: secretKey("API key, sent as `Authorization: ApiKey …` (instead of user name and password)"),
  verify_certs: z.boolean().default(true).describe("Verify the server's TLS certificate (default true)"),
  timeout_seconds: storeTimeout(),
});

/**
 * OpenSearch (k-NN plugin), selected with `vector_store: { provider: opensearch, url, index, username, password }`.
 * Loads `@opensearch-project/opensearch` only when {@link opensearchStore.create} runs.
 */
export const opensearchStore = defineStore({
  providers: ["opensearch"],
  description: "OpenSearch k-NN + BM25, native hybrid (hybrid query + normalization search pipeline)",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: true, fullText: true, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 500 },
  testedWith: "wire",
  liveTestEnv: "HIERDOC_OPENSEARCH_URL",
  example: { provider: "opensearch", url: "https://127.0.0.1:9200", index: "legal_docs", username: "admin", password: "${OPENSEARCH_PASSWORD}" },
  async create(c) {
    const { OpenSearchStore } = await import("../opensearch-store.js");
    const auth = c.api_key ? { apiKey: c.api_key } : c.username ? { username: c.username, password: c.password ?? "" } : undefined;
    return new OpenSearchStore({ node: c.url, index: c.index, auth, tls: c.verify_certs ? undefined : { rejectUnauthorized: false }, timeoutMs: c.timeout_seconds * 1000 });
  },
});
