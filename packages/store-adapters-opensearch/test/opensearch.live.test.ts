import { describe, expect, it } from "@jest/globals";
import { Client } from "@opensearch-project/opensearch";
import { closedPort, runStoreConformance } from "@hierdoc/core/testing";
import { OpenSearchStore } from "@hierdoc/store-adapters-opensearch";

// Live test against a real OpenSearch (≥ 2.10, k-NN + neural-search plugins):
// HIERDOC_OPENSEARCH_URL=http://127.0.0.1:9200 [HIERDOC_OPENSEARCH_USERNAME=admin HIERDOC_OPENSEARCH_PASSWORD=…]
const url = process.env.HIERDOC_OPENSEARCH_URL;
const username = process.env.HIERDOC_OPENSEARCH_USERNAME;
const password = process.env.HIERDOC_OPENSEARCH_PASSWORD ?? "";
const auth = username ? { username, password } : undefined;
const tls = process.env.HIERDOC_OPENSEARCH_INSECURE === "1" ? { rejectUnauthorized: false } : undefined;

if (url === undefined || url === "") {
  describe.skip("opensearch live node (skipped: HIERDOC_OPENSEARCH_URL not set)", () => {
    it("runs the conformance suite against a real OpenSearch", () => {
      expect(url).toBeTruthy();
    });
  });
} else {
  let seq = 0;
  runStoreConformance("opensearch (live node)", {
    timeoutMs: 60_000,
    async create() {
      const index = `hierdoc-conformance-${process.pid}-${Date.now()}-${++seq}`;
      const make = (): OpenSearchStore => new OpenSearchStore({ node: url, auth, tls, index, maxBatchSize: 8 });
      return {
        store: make(),
        reopen: async () => make(),
        async cleanup() {
          const client = new Client({ node: url, auth, ssl: tls });
          await client.indices.delete({ index }).catch(() => undefined);
          await client.searchPipeline.delete({ id: `hierdoc-hybrid-${index}` }).catch(() => undefined);
          await client.close();
        },
      };
    },
    async unreachable() {
      return new OpenSearchStore({ node: `http://127.0.0.1:${await closedPort()}`, retries: 1, retryDelayMs: 10 });
    },
  });
}
