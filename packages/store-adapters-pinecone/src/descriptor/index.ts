import { defineStore, requiredFor, serviceUrl, storeConfig, storeTimeout } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["pinecone"], {
  host: serviceUrl("The index host from the console or `describeIndex` (`https://NAME-PROJECT.svc.REGION.pinecone.io`)", "pinecone"),
  api_key: requiredFor("pinecone", "Pinecone API key, sent as `Api-Key`; write it as ${PINECONE_API_KEY}").meta({ secret: true }),
  namespace: z.string().min(1).optional().describe("Namespace of the records (default `hierdoc`)"),
  timeout_seconds: storeTimeout(),
});

/**
 * Pinecone (serverless or pod index), selected with `vector_store: { provider: pinecone, host, api_key, namespace }`.
 * Loads `@pinecone-database/pinecone` only when {@link pineconeStore.create} runs.
 */
export const pineconeStore = defineStore({
  providers: ["pinecone"],
  description: "Pinecone index (dense); keyword leg from the app-level BM25, fused with RRF",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: false, fullText: false, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 100 },
  testedWith: "wire",
  liveTestEnv: "HIERDOC_PINECONE_API_KEY",
  example: { provider: "pinecone", host: "https://legal-abc1234.svc.aped-4627-b74a.pinecone.io", api_key: "${PINECONE_API_KEY}", namespace: "legal_docs" },
  async create(c) {
    const { PineconeStore } = await import("../pinecone-store.js");
    return new PineconeStore({ host: c.host, apiKey: c.api_key, namespace: c.namespace, timeoutMs: c.timeout_seconds * 1000 });
  },
});
