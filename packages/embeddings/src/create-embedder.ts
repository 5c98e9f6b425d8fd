import { join } from "node:path";
import { HierdocError, type Embedder } from "@hierdoc/core";
import { GloveEmbedder, type GloveLoadOptions } from "./glove-embedder.js";
import { HashEmbedder } from "./hash-embedder.js";
import { OpenAIEmbedder, type OpenAIEmbedderOptions } from "./openai-embedder.js";
import { TransformersEmbedder, type TransformersEmbedderOptions, type TransformersPooling } from "./transformers-embedder.js";
import type { TransformersDtype } from "./transformers-model-files.js";

/**
 * The `embedding` entry of a tool config (`EmbeddingConfigSchema` output from `@hierdoc/core`, defaults
 * optional). Declared structurally so this package needs no zod types.
 */
export interface EmbeddingConfig {
  provider?: "glove" | "openai" | "azure-openai" | "openai-compatible" | "transformers" | "hash";
  name?: string;
  base_url?: string;
  api_key?: string;
  dimensions?: number;
  api_version?: string;
  deployment?: string;
  batch_size?: number;
  /** `transformers`: local model folder. */
  model_path?: string;
  /** `transformers`: weight file (`fp32`, `q8`, …). */
  dtype?: TransformersDtype;
  /** `transformers`: pooling (`mean`, `cls`, `last_token`). */
  pooling?: TransformersPooling;
  /** `transformers`: L2-normalise (default true). */
  normalize?: boolean;
  /** `transformers`: text prepended to queries. */
  query_prefix?: string;
  /** `transformers`: text prepended to documents. */
  document_prefix?: string;
  /** `transformers`: hub revision. */
  revision?: string;
}

/** Options the application passes to {@link createEmbedder}. */
export interface CreateEmbedderOptions {
  /** GloVe cache folder; default `<home>/.cache/hierdoc`. */
  cacheDir?: string;
  /** Progress messages (GloVe conversion). */
  onProgress?: (message: string) => void;
  /** Extra GloVe options (source JSON, SIF `a`). */
  glove?: Omit<GloveLoadOptions, "cacheDir" | "onProgress">;
  /** Extra OpenAI options (retries, timeouts, custom fetch, token estimate). */
  openai?: Partial<OpenAIEmbedderOptions>;
  /** Extra transformers.js options (offline, download attempts, importer). */
  transformers?: Partial<TransformersEmbedderOptions>;
}

/**
 * Builds the embedder an `embedding:` config entry names: `glove` (default; loads or builds the binary
 * cache), `hash` (tests), `openai`, `azure-openai`, `openai-compatible` (config `name` = model,
 * `base_url`, `api_key`, `dimensions`, `api_version`, `deployment`, `batch_size`), `transformers` (local
 * ONNX: `model_path` folder or `name` hub id, `base_url` hub mirror, `dtype`, `pooling`, `normalize`,
 * `query_prefix`, `document_prefix`, `revision`, `batch_size`, `dimensions`; downloads go to
 * `<cacheDir>/transformers`).
 *
 * @throws HierdocError E_CONFIG for an unknown provider or an incomplete configuration; the errors of
 *   {@link GloveEmbedder.load} and {@link TransformersEmbedder.load}.
 */
export async function createEmbedder(config: EmbeddingConfig = {}, options: CreateEmbedderOptions = {}): Promise<Embedder> {
  const provider = config.provider ?? "glove";
  switch (provider) {
    case "glove":
      return GloveEmbedder.load({ ...options.glove, cacheDir: options.cacheDir, onProgress: options.onProgress });
    case "hash":
      return new HashEmbedder({ dimensions: config.dimensions });
    case "openai":
    case "azure-openai":
    case "openai-compatible": {
      const model = config.name ?? (provider === "openai" ? "text-embedding-3-small" : config.deployment);
      if (!model) {
        throw new HierdocError("E_CONFIG", `embedding.provider ${provider} needs embedding.name (the model)`, {
          details: { path: "embedding.name" },
        });
      }
      if (provider !== "openai" && !config.base_url) {
        throw new HierdocError("E_CONFIG", `embedding.provider ${provider} needs embedding.base_url`, {
          details: { path: "embedding.base_url" },
        });
      }
      return new OpenAIEmbedder({
        ...options.openai,
        provider,
        model,
        dimensions: config.dimensions,
        apiKey: config.api_key,
        baseURL: config.base_url,
        apiVersion: config.api_version,
        deployment: config.deployment,
        batchSize: config.batch_size,
      });
    }
    case "transformers":
      return TransformersEmbedder.load({
        cacheDir: options.cacheDir ? join(options.cacheDir, "transformers") : undefined,
        onProgress: options.onProgress,
        ...options.transformers,
        model: config.name,
        modelPath: config.model_path,
        remoteHost: config.base_url,
        dtype: config.dtype,
        pooling: config.pooling,
        normalize: config.normalize,
        queryPrefix: config.query_prefix,
        documentPrefix: config.document_prefix,
        revision: config.revision,
        batchSize: config.batch_size,
        dimensions: config.dimensions,
      });
    default:
      throw new HierdocError("E_CONFIG", `unknown embedding.provider "${String(provider)}"`, { details: { path: "embedding.provider" } });
  }
}
