import { join, resolve } from "node:path";
import { defineStore, storeConfig } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["in-memory", "memory"], {
  path: z.string().min(1).optional().describe("Folder the store is saved to (default `<index>/store`)"),
});

/**
 * The default store: vectors in memory, saved to the index folder. Selected with `vector_store: { provider: in-memory }`
 * (or no `vector_store` block).
 */
export const memoryStore = defineStore({
  providers: ["in-memory", "memory"],
  description: "In-process exact search, persisted to the index folder (the default; no server)",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: false, fullText: false, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 1_000_000 },
  testedWith: "real",
  example: { provider: "in-memory" },
  async create(c, { indexDir }) {
    const { MemoryStore } = await import("../memory-store.js");
    return new MemoryStore({ dir: c.path ? resolve(c.path) : join(indexDir, "store") });
  },
});
