/** Mapping `_meta` keys recording what the index was built for. */
export const EMBEDDER_KEY = "hierdoc_embedder_id";
export const DIMENSIONS_KEY = "hierdoc_dimensions";

/** Settings of the index hierdoc creates. */
export interface IndexBodyOptions {
  embedderId: string;
  dimensions: number;
  /** HNSW parameters of the `knn_vector` field (Lucene engine). Defaults m 16, ef_construction 128. */
  hnsw?: { m?: number; efConstruction?: number };
  /** BM25 parameters of the `text` field. Defaults k1 1.2, b 0.75. */
  bm25?: { k1?: number; b?: number };
}

/**
 * The index settings and mapping: `index.knn: true`; `vector` as `knn_vector` (HNSW, `cosinesimil`, Lucene
 * engine, which supports efficient filtering); `text` (the record's `indexedText`) analysed with the
 * standard tokenizer, lowercase, English stop words and Porter stemming under BM25; `source_path` and
 * `chunk_id` as keywords; the rest of the record stored unindexed (`enabled: false`); the embedder id and
 * size in `_meta`. `dynamic: strict` rejects documents with stray fields.
 */
export function openSearchIndexBody(options: IndexBodyOptions): Record<string, unknown> {
  return {
    settings: {
      index: {
        knn: true,
        similarity: { default: { type: "BM25", k1: options.bm25?.k1 ?? 1.2, b: options.bm25?.b ?? 0.75 } },
      },
      analysis: {
        filter: { hierdoc_stop: { type: "stop", stopwords: "_english_" } },
        analyzer: { hierdoc: { type: "custom", tokenizer: "standard", filter: ["lowercase", "hierdoc_stop", "porter_stem"] } },
      },
    },
    mappings: {
      dynamic: "strict",
      _meta: { [EMBEDDER_KEY]: options.embedderId, [DIMENSIONS_KEY]: options.dimensions },
      properties: {
        vector: {
          type: "knn_vector",
          dimension: options.dimensions,
          method: {
            name: "hnsw",
            space_type: "cosinesimil",
            engine: "lucene",
            parameters: { m: options.hnsw?.m ?? 16, ef_construction: options.hnsw?.efConstruction ?? 128 },
          },
        },
        text: { type: "text", analyzer: "hierdoc" },
        source_path: { type: "keyword" },
        chunk_id: { type: "keyword" },
        record: { type: "object", enabled: false },
      },
    },
  };
}

/** Weights of the two hybrid legs (each in [0, 1], summing to 1). */
export interface HybridWeights {
  text: number;
  vector: number;
}

/**
 * The search pipeline the hybrid query runs through: a `normalization-processor` with `min_max`
 * normalization and a weighted `arithmetic_mean` (weights in the order of the hybrid sub-queries: text,
 * then vector).
 */
export function hybridPipelineBody(weights: HybridWeights): Record<string, unknown> {
  return {
    description: "hierdoc hybrid search: min_max normalisation, weighted arithmetic mean of BM25 and k-NN",
    phase_results_processors: [
      {
        "normalization-processor": {
          normalization: { technique: "min_max" },
          combination: { technique: "arithmetic_mean", parameters: { weights: [weights.text, weights.vector] } },
        },
      },
    ],
  };
}
