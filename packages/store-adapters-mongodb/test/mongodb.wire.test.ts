import { describe, expect, it } from "@jest/globals";
import { closedPort, makeStoreRecords, reopenableStore, runStoreConformance, serveDuringSuite } from "@hierdoc/core/testing";
import { MongoStore } from "@hierdoc/store-adapters-mongodb";
import { FakeMongo } from "@hierdoc/store-adapters-mongodb/testing";

const fake = serveDuringSuite(new FakeMongo());
let seq = 0;

runStoreConformance("mongodb (wire-protocol stand-in)", {
  async create() {
    const collection = `conformance${++seq}`;
    return reopenableStore(
      () => new MongoStore({ uri: fake.url, database: "hierdoc", collection, retryDelayMs: 5, maxBatchSize: 8, timeoutMs: 2000 }),
      () => {
        fake.collections.delete(`hierdoc.${collection}`);
        fake.collections.delete(`hierdoc.${collection}__hierdoc_meta`);
      },
    );
  },
  async unreachable() {
    return new MongoStore({ uri: `mongodb://127.0.0.1:${await closedPort()}/?directConnection=true`, retries: 1, retryDelayMs: 5, timeoutMs: 500 });
  },
});

describe("MongoStore commands (asserted against the MongoDB wire protocol)", () => {
  it("open creates the collection and both Atlas Search indexes; hybrid search is one $rankFusion aggregation", async () => {
    const store = new MongoStore({ uri: fake.url, database: "db1", collection: "chunks", retryDelayMs: 5 });
    try {
      fake.reset();
      await store.open({ embedderId: "hash-4", dimensions: 4 });
      const [created] = fake.find("createSearchIndexes");
      expect(created.db).toBe("db1");
      expect(created.body.indexes.map((i: { name: string; type: string }) => `${i.name}:${i.type}`)).toEqual(["chunks_vector:vectorSearch", "chunks_text:search"]);
      const records = makeStoreRecords(6, { dimensions: 4 });
      const rec0 = records[0].record.id;
      await store.upsert(records);
      expect(fake.find("update").flatMap((c) => c.body.updates).every((u: { upsert: boolean }) => u.upsert)).toBe(true);
      fake.reset();
      const text = (await store.get([rec0]))[0].indexedText;
      const hits = await store.hybridSearch({ text: text ?? "", vector: new Float32Array([1, 0, 0, 0]), topK: 3 });
      expect(hits.length).toBeGreaterThan(0);
      const [agg] = fake.find("aggregate");
      expect(Object.keys(agg.body.pipeline[0])).toEqual(["$rankFusion"]);
      expect(Object.keys(agg.body.pipeline[0].$rankFusion.input.pipelines).sort()).toEqual(["text", "vector"]);
    } finally {
      await store.close();
    }
  });
});
