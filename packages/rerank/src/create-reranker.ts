import { HierdocError, type Reranker, type ToolConfig } from "@hierdoc/core";
import { CohereReranker } from "./cohere-reranker.js";
import { CrossEncoderReranker } from "./cross-encoder-reranker.js";
import { JinaReranker } from "./jina-reranker.js";
import { LearnedReranker } from "./learned-reranker.js";
import { LexicalReranker } from "./lexical-reranker.js";
import { LlmReranker } from "./llm-reranker.js";
import { VoyageReranker } from "./voyage-reranker.js";

/** The `rerank` block of a tool entry. */
export type RerankConfig = NonNullable<ToolConfig["rerank"]>;

/** Options of {@link createReranker}. */
export interface CreateRerankerOptions {
  /** Reads environment variables (API keys); apps pass `(name) => process.env[name]`. */
  env?: (name: string) => string | undefined;
  /** The tool's `context_model`, used by `provider: llm` when the block names no model of its own. */
  contextModel?: ToolConfig["context_model"];
}

/**
 * Creates the reranker a `rerank` config block names, or undefined for `none` / an absent block. API keys
 * come from `api_key`, else COHERE_API_KEY / VOYAGE_API_KEY / JINA_API_KEY / ANTHROPIC_API_KEY /
 * OPENAI_API_KEY through `env`.
 * @throws HierdocError E_CONFIG for a missing key, model or model folder setting (naming the YAML path).
 */
export function createReranker(config: RerankConfig | undefined, options: CreateRerankerOptions = {}): Reranker | undefined {
  if (!config || config.provider === "none") return undefined;
  const env = options.env ?? (() => undefined);
  // A manifest-recorded config has its secrets redacted to "***": read the key from the environment then.
  if (config.api_key === "***") config = { ...config, api_key: undefined };
  const retry = { timeoutMs: config.timeout_seconds * 1000, maxRetries: config.max_retries };
  switch (config.provider) {
    case "lexical":
      return new LexicalReranker();
    case "learned":
      return new LearnedReranker({ modelPath: config.model_path });
    case "cohere":
      return new CohereReranker({ ...retry, apiKey: config.api_key ?? env("COHERE_API_KEY"), model: config.name, baseUrl: config.base_url });
    case "voyage":
      return new VoyageReranker({ ...retry, apiKey: config.api_key ?? env("VOYAGE_API_KEY"), model: config.name, baseUrl: config.base_url });
    case "jina":
      return new JinaReranker({ ...retry, apiKey: config.api_key ?? env("JINA_API_KEY"), model: config.name, baseUrl: config.base_url });
    case "llm": {
      const cm = options.contextModel;
      const provider = config.llm_provider ?? (cm?.provider === "anthropic" ? "anthropic" : cm?.provider === "openai-compatible" ? "openai-compatible" : cm ? "openai" : undefined);
      const model = config.name ?? cm?.name;
      if (!provider || !model) {
        throw new HierdocError("E_CONFIG", "rerank.name: the llm reranker needs a model (rerank.name + rerank.llm_provider, or a context_model)", {
          details: { path: "rerank.name" },
        });
      }
      const sameAsContext = !config.name && cm;
      const baseUrl = config.base_url ?? (sameAsContext ? cm.base_url : undefined);
      const apiKey = config.api_key ?? (sameAsContext ? cm.api_key : undefined) ?? env(provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY");
      return new LlmReranker({ ...retry, provider, model, baseUrl, apiKey });
    }
    case "cross-encoder":
      if (!config.model_path) {
        throw new HierdocError("E_CONFIG", "rerank.model_path: the cross-encoder reranker needs a local model folder", { details: { path: "rerank.model_path" } });
      }
      return new CrossEncoderReranker({ modelPath: config.model_path });
  }
}
