import { describe, expect, it } from "@jest/globals";
import { MongoClient } from "mongodb";
import { closedPort, runStoreConformance } from "@hierdoc/core/testing";
import { MongoStore } from "@hierdoc/store-adapters-mongodb";

// Live test against MongoDB Atlas (or a local Atlas deployment: `atlas deployments setup --type local`),
// which has Atlas Search and Vector Search; $rankFusion needs MongoDB 8.0+:
// HIERDOC_MONGODB_URI="mongodb+srv://user:pass@cluster.example.mongodb.net/"
// Atlas Search indexes are built asynchronously and lag writes by about a second, so each test waits for
// its indexes in open() and read-after-write search checks may occasionally fail.
const uri = process.env.HIERDOC_MONGODB_URI;

if (!uri) {
  describe.skip("mongodb live cluster (skipped: HIERDOC_MONGODB_URI not set)", () => {
    it("runs the conformance suite against MongoDB Atlas", () => {
      expect(uri).toBeTruthy();
    });
  });
} else {
  let seq = 0;
  runStoreConformance("mongodb (live Atlas cluster)", {
    timeoutMs: 300_000,
    async create() {
      const collection = `conformance_${process.pid}_${Date.now()}_${++seq}`;
      const make = (): MongoStore => new MongoStore({ uri, database: "hierdoc_test", collection, maxBatchSize: 8 });
      return {
        store: make(),
        reopen: async () => make(),
        async cleanup() {
          const client = new MongoClient(uri);
          const db = client.db("hierdoc_test");
          await db.collection(collection).drop().catch(() => undefined);
          await db.collection(`${collection}__hierdoc_meta`).drop().catch(() => undefined);
          await client.close();
        },
      };
    },
    async unreachable() {
      return new MongoStore({ uri: `mongodb://127.0.0.1:${await closedPort()}/?directConnection=true`, timeoutMs: 500, retries: 1, retryDelayMs: 10 });
    },
  });
}
