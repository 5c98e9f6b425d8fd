import { join, resolve } from "node:path";
import { HierdocError, type ToolConfig, type VectorStoreAdapter } from "@hierdoc/core";
import type { Env } from "./resolve-config.js";

/** Store providers this runtime can open (`vector_store.provider`). */
export const STORE_PROVIDERS = ["in-memory", "postgres", "chromadb", "lancedb"] as const;

type StoreConfig = ToolConfig["vector_store"] & Record<string, unknown>;

/**
 * Creates the store adapter a config names. Drivers load lazily, so the default in-memory store pulls
 * in no database client. Keys per provider: in-memory `path` (default `<index>/store`); postgres
 * `connection_string` (default env `DATABASE_URL`), `table`; chromadb `url`, `collection`; lancedb
 * `path` (default `<index>/lancedb`), `table`.
 * @throws HierdocError E_CONFIG for an unknown provider or a missing setting, naming the YAML path.
 */
export async function createStore(config: ToolConfig, indexDir: string, env: Env): Promise<VectorStoreAdapter> {
  const vs = config.vector_store as StoreConfig;
  const str = (key: string): string | undefined => (typeof vs[key] === "string" ? (vs[key] as string) : undefined);
  switch (vs.provider) {
    case "in-memory":
    case "memory": {
      const { MemoryStore } = await import("@hierdoc/store-adapters-memory");
      return new MemoryStore({ dir: vs.path ? resolve(vs.path) : join(indexDir, "store") });
    }
    case "postgres": {
      const connectionString = str("connection_string") ?? env("DATABASE_URL");
      if (!connectionString) {
        throw new HierdocError("E_CONFIG", "vector_store.connection_string: set it (e.g. ${DATABASE_URL}) or the DATABASE_URL environment variable", {
          details: { path: "vector_store.connection_string" },
        });
      }
      const { PostgresStore } = await import("@hierdoc/store-adapters-postgres");
      return new PostgresStore({ connection: { connectionString }, table: str("table") });
    }
    case "chromadb":
    case "chroma": {
      const { ChromaStore } = await import("@hierdoc/store-adapters-chroma");
      return new ChromaStore({ url: str("url"), collection: str("collection") });
    }
    case "lancedb": {
      const { LanceDbStore } = await import("@hierdoc/store-adapters-lancedb");
      return new LanceDbStore({ uri: vs.path ? resolve(vs.path) : join(indexDir, "lancedb"), table: str("table") });
    }
    default:
      throw new HierdocError("E_CONFIG", `vector_store.provider: "${vs.provider}" is not available here (available: ${STORE_PROVIDERS.join(", ")})`, {
        details: { path: "vector_store.provider" },
      });
  }
}
