import { defineStore, requiredFor, serviceUrl, storeConfig, storeTimeout } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["azure-ai-search", "azure-search"], {
  endpoint: serviceUrl("Service endpoint, `https://NAME.search.windows.net`", "azure-ai-search"),
  api_key: requiredFor("azure-ai-search", "Admin API key, sent as `api-key`; write it as ${AZURE_SEARCH_API_KEY}").meta({ secret: true }),
  index: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, "an Azure AI Search index name is lowercase letters, digits and dashes")
    .optional()
    .describe("Index name, lowercase letters, digits and dashes (default `hierdoc`)"),
  timeout_seconds: storeTimeout(),
});

/**
 * Azure AI Search, selected with `vector_store: { provider: azure-ai-search, endpoint, api_key, index }`.
 * Loads `@azure/search-documents` only when {@link azureSearchStore.create} runs.
 */
export const azureSearchStore = defineStore({
  providers: ["azure-ai-search", "azure-search"],
  description: "Azure AI Search: vector (HNSW) + full text, native hybrid (service-side RRF)",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: true, fullText: true, metadataFilter: true, deleteByFilter: false, persistent: true, maxBatchSize: 500 },
  testedWith: "wire",
  liveTestEnv: "HIERDOC_AZURE_SEARCH_ENDPOINT",
  example: { provider: "azure-ai-search", endpoint: "https://legal.search.windows.net", api_key: "${AZURE_SEARCH_API_KEY}", index: "legal-docs" },
  async create(c) {
    const { AzureSearchStore } = await import("../azure-search-store.js");
    return new AzureSearchStore({ endpoint: c.endpoint, apiKey: c.api_key, indexName: c.index, timeoutMs: c.timeout_seconds * 1000 });
  },
});
