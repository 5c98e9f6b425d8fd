import { HierdocError } from "@hierdoc/core";
import { ADAPTER } from "./errors.js";

const IDENT = /^[a-z_][a-z0-9_]{0,47}$/;

/**
 * Validates a lowercase SQL identifier (table, schema, text search configuration) and returns it quoted.
 * @throws HierdocError E_INVALID_ARGUMENT for anything but `[a-z_][a-z0-9_]*` up to 48 characters.
 */
export function quoteIdent(name: string, what: string): string {
  if (!IDENT.test(name)) {
    throw new HierdocError("E_INVALID_ARGUMENT", `postgres ${what} "${name}" must match ${IDENT.source}`, {
      details: { adapter: ADAPTER, operation: "configure" },
    });
  }
  return `"${name}"`;
}

/** pgvector's text form of a vector: `[0.1,0.2,…]`. */
export function toVectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(",")}]`;
}

/** Largest dimension pgvector's HNSW index accepts for `vector`. */
export const HNSW_MAX_DIMENSIONS = 2000;

/** Qualified names of the chunk table, its meta table and its indexes. */
export interface TableNames {
  table: string;
  meta: string;
  hnsw: string;
  gin: string;
  source: string;
  /** Unquoted `schema.table` for messages and the advisory lock key. */
  display: string;
}

/** Builds the quoted names for `table` in `schema` (default search path when omitted). */
export function tableNames(table: string, schema?: string): TableNames {
  const prefix = schema === undefined ? "" : `${quoteIdent(schema, "schema")}.`;
  quoteIdent(table, "table");
  return {
    table: `${prefix}"${table}"`,
    meta: `${prefix}"${table}_meta"`,
    hnsw: `"${table}_embedding_hnsw"`,
    gin: `"${table}_tsv_gin"`,
    source: `"${table}_source_path"`,
    display: schema === undefined ? table : `${schema}.${table}`,
  };
}

/** DDL creating the chunk table (vector, generated tsvector, JSONB record) and its indexes. */
export function createTableSql(n: TableNames, dimensions: number, textConfig: string): string[] {
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${n.table} (
      id text PRIMARY KEY,
      source_path text NOT NULL,
      embedding vector(${dimensions}) NOT NULL,
      indexed_text text NOT NULL,
      record jsonb NOT NULL,
      tsv tsvector GENERATED ALWAYS AS (to_tsvector('${textConfig}'::regconfig, indexed_text)) STORED
    )`,
    `CREATE INDEX IF NOT EXISTS ${n.gin} ON ${n.table} USING gin (tsv)`,
    `CREATE INDEX IF NOT EXISTS ${n.source} ON ${n.table} (source_path)`,
  ];
  if (dimensions <= HNSW_MAX_DIMENSIONS) {
    statements.push(`CREATE INDEX IF NOT EXISTS ${n.hnsw} ON ${n.table} USING hnsw (embedding vector_cosine_ops)`);
  }
  return statements;
}

/** DDL of the meta table: one row per key (embedder_id, dimensions, text_config, schema_version). */
export function createMetaSql(n: TableNames): string {
  return `CREATE TABLE IF NOT EXISTS ${n.meta} (key text PRIMARY KEY, value text NOT NULL)`;
}

/** Batched idempotent upsert from parallel arrays ($1 ids, $2 sources, $3 vectors, $4 texts, $5 records). */
export function upsertSql(n: TableNames, dimensions: number): string {
  return `INSERT INTO ${n.table} (id, source_path, embedding, indexed_text, record)
    SELECT u.id, u.source_path, u.embedding::vector(${dimensions}), u.indexed_text, u.record
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[]) AS u(id, source_path, embedding, indexed_text, record)
    ON CONFLICT (id) DO UPDATE SET source_path = EXCLUDED.source_path, embedding = EXCLUDED.embedding,
      indexed_text = EXCLUDED.indexed_text, record = EXCLUDED.record`;
}
