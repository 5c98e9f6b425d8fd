import { z } from "zod";

const providerModel = {
  name: z.string().min(1).optional(),
  base_url: z.string().url().optional(),
  api_key: z.string().min(1).optional(),
};

/** `context_model` of a tool entry: the LLM that writes chunk contexts. */
export const ContextModelSchema = z.strictObject({
  provider: z.enum(["anthropic", "openai", "azure-openai", "openai-compatible"]),
  ...providerModel,
  temperature: z.number().min(0).max(2).default(0),
  api_version: z.string().optional(),
  deployment: z.string().optional(),
});

/** `embedding` of a tool entry. */
export const EmbeddingConfigSchema = z.strictObject({
  provider: z.enum(["glove", "openai", "azure-openai", "openai-compatible", "transformers", "hash"]).default("glove"),
  ...providerModel,
  dimensions: z.number().int().positive().optional(),
  api_version: z.string().optional(),
  deployment: z.string().optional(),
  batch_size: z.number().int().positive().max(2048).optional(),
  /** `transformers`: local model folder (config.json, tokenizer.json, onnx/model*.onnx); nothing is downloaded. */
  model_path: z.string().min(1).optional(),
  /** `transformers`: which weight file to load (`fp32` → onnx/model.onnx, `q8` → onnx/model_quantized.onnx, …). */
  dtype: z.enum(["fp32", "fp16", "q8", "int8", "uint8", "q4", "q4f16", "bnb4"]).optional(),
  /** `transformers`: how token vectors become one vector (`mean` for MiniLM/e5/gte, `cls` for bge). */
  pooling: z.enum(["mean", "cls", "last_token"]).optional(),
  /** `transformers`: L2-normalise vectors (default true). */
  normalize: z.boolean().optional(),
  /** `transformers`: text prepended to queries (`"query: "` for e5). */
  query_prefix: z.string().optional(),
  /** `transformers`: text prepended to documents (`"passage: "` for e5). */
  document_prefix: z.string().optional(),
  /** `transformers`: hub revision (branch, tag or commit) of a `name` hub id. */
  revision: z.string().min(1).optional(),
});

/** `vector_store` of a tool entry; provider-specific keys are validated by the adapter. */
export const VectorStoreConfigSchema = z
  .object({
    provider: z.string().min(1).default("in-memory"),
    path: z.string().optional(),
  })
  .passthrough();

/** `keyword_index` of a tool entry. */
export const KeywordIndexConfigSchema = z.strictObject({
  provider: z.enum(["in-memory", "opensearch"]).default("in-memory"),
  variant: z.enum(["lucene", "okapi"]).default("lucene"),
  endpoint: z.string().url().optional(),
  index_name: z.string().min(1).optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  api_key: z.string().optional(),
  verify_certs: z.boolean().default(true),
  timeout_seconds: z.number().int().min(1).max(120).default(10),
});

/**
 * Default leg weights, tuned on ObliQA dev with the offline GloVe embedder (docs/benchmarks.md): the dense
 * leg adds recall at a low weight and costs precision at a high one; exact-id lookups ("Article 17") are
 * lifted to rank 1 whatever the weight, so the exact weight only matters for ids inside longer questions.
 */
export const DEFAULT_WEIGHTS = { semantic: 0.2, keyword: 1, exact: 0.1 } as const;

/** `search` of a tool entry. */
export const SearchConfigSchema = z.strictObject({
  top_k: z.number().int().min(1).max(100).default(10),
  rrf_k: z.number().positive().default(60),
  /**
   * `convex` (default: min-max normalised scores, weighted and summed) or `rrf` (weighted reciprocal rank
   * fusion). On ObliQA dev convex keeps BM25's confidence where RRF flattens it (docs/benchmarks.md).
   */
  fusion: z.enum(["rrf", "convex"]).default("convex"),
  weights: z
    .strictObject({
      semantic: z.number().min(0).default(DEFAULT_WEIGHTS.semantic),
      keyword: z.number().min(0).default(DEFAULT_WEIGHTS.keyword),
      exact: z.number().min(0).default(DEFAULT_WEIGHTS.exact),
    })
    .default(DEFAULT_WEIGHTS),
});

/**
 * `rerank` of a tool entry: an optional stage after fusion. The router is asked for `candidates` hits,
 * the reranker re-scores them and the best `top_n` (at most the search's top-k) are returned. When the block
 * is absent the offline `learned` reranker runs with the model shipped in @hierdoc/rerank (it beat the
 * `lexical` one on held-out ObliQA dev questions, see packages/rerank/README.md); `provider: none` switches
 * the stage off.
 */
export const RerankConfigSchema = z.strictObject({
  provider: z.enum(["none", "lexical", "learned", "cohere", "voyage", "jina", "llm", "cross-encoder"]).default("none"),
  ...providerModel,
  /** Results kept after reranking; default: the search's top-k. */
  top_n: z.number().int().min(1).max(100).optional(),
  /** Fused hits handed to the reranker. */
  candidates: z.number().int().min(1).max(200).default(50),
  /** `llm`: which API speaks for the model. */
  llm_provider: z.enum(["anthropic", "openai", "openai-compatible"]).optional(),
  /**
   * `cross-encoder`: local model folder (transformers.js layout). `learned`: a `hierdoc-ranker` JSON file
   * (from `hierdoc train-ranker`; default the model shipped with @hierdoc/rerank, trained on ObliQA dev).
   */
  model_path: z.string().min(1).optional(),
  timeout_seconds: z.number().min(1).max(120).default(10),
  max_retries: z.number().int().min(0).max(5).default(2),
});

/** `chunking` of a tool entry. */
export const ChunkingConfigSchema = z.strictObject({
  max_chunk_tokens: z.number().int().min(16).max(8192).default(800),
  /**
   * Size up to which sibling numbered paragraphs merge into one chunk when their section does not fit
   * `max_chunk_tokens` whole (the chunker's default, 350, when absent).
   */
  target_chunk_tokens: z.number().int().min(16).max(8192).optional(),
});

/**
 * `limits` of a tool entry: caps on converting one file (hostile or broken input). A file over a cap fails
 * with one error naming it and the cap; the rest of the ingest goes on.
 */
export const ConverterLimitsConfigSchema = z.strictObject({
  /** Largest input file, in MB. */
  max_file_mb: z.number().positive().max(4096).default(64),
  /** Most pages read from one PDF. */
  max_pages: z.number().int().min(1).max(1_000_000).default(10_000),
  /** Largest total inflated size of a zip-based document (DOCX, PPTX, XLSX, EPUB, ODT), in MB. */
  max_zip_inflated_mb: z.number().positive().max(16_384).default(256),
  /** Most entity declarations accepted in an XML DOCTYPE. */
  max_xml_entities: z.number().int().min(0).max(100_000).default(256),
  /** Longest time converting and parsing one file may take in an ingest worker before it is stopped. */
  timeout_seconds: z.number().positive().max(3600).default(120),
  /** Heap cap of an ingest worker (old generation), in MB; a file that needs more fails and the worker restarts. */
  max_memory_mb: z.number().int().min(64).max(65_536).default(1024),
});

/** Validated converter limits with defaults applied. */
export type ConverterLimitsConfig = z.output<typeof ConverterLimitsConfigSchema>;

/** `ingest` of a tool entry: how files are converted and parsed. */
export const IngestConfigSchema = z.strictObject({
  /**
   * Worker threads that convert and parse files in parallel (each under the `limits` time and memory caps);
   * default min(CPU cores − 1, 4), at least 1. 0 converts in the calling thread, without the time and memory caps.
   */
  workers: z.number().int().min(0).max(64).optional(),
  /**
   * How often a long ingest makes its work durable (flushes the store): after every `files` changed files
   * or `seconds` seconds, whichever comes first (defaults 20 files, 60 s), so a kill loses at most the files
   * since the last checkpoint and the next run resumes after them. `false`: only at the end of the run.
   */
  checkpoint: z.union([z.literal(false), z.strictObject({ files: z.number().int().min(1).optional(), seconds: z.number().positive().optional() })]).optional(),
});

/**
 * One `type: hierarchical_document` tool entry of an agent.yaml, as in the product plan.
 * Unknown keys are errors; every problem is reported with its path.
 */
export const ToolConfigSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]+$/, "use letters, digits, _ or -"),
  type: z.literal("hierarchical_document"),
  description: z.string().optional(),
  source: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  chunking: ChunkingConfigSchema.default({ max_chunk_tokens: 800 }),
  contextual_embeddings: z.boolean().default(true),
  context_model: ContextModelSchema.optional(),
  context_max_tokens: z.number().int().min(1).max(1000).default(100),
  context_concurrency: z.number().int().min(1).max(256).default(10),
  embedding: EmbeddingConfigSchema.default({ provider: "glove" }),
  vector_store: VectorStoreConfigSchema.default({ provider: "in-memory" }),
  keyword_index: KeywordIndexConfigSchema.default({
    provider: "in-memory",
    variant: "lucene",
    verify_certs: true,
    timeout_seconds: 10,
  }),
  search: SearchConfigSchema.default({ top_k: 10, rrf_k: 60, fusion: "convex", weights: { ...DEFAULT_WEIGHTS } }),
  rerank: RerankConfigSchema.default({ provider: "learned", candidates: 50, timeout_seconds: 10, max_retries: 2 }),
  /** Globs of files a folder or glob ingest also takes (any extension, when the file is text). */
  include: z.array(z.string().min(1)).optional(),
  /** Globs of files a folder or glob ingest leaves out (wins over `include` and the supported extensions). */
  exclude: z.array(z.string().min(1)).optional(),
  limits: ConverterLimitsConfigSchema.default({
    max_file_mb: 64,
    max_pages: 10_000,
    max_zip_inflated_mb: 256,
    max_xml_entities: 256,
    timeout_seconds: 120,
    max_memory_mb: 1024,
  }),
  ingest: IngestConfigSchema.default({}),
});

/** A validated tool entry with defaults applied. */
export type ToolConfig = z.output<typeof ToolConfigSchema>;
/** A tool entry as written in YAML (defaults optional). */
export type ToolConfigInput = z.input<typeof ToolConfigSchema>;

/** An agent.yaml: only the `tools` list is read; other keys belong to the agent. */
export const AgentConfigSchema = z
  .object({
    tools: z.array(z.record(z.string(), z.unknown())).min(1),
  })
  .passthrough();

/** One validation problem with its YAML path (`tools[0].chunking.max_chunk_tokens`). */
export interface ConfigProblem {
  path: string;
  message: string;
}

/** Formats zod issue paths the way YAML users read them: `a.b[0].c`. */
export function formatPath(path: ReadonlyArray<PropertyKey>, prefix = ""): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "(root)";
}

/** Turns a zod error into one problem per issue, with YAML paths under `prefix`. */
export function configProblems(error: z.ZodError, prefix = ""): ConfigProblem[] {
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return { path: formatPath(issue.path, prefix), message: `unknown key(s): ${issue.keys.join(", ")}` };
    }
    return { path: formatPath(issue.path, prefix), message: issue.message };
  });
}
