import type { ContextGenerator, ContextRequest, ToolConfig } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";
import { AnthropicBatchContextGenerator } from "./anthropic-batch-context-generator.js";
import { AnthropicContextGenerator } from "./anthropic-context-generator.js";
import { FileContextCache, type ContextCache } from "./context-cache.js";
import type { LlmContextGenerator, LlmContextOptions } from "./llm-context-generator.js";
import { OpenAIContextGenerator } from "./openai-context-generator.js";
import { StructuralContextGenerator } from "./structural-context.js";

/** The part of a tool entry that chooses the context writer. */
export type ContextConfig = Pick<ToolConfig, "contextual_embeddings" | "context_model" | "context_max_tokens" | "context_concurrency">;

/** Options of {@link createContextGenerator}: what only the app knows. */
export interface CreateContextGeneratorOptions {
  /** Folder of the persistent context cache, e.g. `<index>/contexts`; without it contexts are cached in memory only. */
  cacheDir?: string;
  /** A ready cache (wins over `cacheDir`). */
  cache?: ContextCache;
  /** Reads an environment variable (the app passes `(n) => process.env[n]`); default: none are read. */
  env?: (name: string) => string | undefined;
  /** Defined terms a chunk uses, for the structural context. */
  termsFor?: (request: ContextRequest) => string[];
  /** YAML path of the tool entry, for error messages, e.g. `tools[0]`. Default: none. */
  configPath?: string;
  /**
   * Anthropic only: use the Message Batches API (half price). Needs `cacheDir` (the pending-batch state lives
   * there). `maxWaitMs: 0` submits and returns; the next ingest collects the results.
   */
  batch?: boolean | { maxWaitMs?: number; pollIntervalMs?: number };
  /** Further LLM settings (timeout, retry policy, context window, price table, onRetry). */
  llm?: Partial<Omit<LlmContextOptions, "model" | "maxTokens" | "concurrency" | "temperature" | "cache">>;
}

const KEY_VARIABLES = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY", "azure-openai": "AZURE_OPENAI_API_KEY" } as const;

/**
 * The context writer a tool entry asks for: an LLM generator (Anthropic, OpenAI, Azure OpenAI or an
 * OpenAI-compatible endpoint) when `context_model` is set; {@link StructuralContextGenerator} when only
 * `contextual_embeddings` is on; `undefined` when both are off. API keys come from `context_model.api_key`,
 * else ANTHROPIC_API_KEY / OPENAI_API_KEY / AZURE_OPENAI_API_KEY read through `options.env`
 * (Azure's endpoint from `base_url` or AZURE_OPENAI_ENDPOINT; its API version from `api_version` or
 * OPENAI_API_VERSION). An `openai-compatible` endpoint needs `base_url` and `name`; its key is optional.
 * @throws HierdocError E_CONFIG naming the YAML path of a missing key, endpoint or model name
 */
export function createContextGenerator(config: ContextConfig, options: CreateContextGeneratorOptions = {}): ContextGenerator | undefined {
  const model = config.context_model;
  if (!model) return config.contextual_embeddings ? new StructuralContextGenerator({ termsFor: options.termsFor }) : undefined;
  const env = options.env ?? (() => undefined);
  const at = (key: string): string => (options.configPath ? `${options.configPath}.context_model.${key}` : `context_model.${key}`);
  const missing = (key: string, message: string): HierdocError => new HierdocError("E_CONFIG", `${at(key)}: ${message}`, { details: { path: at(key) } });
  const common: Partial<LlmContextOptions> = {
    ...options.llm,
    maxTokens: config.context_max_tokens,
    concurrency: config.context_concurrency,
    temperature: model.temperature,
    cache: options.cache ?? (options.cacheDir ? new FileContextCache(options.cacheDir) : undefined),
  };
  const apiKey = model.api_key ?? (model.provider === "openai-compatible" ? env("OPENAI_API_KEY") : env(KEY_VARIABLES[model.provider]));
  if (!apiKey && model.provider !== "openai-compatible") {
    throw missing("api_key", `no API key for ${model.provider}: set api_key (e.g. \${${KEY_VARIABLES[model.provider]}}) or the ${KEY_VARIABLES[model.provider]} environment variable`);
  }
  switch (model.provider) {
    case "anthropic":
      if (options.batch) {
        if (!options.cacheDir) throw new HierdocError("E_CONFIG", "batch mode needs a cache folder (cacheDir) for its pending-batch state");
        const wait = typeof options.batch === "object" ? options.batch : {};
        return new AnthropicBatchContextGenerator({
          ...wait,
          stateDir: options.cacheDir,
          cache: common.cache,
          model: model.name,
          apiKey,
          baseURL: model.base_url,
          maxTokens: config.context_max_tokens,
          temperature: model.temperature,
          retry: options.llm?.retry,
          contextWindowTokens: options.llm?.contextWindowTokens,
          prices: options.llm?.prices,
        });
      }
      return new AnthropicContextGenerator({ ...common, model: model.name, apiKey, baseURL: model.base_url });
    case "openai":
      return new OpenAIContextGenerator({ ...common, provider: "openai", model: model.name, apiKey, baseURL: model.base_url });
    case "openai-compatible":
      if (!model.base_url) throw missing("base_url", "openai-compatible needs base_url (e.g. http://localhost:11434/v1 for Ollama)");
      if (!model.name) throw missing("name", "openai-compatible needs the model name the server serves");
      return new OpenAIContextGenerator({ ...common, provider: "openai-compatible", model: model.name, apiKey, baseURL: model.base_url });
    case "azure-openai": {
      const endpoint = model.base_url ?? env("AZURE_OPENAI_ENDPOINT");
      if (!endpoint) throw missing("base_url", "azure-openai needs base_url (https://RESOURCE.openai.azure.com/) or AZURE_OPENAI_ENDPOINT");
      const deployment = model.deployment ?? model.name;
      if (!deployment) throw missing("deployment", "azure-openai needs the chat deployment name (deployment or name)");
      return new OpenAIContextGenerator({
        ...common,
        provider: "azure-openai",
        apiKey,
        azure: { endpoint, deployment, apiVersion: model.api_version ?? env("OPENAI_API_VERSION") },
      });
    }
  }
}

/** True when `generator` is an LLM generator (it has `usage()` for the ingest summary and `stats`). */
export function isLlmContextGenerator(generator: ContextGenerator | undefined): generator is LlmContextGenerator | AnthropicBatchContextGenerator {
  return typeof (generator as { usage?: unknown } | undefined)?.usage === "function";
}
