import type OpenAI from "openai";
import { LlmContextGenerator, type LlmCallInput, type LlmCompletion, type LlmContextOptions } from "./llm-context-generator.js";
import { PROMPT_TEMPLATE_VERSION, renderContextPrompt } from "./prompt.js";
import { classifySdkError, NO_SDK_ERRORS, type ClassifiedFailure, type SdkErrorClasses } from "./sdk-errors.js";
import { loadOpenAI } from "./sdk-loader.js";

/** Azure OpenAI settings: the resource endpoint, API version and deployment (used as the model). */
export interface AzureContextSettings {
  /** `https://RESOURCE.openai.azure.com/` */
  endpoint: string;
  /** Default `2024-10-21`. */
  apiVersion?: string;
  /** The chat deployment name. */
  deployment: string;
}

/** Options of {@link OpenAIContextGenerator}. */
export interface OpenAIContextOptions extends Partial<LlmContextOptions> {
  /** `openai` (default), `openai-compatible` (Ollama, vLLM, llama.cpp server, LM Studio) or `azure-openai`. */
  provider?: "openai" | "openai-compatible" | "azure-openai";
  /** Default `gpt-4o-mini` for `openai`; required for `openai-compatible`; the deployment for Azure. */
  model?: string;
  apiKey?: string;
  /** Endpoint of an OpenAI-compatible server, e.g. `http://localhost:11434/v1` (Ollama). */
  baseURL?: string;
  /** Azure OpenAI instead of api.openai.com (uses the SDK's AzureOpenAI client). */
  azure?: AzureContextSettings;
  /**
   * Which request field carries the output limit. Default `max_completion_tokens` for `openai` (required by
   * newer models), `max_tokens` elsewhere (what most compatible servers and Azure API versions accept).
   */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** A ready client (its retries are still disabled per call). */
  client?: OpenAI;
}

/** Default OpenAI model for contexts. */
export const DEFAULT_OPENAI_CONTEXT_MODEL = "gpt-4o-mini";

/**
 * Contexts from a Chat Completions model: OpenAI, Azure OpenAI, or any OpenAI-compatible server. The plan's
 * prompt is one user message with the document first, so the providers' automatic prefix caching (OpenAI:
 * prompts ≥ 1024 tokens) serves the later chunks of a document; cached tokens are reported as cache reads.
 * The SDK loads on the first call.
 */
export class OpenAIContextGenerator extends LlmContextGenerator {
  readonly id: string;
  readonly provider: "openai" | "openai-compatible" | "azure-openai";
  private client?: OpenAI;
  private errors: SdkErrorClasses = NO_SDK_ERRORS;
  private readonly options: OpenAIContextOptions;
  private readonly maxTokensField: "max_tokens" | "max_completion_tokens";

  /** @throws HierdocError E_CONFIG when `openai-compatible` has no model name */
  constructor(options: OpenAIContextOptions = {}) {
    const provider = options.provider ?? (options.azure ? "azure-openai" : "openai");
    const model = options.model ?? options.azure?.deployment ?? (provider === "openai" ? DEFAULT_OPENAI_CONTEXT_MODEL : "");
    super({ ...options, model }, provider === "openai-compatible" ? 8192 : 120_000);
    this.provider = provider;
    this.id = `${provider}:${this.model}:${PROMPT_TEMPLATE_VERSION}`;
    this.maxTokensField = options.maxTokensField ?? (provider === "openai" ? "max_completion_tokens" : "max_tokens");
    this.options = options;
    this.client = options.client;
  }

  /** The client (given, or created with the SDK loaded on first use). */
  private async connect(): Promise<OpenAI> {
    const sdk = await loadOpenAI();
    this.errors = sdk;
    if (this.client) return this.client;
    const { azure, apiKey, baseURL } = this.options;
    const common = { apiKey: apiKey ?? "", maxRetries: 0, timeout: this.timeoutMs };
    this.client = azure
      ? new sdk.AzureOpenAI({ ...common, endpoint: azure.endpoint, apiVersion: azure.apiVersion ?? "2024-10-21", deployment: azure.deployment })
      : new sdk.OpenAI({ ...common, apiKey: apiKey ?? (this.provider === "openai-compatible" ? "not-needed" : ""), baseURL: baseURL ?? null });
    return this.client;
  }

  protected async complete(input: LlmCallInput, options: { signal?: AbortSignal; timeoutMs: number }): Promise<LlmCompletion> {
    const client = await this.connect();
    const completion = await client.chat.completions.create(
      {
        model: this.model,
        [this.maxTokensField]: this.maxTokens,
        ...(this.temperature === null ? {} : { temperature: this.temperature }),
        messages: [
          { role: "system", content: input.system },
          { role: "user", content: renderContextPrompt(input.prompt) },
        ],
      },
      { signal: options.signal, timeout: options.timeoutMs, maxRetries: 0 },
    );
    if (!Array.isArray(completion.choices)) throw new SyntaxError("response has no choices");
    const text = completion.choices[0]?.message?.content ?? "";
    const u = completion.usage;
    const cached = u?.prompt_tokens_details?.cached_tokens ?? 0;
    return {
      text,
      usage: {
        inputTokens: Math.max(0, (u?.prompt_tokens ?? 0) - cached),
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: cached,
        outputTokens: u?.completion_tokens ?? 0,
      },
    };
  }

  protected classify(err: unknown): ClassifiedFailure {
    return classifySdkError(err, this.errors, this.provider, "chat.completions.create");
  }
}
