import type { ToolConfig, VectorStoreAdapter } from "@hierdoc/core";
import type { Env } from "./resolve-config.js";
import { resolveStore } from "./store-registry.js";

/**
 * Creates the store adapter a config's `vector_store` block names, through the store registry: the block is
 * validated by the store's own schema, then its descriptor opens the adapter, loading its driver only now
 * (the default in-memory store pulls in no database client). Keys per store: see each adapter's README.
 * @throws HierdocError E_CONFIG for an unknown provider or a bad / missing setting, naming the YAML path.
 */
export async function createStore(config: ToolConfig, indexDir: string, env: Env): Promise<VectorStoreAdapter> {
  const { descriptor, storeConfig } = resolveStore(config);
  return descriptor.create(storeConfig, { indexDir, env });
}
