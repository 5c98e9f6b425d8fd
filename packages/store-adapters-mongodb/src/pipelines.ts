/** Names of the Atlas Search indexes hierdoc creates on the collection. */
export interface IndexNames {
  /** The `vectorSearch` index (vector + `sourcePath` filter field). */
  vector: string;
  /** The `search` (full text) index on `text` and `sourcePath`. */
  text: string;
}

type Stage = Record<string, unknown>;

/** Definitions of the two Atlas Search indexes, as `createSearchIndexes` takes them. */
export function searchIndexDefinitions(names: IndexNames, dimensions: number): Array<{ name: string; type: "vectorSearch" | "search"; definition: Record<string, unknown> }> {
  return [
    {
      name: names.vector,
      type: "vectorSearch",
      definition: {
        fields: [
          { type: "vector", path: "vector", numDimensions: dimensions, similarity: "cosine" },
          { type: "filter", path: "sourcePath" },
        ],
      },
    },
    {
      name: names.text,
      type: "search",
      definition: {
        mappings: {
          dynamic: false,
          fields: { text: { type: "string", analyzer: "lucene.standard" }, sourcePath: { type: "token" } },
        },
      },
    },
  ];
}

/**
 * The `$vectorSearch` stage: approximate k-NN on `vector` with `numCandidates` (default `max(10·limit, 100)`,
 * at most 10 000) and an optional `sourcePath` `$in` pre-filter.
 */
export function vectorSearchStage(index: string, vector: number[], limit: number, sourcePaths?: string[], numCandidates?: number): Stage {
  const stage: Record<string, unknown> = {
    index,
    path: "vector",
    queryVector: vector,
    numCandidates: Math.min(10_000, Math.max(limit, numCandidates ?? Math.max(limit * 10, 100))),
    limit,
  };
  if (sourcePaths !== undefined) stage.filter = { sourcePath: { $in: sourcePaths } };
  return { $vectorSearch: stage };
}

/** The `$search` stage: a `text` query on `text`, filtered with `in` on `sourcePath` when given. */
export function textSearchStage(index: string, query: string, sourcePaths?: string[]): Stage {
  const text = { text: { query, path: "text" } };
  const operator = sourcePaths === undefined ? text : { compound: { must: [text], filter: [{ in: { path: "sourcePath", value: sourcePaths } }] } };
  return { $search: { index, ...operator } };
}

/** Dense top-k: `$vectorSearch`, then `_id` and `vectorSearchScore` (for cosine, `(1 + cos) / 2`). */
export function vectorSearchPipeline(index: string, vector: number[], limit: number, sourcePaths?: string[]): Stage[] {
  return [vectorSearchStage(index, vector, limit, sourcePaths), { $project: { _id: 1, score: { $meta: "vectorSearchScore" } } }];
}

/** Full-text top-k: `$search`, `$limit`, then `_id` and `searchScore` (BM25). */
export function textSearchPipeline(index: string, query: string, limit: number, sourcePaths?: string[]): Stage[] {
  return [textSearchStage(index, query, sourcePaths), { $limit: limit }, { $project: { _id: 1, score: { $meta: "searchScore" } } }];
}

/**
 * Native hybrid in one aggregation: `$rankFusion` (reciprocal rank fusion, MongoDB 8.0+ / Atlas) over a
 * `vector` pipeline (`$vectorSearch` with `candidates` results) and a `text` pipeline (`$search` +
 * `$limit candidates`), weighted, then `$limit` and `_id` + the fused `score`.
 */
export function hybridPipeline(
  names: IndexNames,
  query: string,
  vector: number[],
  limit: number,
  options: { candidates: number; weights?: { vector: number; text: number }; sourcePaths?: string[] },
): Stage[] {
  const { candidates, sourcePaths } = options;
  const weights = options.weights ?? { vector: 1, text: 1 };
  return [
    {
      $rankFusion: {
        input: {
          pipelines: {
            vector: [vectorSearchStage(names.vector, vector, candidates, sourcePaths)],
            text: [textSearchStage(names.text, query, sourcePaths), { $limit: candidates }],
          },
        },
        combination: { weights },
      },
    },
    { $limit: limit },
    { $project: { _id: 1, score: { $meta: "score" } } },
  ];
}
