/**
 * The T-SQL the SQL Server adapter sends, one function per statement. Table and schema names are validated
 * identifiers written in brackets; every value is a parameter (`@name`). Lists of ids, source paths and rows
 * travel as one JSON parameter read with `OPENJSON`, so each call is one round trip whatever its size.
 */

/** How the full-text leg queries the full-text index: `CONTAINSTABLE` (word OR word) or `FREETEXTTABLE` (stemmed, thesaurus). */
export type FullTextMode = "none" | "contains" | "freetext";

/** Where the chunks live. */
export interface SqlTable {
  schema: string;
  table: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,115}$/;

/** True for a name the adapter accepts as a schema or table (letters, digits, `_`; not starting with a digit). */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

function q(name: string): string {
  if (!isIdentifier(name)) throw new Error(`not a valid SQL identifier: ${name}`);
  return `[${name}]`;
}

/** `[schema].[table]`. */
export function tableName(t: SqlTable): string {
  return `${q(t.schema)}.${q(t.table)}`;
}

/** `[schema].[table_meta]`: embedder id and vector size of the index. */
export function metaName(t: SqlTable): string {
  return `${q(t.schema)}.${q(`${t.table}_meta`)}`;
}

/**
 * Creates the chunk table (SQL Server 2025 `VECTOR(n)` column; ids and source paths in a binary collation, so
 * ids differing only in case stay distinct and keyset paging follows code points), its source index and the
 * meta table when missing. Parameters: none.
 */
export function createTables(t: SqlTable, dimensions: number): string {
  return [
    `IF OBJECT_ID(N'${t.schema}.${t.table}', N'U') IS NULL`,
    `CREATE TABLE ${tableName(t)} (id NVARCHAR(450) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT ${q(`PK_${t.table}`)} PRIMARY KEY, source_path NVARCHAR(450) COLLATE Latin1_General_100_BIN2 NOT NULL, indexed_text NVARCHAR(MAX) NOT NULL, record NVARCHAR(MAX) NOT NULL, embedding VECTOR(${dimensions}) NOT NULL);`,
    `IF INDEXPROPERTY(OBJECT_ID(N'${t.schema}.${t.table}'), N'IX_${t.table}_source', 'IndexID') IS NULL`,
    `CREATE INDEX ${q(`IX_${t.table}_source`)} ON ${tableName(t)} (source_path);`,
    `IF OBJECT_ID(N'${t.schema}.${t.table}_meta', N'U') IS NULL`,
    `CREATE TABLE ${metaName(t)} (name NVARCHAR(100) NOT NULL PRIMARY KEY, value NVARCHAR(400) NOT NULL);`,
  ].join("\n");
}

/**
 * Creates the full-text catalog and the full-text index on `indexed_text` (keyed by the primary key, change
 * tracking AUTO) when missing. Parameters: none.
 */
export function createFullTextIndex(t: SqlTable, catalog: string): string {
  return [
    `IF NOT EXISTS (SELECT 1 FROM sys.fulltext_catalogs WHERE name = N'${catalog}')`,
    `CREATE FULLTEXT CATALOG ${q(catalog)};`,
    `IF NOT EXISTS (SELECT 1 FROM sys.fulltext_indexes WHERE object_id = OBJECT_ID(N'${t.schema}.${t.table}'))`,
    `CREATE FULLTEXT INDEX ON ${tableName(t)} (indexed_text) KEY INDEX ${q(`PK_${t.table}`)} ON ${q(catalog)} WITH CHANGE_TRACKING AUTO;`,
  ].join("\n");
}

/** Reads the meta rows (`name`, `value`). Parameters: none. */
export function readMeta(t: SqlTable): string {
  return `SELECT name, value FROM ${metaName(t)};`;
}

/** Inserts a meta row. Parameters: `@name`, `@value`. */
export function insertMeta(t: SqlTable): string {
  return `INSERT INTO ${metaName(t)} (name, value) VALUES (@name, @value);`;
}

/**
 * Inserts or replaces rows from `@rows`, a JSON array of `{ id, sourcePath, text, record, vector }` (the vector
 * as a JSON array, cast to `VECTOR(n)`).
 */
export function mergeRows(t: SqlTable, dimensions: number): string {
  return [
    `MERGE ${tableName(t)} WITH (HOLDLOCK) AS target`,
    `USING (SELECT id, source_path, indexed_text, record, CAST(embedding AS VECTOR(${dimensions})) AS embedding FROM OPENJSON(@rows) WITH (id NVARCHAR(450) '$.id', source_path NVARCHAR(450) '$.sourcePath', indexed_text NVARCHAR(MAX) '$.text', record NVARCHAR(MAX) '$.record' AS JSON, embedding NVARCHAR(MAX) '$.vector' AS JSON)) AS src`,
    `ON target.id = src.id`,
    `WHEN MATCHED THEN UPDATE SET source_path = src.source_path, indexed_text = src.indexed_text, record = src.record, embedding = src.embedding`,
    `WHEN NOT MATCHED THEN INSERT (id, source_path, indexed_text, record, embedding) VALUES (src.id, src.source_path, src.indexed_text, src.record, src.embedding);`,
  ].join("\n");
}

/** Records (`id`, `record` JSON) of the ids in `@ids` (a JSON array). */
export function selectByIds(t: SqlTable): string {
  return `SELECT id, record FROM ${tableName(t)} WHERE id IN (SELECT value FROM OPENJSON(@ids));`;
}

/** Deletes the ids in `@ids` (a JSON array). */
export function deleteByIds(t: SqlTable): string {
  return `DELETE FROM ${tableName(t)} WHERE id IN (SELECT value FROM OPENJSON(@ids));`;
}

/** Deletes the rows of `@source`. */
export function deleteBySource(t: SqlTable): string {
  return `DELETE FROM ${tableName(t)} WHERE source_path = @source;`;
}

/** Number of rows (`n`). */
export function countRows(t: SqlTable): string {
  return `SELECT COUNT_BIG(*) AS n FROM ${tableName(t)};`;
}

/** One keyset page: the first `@limit` rows with `id > @after`, by id. */
export function scanPage(t: SqlTable): string {
  return `SELECT TOP (@limit) id, record FROM ${tableName(t)} WHERE id > @after ORDER BY id;`;
}

const SOURCE_FILTER = "source_path IN (SELECT value FROM OPENJSON(@sources))";

/**
 * The `@k` rows nearest to `@vector` (a JSON array cast to `VECTOR(n)`) by cosine distance, with
 * `distance`; `filtered` adds `source_path IN OPENJSON(@sources)`.
 */
export function vectorSearch(t: SqlTable, dimensions: number, filtered: boolean): string {
  return [
    `SELECT TOP (@k) id, VECTOR_DISTANCE('cosine', embedding, CAST(@vector AS VECTOR(${dimensions}))) AS distance FROM ${tableName(t)}`,
    filtered ? `WHERE ${SOURCE_FILTER}` : "",
    `ORDER BY distance;`,
  ].filter(Boolean).join("\n");
}

/**
 * The `@k` best rows of the full-text index for `@query` (a CONTAINSTABLE search condition, or free text for
 * FREETEXTTABLE), with the engine's `RANK` as `score`.
 */
export function fullTextSearch(t: SqlTable, mode: Exclude<FullTextMode, "none">, filtered: boolean): string {
  const fn = mode === "contains" ? "CONTAINSTABLE" : "FREETEXTTABLE";
  return [
    `SELECT TOP (@k) c.id, ft.[RANK] AS score FROM ${fn}(${tableName(t)}, indexed_text, @query) AS ft`,
    `JOIN ${tableName(t)} AS c ON c.id = ft.[KEY]`,
    filtered ? `WHERE c.${SOURCE_FILTER}` : "",
    `ORDER BY ft.[RANK] DESC, c.id;`,
  ].filter(Boolean).join("\n");
}

/** Population state of the catalog (`status`, 0 = idle). */
export function catalogStatus(catalog: string): string {
  return `SELECT FULLTEXTCATALOGPROPERTY(N'${catalog}', 'PopulateStatus') AS status;`;
}

/** The words of a full-text query (lower-cased letter/digit runs, distinct, at most 16). */
export { distinctQueryWords as queryWords } from "@hierdoc/core";

/** A CONTAINSTABLE search condition matching any of the words: `"right" OR "erasure"` (words are letter/digit runs, so quoting is exact). */
export function containsCondition(words: string[]): string {
  return words.map((w) => `"${w}"`).join(" OR ");
}
