import { HierdocError, defineStore, secretKey, storeConfig, storeTimeout } from "@hierdoc/core";
import { z } from "zod";

const config = storeConfig(["postgres", "postgresql", "pgvector"], {
  connection_string: secretKey("Connection URI (`postgres://USER:PASSWORD@HOST:5432/DB`); default: the DATABASE_URL environment variable"),
  table: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, "a table name is [a-z_][a-z0-9_]*")
    .optional()
    .describe("Chunk table, `[a-z_][a-z0-9_]*` (default `hierdoc_chunks`; the meta table is `{table}_meta`)"),
  schema: z.string().min(1).optional().describe("Schema of the tables (default: the connection's search path)"),
  text_search_config: z.string().min(1).optional().describe("Text search configuration of the tsvector column (default `english`)"),
  timeout_seconds: storeTimeout().describe("Time limit of connecting in seconds (default 10)"),
});

/**
 * PostgreSQL with pgvector, selected with `vector_store: { provider: postgres, connection_string, table }`.
 * Loads `pg` only when {@link postgresStore.create} runs.
 */
export const postgresStore = defineStore({
  providers: ["postgres", "postgresql", "pgvector"],
  description: "PostgreSQL + pgvector (HNSW) with tsvector full text; app-level RRF fusion",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: false, fullText: true, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 500 },
  testedWith: "real",
  example: { provider: "postgres", connection_string: "${DATABASE_URL}", table: "legal_chunks" },
  async create(c, { env }) {
    const connectionString = c.connection_string ?? env("DATABASE_URL");
    if (!connectionString) {
      throw new HierdocError("E_CONFIG", "vector_store.connection_string: required for postgres (e.g. ${DATABASE_URL}), or set the DATABASE_URL environment variable", {
        details: { path: "vector_store.connection_string" },
      });
    }
    const { PostgresStore } = await import("../postgres-store.js");
    return new PostgresStore({ connection: { connectionString, connectionTimeoutMillis: c.timeout_seconds * 1000 }, table: c.table, schema: c.schema, textSearchConfig: c.text_search_config });
  },
});
