import { defineStore, requiredFor, storeConfig, storeTimeout } from "@hierdoc/core";
import { z } from "zod";

const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,115}$/, "a plain SQL identifier: letters, digits and _, not starting with a digit");

const config = storeConfig(["sql-server", "mssql"], {
  connection_string: requiredFor(
    "sql-server",
    "ADO-style connection string (`Server=tcp:HOST,1433;Database=DB;User Id=USER;Password=…;Encrypt=true`) or `mssql://USER:PASSWORD@HOST:1433/DB`; write it as ${SQLSERVER_CONNECTION_STRING}",
  ).meta({ secret: true }),
  table: identifier.optional().describe("Table of the chunks (default `hierdoc_chunks`; a `<table>_meta` table is created beside it)"),
  schema: identifier.optional().describe("Schema (default `dbo`)"),
  full_text: z
    .enum(["none", "contains", "freetext"])
    .default("none")
    .describe("Full-text index on the chunk text: `contains` (CONTAINSTABLE, any word), `freetext` (FREETEXTTABLE) or `none` (default: hierdoc's own keyword index)"),
  full_text_catalog: identifier.optional().describe("Full-text catalog created for the index (default `hierdoc_catalog`)"),
  timeout_seconds: storeTimeout(),
});

/**
 * SQL Server 2025 / Azure SQL, selected with `vector_store: { provider: sql-server, connection_string, table,
 * full_text }`. Loads `mssql` only when {@link sqlServerStore.create} runs.
 */
export const sqlServerStore = defineStore({
  providers: ["sql-server", "mssql"],
  description: "SQL Server 2025 / Azure SQL: VECTOR column, exact VECTOR_DISTANCE; full text via CONTAINSTABLE/FREETEXTTABLE when declared; app-level fusion",
  ...config,
  capabilities: { vectorSearch: true, nativeHybrid: false, fullText: false, metadataFilter: true, deleteByFilter: true, persistent: true, maxBatchSize: 200 },
  testedWith: "driver-double",
  liveTestEnv: "HIERDOC_SQLSERVER_URL",
  example: { provider: "sql-server", connection_string: "${SQLSERVER_CONNECTION_STRING}", table: "legal_docs" },
  async create(c) {
    const { SqlServerStore } = await import("../sql-server-store.js");
    return new SqlServerStore({
      connectionString: c.connection_string,
      table: c.table,
      schema: c.schema,
      fullText: c.full_text,
      fullTextCatalog: c.full_text_catalog,
      timeoutMs: c.timeout_seconds * 1000,
    });
  },
});
