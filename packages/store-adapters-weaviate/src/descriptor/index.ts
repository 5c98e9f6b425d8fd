import { defineStore, secretKey, serviceUrl, storeConfig, storeTimeout } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["weaviate"], {
  url: serviceUrl("REST URL of the server (`http://HOST:8080`; Weaviate Cloud: the cluster URL)", "weaviate"),
  api_key: secretKey("API key (Weaviate Cloud), sent as a bearer token"),
  collection: z
    .string()
    .regex(/^[A-Z][A-Za-z0-9_]*$/, "a Weaviate collection name starts with an upper-case letter, then letters, digits, _")
    .optional()
    .describe("Collection (class) name, starting with an upper-case letter (default `Hierdoc`)"),
  alpha: z.number().min(0).max(1).optional().describe("Weight of the vector leg in hybrid search: 0 = BM25 only, 1 = vector only (default 0.5)"),
  timeout_seconds: storeTimeout(),
});

/**
 * Weaviate, selected with `vector_store: { provider: weaviate, url, api_key, collection }`. Loads
 * `weaviate-client` only when {@link weaviateStore.create} runs.
 */
export const weaviateStore = defineStore({
  providers: ["weaviate"],
  description: "Weaviate over REST/GraphQL: native hybrid (BM25 + vector, relativeScoreFusion)",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: true, fullText: true, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 200 },
  testedWith: "wire",
  liveTestEnv: "HIERDOC_WEAVIATE_URL",
  example: { provider: "weaviate", url: "http://127.0.0.1:8080", api_key: "${WEAVIATE_API_KEY}", collection: "LegalDocs" },
  async create(c) {
    const { WeaviateStore } = await import("../weaviate-store.js");
    return new WeaviateStore({ url: c.url, apiKey: c.api_key, className: c.collection, alpha: c.alpha, timeoutMs: c.timeout_seconds * 1000 });
  },
});
