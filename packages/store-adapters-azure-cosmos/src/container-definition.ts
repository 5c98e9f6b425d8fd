/** Vector index kinds of Cosmos DB NoSQL (`flat` ≤ 505 dimensions; `quantizedFlat` and `diskANN` ≤ 4096). */
export type CosmosVectorIndexType = "flat" | "quantizedFlat" | "diskANN";

/** What the container is created with. */
export interface ContainerSpec {
  id: string;
  dimensions: number;
  vectorIndex: CosmosVectorIndexType;
  /** Full-text language (`en-US`, `de-DE`, …). */
  language: string;
}

/**
 * The body of the container create request: partition key `/sourcePath` (deleting a source is a
 * single-partition query), a float32 cosine vector embedding policy and vector index on `/vector`, a
 * full-text policy and full-text index on `/text`, and `/vector` and `/record` excluded from the range
 * index (they are never filtered on; indexing them only costs RUs).
 */
export function containerDefinition(spec: ContainerSpec): Record<string, unknown> {
  return {
    id: spec.id,
    partitionKey: { paths: ["/sourcePath"], kind: "Hash", version: 2 },
    vectorEmbeddingPolicy: {
      vectorEmbeddings: [{ path: "/vector", dataType: "float32", distanceFunction: "cosine", dimensions: spec.dimensions }],
    },
    fullTextPolicy: { defaultLanguage: spec.language, fullTextPaths: [{ path: "/text", language: spec.language }] },
    indexingPolicy: {
      indexingMode: "consistent",
      automatic: true,
      includedPaths: [{ path: "/*" }],
      excludedPaths: [{ path: '/"_etag"/?' }, { path: "/vector/*" }, { path: "/record/*" }],
      vectorIndexes: [{ path: "/vector", type: spec.vectorIndex }],
      fullTextIndexes: [{ path: "/text" }],
    },
  };
}

/** The vector size and distance an existing container declares for `/vector`, if any. */
export function declaredVector(definition: unknown): { dimensions?: number; distanceFunction?: string } | undefined {
  const list = (definition as { vectorEmbeddingPolicy?: { vectorEmbeddings?: Array<Record<string, unknown>> } } | undefined)?.vectorEmbeddingPolicy?.vectorEmbeddings;
  const v = list?.find((e) => e.path === "/vector");
  if (v === undefined) return undefined;
  return { dimensions: typeof v.dimensions === "number" ? v.dimensions : undefined, distanceFunction: typeof v.distanceFunction === "string" ? v.distanceFunction : undefined };
}

/** True when the container declares a full-text index on `/text`. */
export function hasFullTextIndex(definition: unknown): boolean {
  const list = (definition as { indexingPolicy?: { fullTextIndexes?: Array<{ path?: string }> } } | undefined)?.indexingPolicy?.fullTextIndexes;
  return Array.isArray(list) && list.some((i) => i.path === "/text");
}
