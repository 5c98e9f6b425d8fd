import type { ChunkRecord } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";
import { Field, FixedSizeList, Float32, Schema, Utf8 } from "apache-arrow";

/** Schema-metadata keys recording what the table was built for. */
export const META_EMBEDDER = "hierdoc.embedder_id";
export const META_DIMENSIONS = "hierdoc.dimensions";
export const META_FORMAT = "hierdoc.format";
/** Row layout version; bump when the columns change. */
export const FORMAT_VERSION = "1";

/** One table row: the id, the filter column, the indexed text (full text), the record JSON and the vector. */
export interface LanceRow {
  id: string;
  source_path: string;
  text: string;
  record: string;
  vector: Float32Array;
  [key: string]: unknown;
}

/** The Arrow schema of a hierdoc table, with the embedder and vector size in its metadata. */
export function tableSchema(embedderId: string, dimensions: number): Schema {
  return new Schema(
    [
      new Field("id", new Utf8(), false),
      new Field("source_path", new Utf8(), false),
      new Field("text", new Utf8(), false),
      new Field("record", new Utf8(), false),
      new Field("vector", new FixedSizeList(dimensions, new Field("item", new Float32(), true)), false),
    ],
    new Map([
      [META_EMBEDDER, embedderId],
      [META_DIMENSIONS, String(dimensions)],
      [META_FORMAT, FORMAT_VERSION],
    ]),
  );
}

/** A chunk record and its vector as a row; `indexedText` becomes the `text` column, not part of the JSON. */
export function encodeRow(record: ChunkRecord, vector: Float32Array): LanceRow {
  const { indexedText, ...rest } = record;
  return { id: record.id, source_path: record.sourcePath, text: indexedText, record: JSON.stringify(rest), vector };
}

/**
 * Rebuilds a chunk record from the `id`, `text` and `record` columns.
 * @throws HierdocError E_INDEX_CORRUPT when the JSON does not parse.
 */
export function decodeRow(id: string, text: string | null, json: string | null): ChunkRecord {
  try {
    const rest = JSON.parse(json ?? "") as Omit<ChunkRecord, "indexedText">;
    return { ...rest, indexedText: text ?? "" };
  } catch (err) {
    throw new HierdocError("E_INDEX_CORRUPT", `lancedb row "${id}" holds an invalid record JSON`, {
      cause: err,
      details: { adapter: "lancedb", operation: "decode", id },
    });
  }
}

/** A SQL string literal (single quotes doubled). */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** `column IN ('a', 'b')` for a non-empty list. */
export function sqlIn(column: string, values: readonly string[]): string {
  return `${column} IN (${values.map(sqlString).join(", ")})`;
}
