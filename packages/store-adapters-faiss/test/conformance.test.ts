import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runStoreConformance } from "@hierdoc/core/testing";
import { FaissStore } from "@hierdoc/store-adapters-faiss";

runStoreConformance("faiss hnsw (persistent)", {
  async create() {
    const dir = await mkdtemp(join(tmpdir(), "hierdoc-faiss-conf-"));
    return {
      store: new FaissStore({ dir }),
      reopen: async () => new FaissStore({ dir }),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  },
});

runStoreConformance("faiss flat (persistent)", {
  dimensions: 8,
  async create() {
    const dir = await mkdtemp(join(tmpdir(), "hierdoc-faiss-conf-"));
    return {
      store: new FaissStore({ dir, indexType: "flat" }),
      reopen: async () => new FaissStore({ dir, indexType: "flat" }),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  },
});

runStoreConformance("faiss hnsw (not persistent)", {
  async create() {
    return { store: new FaissStore(), cleanup: async () => undefined };
  },
});
