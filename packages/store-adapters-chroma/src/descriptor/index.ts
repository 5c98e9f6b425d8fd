import { defineStore, secretKey, serviceUrl, storeConfig, storeTimeout } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["chromadb", "chroma"], {
  url: serviceUrl("Server URL (default `http://127.0.0.1:8000`)"),
  collection: z.string().min(3).optional().describe("Collection name, 3–512 characters of `[a-zA-Z0-9._-]` (default `hierdoc`)"),
  tenant: z.string().min(1).optional().describe("Chroma tenant (the server's default when absent)"),
  database: z.string().min(1).optional().describe("Chroma database (the server's default when absent)"),
  api_key: secretKey("Token sent as `x-chroma-token` (Chroma Cloud or a server with token auth)"),
  timeout_seconds: storeTimeout(),
});

/**
 * Chroma, selected with `vector_store: { provider: chromadb, url, collection }`. Loads `chromadb` only when
 * {@link chromaStore.create} runs.
 */
export const chromaStore = defineStore({
  providers: ["chromadb", "chroma"],
  description: "Chroma server (dense); keyword leg from the app-level BM25, fused with RRF",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: false, fullText: false, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 1000 },
  testedWith: "real",
  example: { provider: "chromadb", url: "http://127.0.0.1:8000", collection: "legal_docs" },
  async create(c) {
    const { ChromaStore } = await import("../chroma-store.js");
    const headers = c.api_key ? { "x-chroma-token": c.api_key } : undefined;
    return new ChromaStore({ url: c.url, collection: c.collection, tenant: c.tenant, database: c.database, headers, timeoutMs: c.timeout_seconds * 1000 });
  },
});
