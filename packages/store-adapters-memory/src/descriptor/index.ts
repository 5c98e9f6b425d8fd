import { join, resolve } from "node:path";
import { defineStore, storeConfig } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["in-memory", "memory"], {
  path: z.string().min(1).optional().describe("Folder the store is saved to (default `<index>/store`)"),
  ann: z
    .union([
      z.literal(false),
      z.strictObject({
        threshold: z.number().int().min(0).optional(),
        m: z.number().int().min(2).max(128).optional(),
        ef_search: z.number().int().min(1).max(4096).optional(),
        ef_construction: z.number().int().min(1).max(4096).optional(),
        candidates: z.number().int().min(0).max(16384).optional(),
        quantization: z.enum(["f32", "f16", "bf16", "i8"]).optional(),
        threads: z.number().int().min(0).max(256).optional(),
        search_thread: z.union([z.literal("auto"), z.boolean()]).optional(),
      }),
    ])
    .optional()
    .describe(
      "HNSW index past `threshold` records (default 20000; below it searches are exact): `{threshold, m 16, ef_search 256, ef_construction 128, candidates (least neighbours re-scored per query; 0 = 64), quantization f32|f16|bf16|i8, threads, search_thread auto|true|false (search a memory-mapped graph on a worker thread; auto: from 50000 records on 2+ cores)}`; `false` keeps every search exact",
    ),
});

/**
 * The default store: vectors in memory, saved to the index folder. Selected with `vector_store: { provider: in-memory }`
 * (or no `vector_store` block).
 */
export const memoryStore = defineStore({
  providers: ["in-memory", "memory"],
  description: "In-process search (exact below 20k records, HNSW above), persisted to the index folder (the default; no server)",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: false, fullText: false, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 1_000_000 },
  testedWith: "real",
  example: { provider: "in-memory" },
  async create(c, { indexDir }) {
    const { MemoryStore } = await import("../memory-store.js");
    return new MemoryStore({ dir: c.path ? resolve(c.path) : join(indexDir, "store"), ann: c.ann });
  },
});
