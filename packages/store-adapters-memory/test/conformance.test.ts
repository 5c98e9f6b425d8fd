import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runStoreConformance } from "@hierdoc/core/testing";
import { MemoryStore } from "@hierdoc/store-adapters-memory";

runStoreConformance("memory (persistent)", {
  async create() {
    const dir = await mkdtemp(join(tmpdir(), "hierdoc-memory-conf-"));
    return {
      store: new MemoryStore({ dir }),
      reopen: async () => new MemoryStore({ dir }),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  },
});

runStoreConformance("memory (not persistent)", {
  dimensions: 8,
  async create() {
    return { store: new MemoryStore(), cleanup: async () => undefined };
  },
});
