import type { StoreFilter } from "@hierdoc/core";

/** A Cosmos DB NoSQL query with its parameters (the SDK's `SqlQuerySpec`). */
export interface CosmosQuery {
  query: string;
  parameters: Array<{ name: string; value: string | string[] | number[] }>;
}

/** Value of the `kind` field of chunk documents (the container also holds one `meta` document). */
export const CHUNK_KIND = "chunk";
/** Value of the `kind` field of the document recording the embedder and vector size. */
export const META_KIND = "meta";

/** Words of a full-text query as Cosmos full-text functions take them (at most 16: Cosmos limits the terms of one `FullTextScore`). */
export { distinctQueryWords as queryTerms } from "@hierdoc/core";

/** The terms as Cosmos string literals, comma separated (`"right", "erasure"`). Terms are word runs, so JSON quoting is exact. */
function literals(terms: string[]): string {
  return terms.map((t) => JSON.stringify(t)).join(", ");
}

function where(filter: StoreFilter | undefined, params: CosmosQuery["parameters"]): string {
  const parts = [`c.kind = "${CHUNK_KIND}"`];
  if (filter?.sourcePaths !== undefined) {
    params.push({ name: "@sources", value: filter.sourcePaths });
    parts.push("ARRAY_CONTAINS(@sources, c.sourcePath)");
  }
  return parts.join(" AND ");
}

/** Top-k chunks by cosine similarity: `ORDER BY VectorDistance(c.vector, @vector)` (most similar first for cosine). */
export function vectorQuery(vector: Float32Array, topK: number, filter?: StoreFilter): CosmosQuery {
  const parameters: CosmosQuery["parameters"] = [{ name: "@vector", value: Array.from(vector) }];
  const w = where(filter, parameters);
  return {
    query: `SELECT TOP ${topK} c.chunkId, VectorDistance(c.vector, @vector) AS score FROM c WHERE ${w} ORDER BY VectorDistance(c.vector, @vector)`,
    parameters,
  };
}

/** Top-k chunks containing any of `terms`, ranked by BM25: `ORDER BY RANK FullTextScore(c.text, ...)`. */
export function fullTextQuery(terms: string[], topK: number, filter?: StoreFilter): CosmosQuery {
  const parameters: CosmosQuery["parameters"] = [];
  const w = where(filter, parameters);
  const t = literals(terms);
  return {
    query: `SELECT TOP ${topK} c.chunkId FROM c WHERE ${w} AND FullTextContainsAny(c.text, ${t}) ORDER BY RANK FullTextScore(c.text, ${t})`,
    parameters,
  };
}

/**
 * Native hybrid: `ORDER BY RANK RRF(FullTextScore(c.text, ...), VectorDistance(c.vector, @vector))`. The SDK fuses
 * the component results and breaks RRF ties by the order the components return items: full text first, so a
 * chunk that matches the words wins a tie against one that is only near in vector space.
 */
export function hybridQuery(vector: Float32Array, terms: string[], topK: number, filter?: StoreFilter): CosmosQuery {
  const parameters: CosmosQuery["parameters"] = [{ name: "@vector", value: Array.from(vector) }];
  const w = where(filter, parameters);
  return {
    query: `SELECT TOP ${topK} c.chunkId FROM c WHERE ${w} ORDER BY RANK RRF(FullTextScore(c.text, ${literals(terms)}), VectorDistance(c.vector, @vector))`,
    parameters,
  };
}

/** Whole chunk documents by document id. */
export function byIdsQuery(ids: string[]): CosmosQuery {
  return { query: `SELECT * FROM c WHERE c.kind = "${CHUNK_KIND}" AND ARRAY_CONTAINS(@ids, c.id)`, parameters: [{ name: "@ids", value: ids }] };
}

/** Document id and partition key of chunks by document id (for deletes). */
export function keysByIdsQuery(ids: string[]): CosmosQuery {
  return { query: `SELECT c.id, c.sourcePath FROM c WHERE c.kind = "${CHUNK_KIND}" AND ARRAY_CONTAINS(@ids, c.id)`, parameters: [{ name: "@ids", value: ids }] };
}

/** Document ids of every chunk (run with a partition key: one source's chunks). */
export function idsQuery(): CosmosQuery {
  return { query: `SELECT c.id FROM c WHERE c.kind = "${CHUNK_KIND}"`, parameters: [] };
}

/** Every chunk document (paged by the SDK). */
export function scanQuery(): CosmosQuery {
  return { query: `SELECT * FROM c WHERE c.kind = "${CHUNK_KIND}"`, parameters: [] };
}

/** Number of chunks. */
export function countQuery(): CosmosQuery {
  return { query: `SELECT VALUE COUNT(1) FROM c WHERE c.kind = "${CHUNK_KIND}"`, parameters: [] };
}
