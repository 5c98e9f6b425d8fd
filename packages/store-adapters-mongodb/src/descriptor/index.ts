import { defineStore, requiredFor, storeConfig, storeTimeout } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["mongodb", "mongodb-atlas"], {
  connection_string: requiredFor("mongodb", "Connection string of an Atlas cluster or local Atlas deployment (`mongodb+srv://…`); write it as ${MONGODB_URI}").meta({ secret: true }),
  database: z.string().min(1).optional().describe("Database name (default `hierdoc`)"),
  collection: z.string().min(1).optional().describe("Collection name (default `chunks`)"),
  timeout_seconds: storeTimeout(5).describe("Server selection timeout in seconds: how long an unreachable cluster takes to fail (default 5)"),
});

/**
 * MongoDB Atlas (Vector Search + Atlas Search), selected with `vector_store: { provider: mongodb,
 * connection_string, database, collection }`. Loads the `mongodb` driver only when {@link mongodbStore.create} runs.
 */
export const mongodbStore = defineStore({
  providers: ["mongodb", "mongodb-atlas"],
  description: "MongoDB Atlas: $vectorSearch + $search, native hybrid via $rankFusion",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: true, fullText: true, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 500 },
  testedWith: "wire",
  liveTestEnv: "HIERDOC_MONGODB_URI",
  example: { provider: "mongodb", connection_string: "${MONGODB_URI}", database: "hierdoc", collection: "legal_docs" },
  async create(c) {
    const { MongoStore } = await import("../mongodb-store.js");
    // Each attempt waits the whole server-selection timeout (the driver keeps trying inside it), so one
    // retry keeps an unreachable cluster's failure near 2 × timeout_seconds.
    return new MongoStore({ uri: c.connection_string, database: c.database, collection: c.collection, timeoutMs: c.timeout_seconds * 1000, retries: 1 });
  },
});
