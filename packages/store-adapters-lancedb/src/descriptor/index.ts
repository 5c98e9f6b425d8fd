import { join, resolve } from "node:path";
import { defineStore, storeConfig } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["lancedb"], {
  path: z.string().min(1).optional().describe("Database folder (default `<index>/lancedb`)"),
  table: z.string().min(1).optional().describe("Table name (default `hierdoc_chunks`)"),
});

/**
 * LanceDB embedded in the process, selected with `vector_store: { provider: lancedb, path, table }`. Loads
 * `@lancedb/lancedb` only when {@link lancedbStore.create} runs.
 */
export const lancedbStore = defineStore({
  providers: ["lancedb"],
  description: "LanceDB files in the index folder: vector + full-text index, native hybrid (RRF)",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: true, fullText: true, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 10_000 },
  testedWith: "real",
  example: { provider: "lancedb", table: "legal_docs" },
  async create(c, { indexDir }) {
    const { LanceDbStore } = await import("../lancedb-store.js");
    return new LanceDbStore({ uri: c.path ? resolve(c.path) : join(indexDir, "lancedb"), table: c.table });
  },
});
