import { HierdocError, type Embedder } from "@hierdoc/core";
import { GloveEmbedder, type GloveLoadOptions } from "./glove-embedder.js";
import { HashEmbedder } from "./hash-embedder.js";
import { OpenAIEmbedder, type OpenAIEmbedderOptions } from "./openai-embedder.js";

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
}

/**
 * Builds the embedder an `embedding:` config entry names: `glove` (default; loads or builds the binary
 * cache), `hash` (tests), `openai`, `azure-openai`, `openai-compatible` (config `name` = model,
 * `base_url`, `api_key`, `dimensions`, `api_version`, `deployment`, `batch_size`).
 *
 * @throws HierdocError E_CONFIG for `transformers` (not available in this build), an unknown provider, or an
 *   incomplete OpenAI configuration; the errors of {@link GloveEmbedder.load}.
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
      throw new HierdocError("E_CONFIG", "embedding.provider transformers is not available in this build; use glove or an OpenAI-compatible endpoint", {
        details: { path: "embedding.provider" },
      });
    default:
      throw new HierdocError("E_CONFIG", `unknown embedding.provider "${String(provider)}"`, { details: { path: "embedding.provider" } });
  }
}
