import { describe, expect, it } from "@jest/globals";
import { CosmosClient } from "@azure/cosmos";
import { closedPort, runStoreConformance } from "@hierdoc/core/testing";
import { CosmosStore } from "@hierdoc/store-adapters-azure-cosmos";

// Live test against a real Azure Cosmos DB for NoSQL account with vector search and full-text search enabled:
// HIERDOC_COSMOS_ENDPOINT=https://ACCOUNT.documents.azure.com:443/ HIERDOC_COSMOS_KEY=… [HIERDOC_COSMOS_DATABASE=hierdoc_test]
const endpoint = process.env.HIERDOC_COSMOS_ENDPOINT;
const key = process.env.HIERDOC_COSMOS_KEY ?? "";
const database = process.env.HIERDOC_COSMOS_DATABASE ?? "hierdoc_test";

if (endpoint === undefined || endpoint === "") {
  describe.skip("azure-cosmos-nosql live account (skipped: HIERDOC_COSMOS_ENDPOINT not set)", () => {
    it("runs the conformance suite against a real account", () => {
      expect(endpoint).toBeTruthy();
    });
  });
} else {
  let seq = 0;
  runStoreConformance("azure-cosmos-nosql (live account)", {
    timeoutMs: 120_000,
    async create() {
      const container = `conformance_${process.pid}_${Date.now()}_${++seq}`;
      const make = (): CosmosStore => new CosmosStore({ endpoint, key, database, container, maxBatchSize: 8, timeoutMs: 30_000 });
      return {
        store: make(),
        reopen: async () => make(),
        async cleanup() {
          const client = new CosmosClient({ endpoint, key });
          await client.database(database).container(container).delete().catch(() => undefined);
          client.dispose();
        },
      };
    },
    async unreachable() {
      return new CosmosStore({ endpoint: `http://127.0.0.1:${await closedPort()}`, key: key || "a2V5", retries: 1, retryDelayMs: 10 });
    },
  });
}
