import { defineStore, secretKey, serviceUrl, storeConfig, storeTimeout } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["qdrant"], {
  url: serviceUrl("REST URL of the server (`http://HOST:6333`; Qdrant Cloud: the cluster URL)", "qdrant"),
  api_key: secretKey("API key (Qdrant Cloud), sent as the `api-key` header"),
  collection: z.string().min(1).optional().describe("Collection name (default `hierdoc`)"),
  timeout_seconds: storeTimeout(),
});

/**
 * Qdrant, selected with `vector_store: { provider: qdrant, url, api_key, collection }`. Loads
 * `@qdrant/js-client-rest` only when {@link qdrantStore.create} runs.
 */
export const qdrantStore = defineStore({
  providers: ["qdrant"],
  description: "Qdrant over its REST API: dense + sparse (BM25) vectors, native hybrid via Query API RRF",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: true, fullText: true, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 256 },
  testedWith: "wire",
  liveTestEnv: "HIERDOC_QDRANT_URL",
  example: { provider: "qdrant", url: "https://legal-docs.eu-central-1-0.aws.cloud.qdrant.io:6333", api_key: "${QDRANT_API_KEY}", collection: "legal_docs" },
  async create(c) {
    const { QdrantStore } = await import("../qdrant-store.js");
    return new QdrantStore({ url: c.url, apiKey: c.api_key, collection: c.collection, timeoutMs: c.timeout_seconds * 1000 });
  },
});
