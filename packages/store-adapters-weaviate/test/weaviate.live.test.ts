import { describe, expect, it } from "@jest/globals";
import { closedPort, runStoreConformance } from "@hierdoc/core/testing";
import { WeaviateStore } from "@hierdoc/store-adapters-weaviate";

// Live test against a real Weaviate (1.2x, REST/GraphQL port): HIERDOC_WEAVIATE_URL=http://127.0.0.1:8080
// [HIERDOC_WEAVIATE_API_KEY=…]
const url = process.env.HIERDOC_WEAVIATE_URL;
const apiKey = process.env.HIERDOC_WEAVIATE_API_KEY;

if (url === undefined || url === "") {
  describe.skip("weaviate live server (skipped: HIERDOC_WEAVIATE_URL not set)", () => {
    it("runs the conformance suite against a real Weaviate", () => {
      expect(url).toBeTruthy();
    });
  });
} else {
  let seq = 0;
  runStoreConformance("weaviate (live server)", {
    timeoutMs: 60_000,
    async create() {
      const className = `HierdocConformance${process.pid}x${Date.now()}x${++seq}`;
      const make = (): WeaviateStore => new WeaviateStore({ url, apiKey, className, maxBatchSize: 8 });
      return {
        store: make(),
        reopen: async () => make(),
        async cleanup() {
          await fetch(`${url.replace(/\/+$/, "")}/v1/schema/${className}`, {
            method: "DELETE",
            headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
          }).catch(() => undefined);
        },
      };
    },
    async unreachable() {
      return new WeaviateStore({ url: `http://127.0.0.1:${await closedPort()}`, retries: 1, retryDelayMs: 10 });
    },
  });
}
