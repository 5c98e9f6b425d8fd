import type { SearchIndex } from "@azure/search-documents";

/** Names used in the index hierdoc creates. */
export const VECTOR_PROFILE = "hierdoc-hnsw";
export const VECTOR_ALGORITHM = "hierdoc-hnsw-cosine";
/** Key of the document holding the embedder id and vector size (`kind = 'meta'`); `=` never occurs in an unpadded base64url chunk key. */
export const META_KEY = "hierdoc=meta";

/**
 * The index definition: key `id` (the chunk id as base64url — Azure keys allow only letters, digits, `_`,
 * `-`, `=`), `chunkId` and `sourcePath` (filterable), `kind` (`chunk` / `meta`, filterable), `text` (the
 * record's `indexedText`, searchable, standard Lucene analyzer, BM25), `record` (the rest of the
 * `ChunkRecord` as JSON, stored only), `vector` (`Collection(Edm.Single)`, HNSW profile with cosine metric),
 * and the meta fields `embedderId` / `dimensions`.
 */
export function azureIndexDefinition(name: string, dimensions: number, hnsw: { m?: number; efConstruction?: number; efSearch?: number } = {}): SearchIndex {
  return {
    name,
    fields: [
      { name: "id", type: "Edm.String", key: true, filterable: true, sortable: true },
      { name: "chunkId", type: "Edm.String", filterable: true },
      { name: "sourcePath", type: "Edm.String", filterable: true },
      { name: "kind", type: "Edm.String", filterable: true },
      { name: "text", type: "Edm.String", searchable: true, analyzerName: "standard.lucene" },
      { name: "record", type: "Edm.String" },
      { name: "embedderId", type: "Edm.String" },
      { name: "dimensions", type: "Edm.Int32" },
      { name: "vector", type: "Collection(Edm.Single)", searchable: true, vectorSearchDimensions: dimensions, vectorSearchProfileName: VECTOR_PROFILE },
    ],
    vectorSearch: {
      algorithms: [{ name: VECTOR_ALGORITHM, kind: "hnsw", parameters: { metric: "cosine", m: hnsw.m ?? 4, efConstruction: hnsw.efConstruction ?? 400, efSearch: hnsw.efSearch ?? 500 } }],
      profiles: [{ name: VECTOR_PROFILE, algorithmConfigurationName: VECTOR_ALGORITHM }],
    },
  };
}

/** Document key of a chunk id: base64url of its UTF-8 bytes, without padding. */
export function documentKey(chunkId: string): string {
  return Buffer.from(chunkId, "utf8").toString("base64url");
}

/** An OData string literal (single quotes doubled). */
export function odataString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
