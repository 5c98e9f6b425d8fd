import { defineStore, requiredFor, serviceUrl, storeConfig, storeTimeout } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["azure-cosmos-nosql", "azure-cosmos"], {
  endpoint: serviceUrl("Account endpoint, `https://ACCOUNT.documents.azure.com:443/`", "azure-cosmos-nosql"),
  key: requiredFor("azure-cosmos-nosql", "Account key (primary or secondary); write it as ${AZURE_COSMOS_KEY}").meta({ secret: true }),
  database: z.string().min(1).optional().describe("Database id, created when missing (default `hierdoc`)"),
  container: z.string().min(1).optional().describe("Container id, created when missing with the vector and full-text policies (default `chunks`)"),
  vector_index: z.enum(["flat", "quantizedFlat", "diskANN"]).optional().describe("Vector index of a new container: `flat` (≤ 505 dims), `quantizedFlat` (default) or `diskANN`"),
  language: z.string().min(2).optional().describe("Full-text language of a new container (default `en-US`)"),
  full_text: z.boolean().default(true).describe("Use the container's full-text index: full text and native hybrid (RRF) in Cosmos; `false` for accounts without full-text search (hierdoc then fuses in the app)"),
  timeout_seconds: storeTimeout(),
});

/**
 * Azure Cosmos DB for NoSQL, selected with `vector_store: { provider: azure-cosmos-nosql, endpoint, key, database,
 * container }`. Loads `@azure/cosmos` only when {@link azureCosmosStore.create} runs.
 */
export const azureCosmosStore = defineStore({
  providers: ["azure-cosmos-nosql", "azure-cosmos"],
  description: "Azure Cosmos DB for NoSQL: vector index + full-text index, native hybrid (ORDER BY RANK RRF)",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: true, fullText: true, metadataFilter: true, deleteByFilter: false, persistent: true, maxBatchSize: 100 },
  testedWith: "wire",
  liveTestEnv: "HIERDOC_COSMOS_ENDPOINT",
  example: { provider: "azure-cosmos-nosql", endpoint: "https://legal.documents.azure.com:443/", key: "${AZURE_COSMOS_KEY}", database: "hierdoc", container: "legal_docs" },
  async create(c) {
    const { CosmosStore } = await import("../cosmos-store.js");
    return new CosmosStore({
      endpoint: c.endpoint,
      key: c.key,
      database: c.database,
      container: c.container,
      vectorIndex: c.vector_index,
      language: c.language,
      fullText: c.full_text,
      timeoutMs: c.timeout_seconds * 1000,
    });
  },
});
