import { describe, expect, it } from "@jest/globals";
import { closedPort, runStoreConformance } from "@hierdoc/core/testing";
import { QdrantClient } from "@qdrant/js-client-rest";
import { QdrantStore } from "@hierdoc/store-adapters-qdrant";

// Live test against a real Qdrant (≥ 1.16): HIERDOC_QDRANT_URL=http://127.0.0.1:6333 [HIERDOC_QDRANT_API_KEY=…]
const url = process.env.HIERDOC_QDRANT_URL;
const apiKey = process.env.HIERDOC_QDRANT_API_KEY;

if (url === undefined || url === "") {
  describe.skip("qdrant live server (skipped: HIERDOC_QDRANT_URL not set)", () => {
    it("runs the conformance suite against a real Qdrant", () => {
      expect(url).toBeTruthy();
    });
  });
} else {
  let seq = 0;
  runStoreConformance("qdrant (live server)", {
    timeoutMs: 60_000,
    async create() {
      const collection = `hierdoc_conformance_${process.pid}_${Date.now()}_${++seq}`;
      const make = (): QdrantStore => new QdrantStore({ url, apiKey, collection, maxBatchSize: 8 });
      return {
        store: make(),
        reopen: async () => make(),
        async cleanup() {
          await new QdrantClient({ url, apiKey, checkCompatibility: false }).deleteCollection(collection).catch(() => undefined);
        },
      };
    },
    async unreachable() {
      return new QdrantStore({ url: `http://127.0.0.1:${await closedPort()}`, retries: 1, retryDelayMs: 10 });
    },
  });
}
