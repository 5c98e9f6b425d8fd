import { join, resolve } from "node:path";
import { defineStore, storeConfig } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["faiss"], {
  path: z.string().min(1).optional().describe("Folder the index is saved to (default `<index>/faiss`)"),
  index_type: z.enum(["hnsw", "flat"]).optional().describe("`hnsw` (default): approximate graph, candidates re-scored exactly; `flat`: exact scan"),
  m: z.number().int().min(2).max(128).optional().describe("HNSW graph degree M (default 16)"),
  ef_search: z.number().int().min(1).max(4096).optional().describe("HNSW candidate list while searching (default 128)"),
  ef_construction: z.number().int().min(1).max(4096).optional().describe("HNSW candidate list while inserting (default 128)"),
  quantization: z.enum(["f32", "f16", "bf16"]).optional().describe("How the graph stores its vectors (default `f32`; scores stay exact)"),
});

/**
 * The plan's `faiss` provider: an in-process HNSW index (usearch, via `@hierdoc/ann`) saved to the index
 * folder. Selected with `vector_store: { provider: faiss, path, index_type, m, ef_search }`. Loads the
 * native library only when {@link faissStore.create} runs.
 */
export const faissStore = defineStore({
  providers: ["faiss"],
  description: "In-process HNSW index (usearch; faiss-node cannot install here) saved to the index folder; app-level fusion",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: false, fullText: false, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 100_000 },
  testedWith: "real",
  example: { provider: "faiss", index_type: "hnsw", m: 16, ef_search: 128 },
  async create(c, { indexDir }) {
    const { FaissStore } = await import("../faiss-store.js");
    return new FaissStore({
      dir: c.path ? resolve(c.path) : join(indexDir, "faiss"),
      indexType: c.index_type,
      m: c.m,
      efSearch: c.ef_search,
      efConstruction: c.ef_construction,
      quantization: c.quantization,
    });
  },
});
