import type Anthropic from "@anthropic-ai/sdk";
import { LlmContextGenerator, type LlmCallInput, type LlmCompletion, type LlmContextOptions } from "./llm-context-generator.js";
import { PROMPT_TEMPLATE_VERSION } from "./prompt.js";
import { classifySdkError, NO_SDK_ERRORS, type ClassifiedFailure, type SdkErrorClasses } from "./sdk-errors.js";
import { loadAnthropic } from "./sdk-loader.js";

/** Options of {@link AnthropicContextGenerator}. */
export interface AnthropicContextOptions extends Partial<LlmContextOptions> {
  /** Default {@link DEFAULT_ANTHROPIC_CONTEXT_MODEL}. */
  model?: string;
  apiKey?: string;
  /** Another Messages-API endpoint (a proxy, a gateway, a test server). */
  baseURL?: string;
  /** A ready client (its retries are still disabled per call). */
  client?: Anthropic;
}

/**
 * Default Anthropic model for contexts: the smallest Haiku the installed SDK (1.16) lists. The plan's
 * `claude-3-haiku-20240307` is no longer in the SDK's model list; name it explicitly to use it where served.
 */
export const DEFAULT_ANTHROPIC_CONTEXT_MODEL = "claude-haiku-4-5";

/**
 * Contexts from Claude over the Messages API with the plan's prompt. The document goes in its own content
 * block marked `cache_control: {type: "ephemeral"}`, so the first chunk of a document writes the prompt
 * cache and every later chunk pays the cached-read price (documents under the model's minimum cacheable
 * length, 1024–4096 tokens by model, are not cached by Anthropic). Temperature 0, `max_tokens` =
 * `context_max_tokens`. SDK 1.16 no longer types `temperature`: it is sent as an extra field, and when the
 * API answers 400 naming `temperature`, the call is repeated once without it and later calls leave it out.
 * The SDK loads on the first call.
 */
export class AnthropicContextGenerator extends LlmContextGenerator {
  readonly id: string;
  readonly provider = "anthropic";
  private client?: Anthropic;
  private errors: SdkErrorClasses = NO_SDK_ERRORS;
  private readonly options: AnthropicContextOptions;
  private sendTemperature = true;

  /** @throws HierdocError E_CONFIG when no model name results */
  constructor(options: AnthropicContextOptions = {}) {
    super({ ...options, model: options.model ?? DEFAULT_ANTHROPIC_CONTEXT_MODEL }, 180_000);
    this.id = `anthropic:${this.model}:${PROMPT_TEMPLATE_VERSION}`;
    this.options = options;
    this.client = options.client;
  }

  protected async complete(input: LlmCallInput, options: { signal?: AbortSignal; timeoutMs: number }): Promise<LlmCompletion> {
    const sdk = await loadAnthropic();
    this.errors = sdk;
    const client = (this.client ??= new sdk.Anthropic({ apiKey: this.options.apiKey ?? null, baseURL: this.options.baseURL ?? null, maxRetries: 0, timeout: this.timeoutMs }));
    const send = (withTemperature: boolean) =>
      client.messages.create(anthropicMessageParams(this.model, this.maxTokens, withTemperature ? this.temperature : null, input), {
        signal: options.signal,
        timeout: options.timeoutMs,
        maxRetries: 0,
      });
    try {
      return anthropicCompletion(await send(this.sendTemperature));
    } catch (err) {
      const rejectsTemperature = err instanceof sdk.APIError && err.status === 400 && /temperature/i.test(err.message);
      if (!rejectsTemperature || !this.sendTemperature || this.temperature === null) throw err;
      this.sendTemperature = false;
      return anthropicCompletion(await send(false));
    }
  }

  protected classify(err: unknown): ClassifiedFailure {
    return classifySdkError(err, this.errors, this.provider, "messages.create");
  }
}

/**
 * The Messages API body for one chunk: system text, the document block marked `cache_control: ephemeral`,
 * then the chunk block. SDK 1.16 no longer types `temperature`; the API still reads it, so it is added as an
 * extra field (left out when `temperature` is null).
 */
export function anthropicMessageParams(
  model: string,
  maxTokens: number,
  temperature: number | null,
  input: LlmCallInput,
): Anthropic.MessageCreateParamsNonStreaming & { temperature?: number } {
  return {
    model,
    max_tokens: maxTokens,
    ...(temperature === null ? {} : { temperature }),
    system: input.system,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: input.prompt.documentBlock, cache_control: { type: "ephemeral" } },
          { type: "text", text: input.prompt.chunkBlock },
        ],
      },
    ],
  };
}

/**
 * Text and normalised usage of a Messages API answer.
 * @throws SyntaxError when the answer has no content or usage (a malformed body; retryable)
 */
export function anthropicCompletion(message: Anthropic.Message): LlmCompletion {
  if (!Array.isArray(message?.content) || !message.usage) throw new SyntaxError("response has no content or usage");
  const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  const u = message.usage;
  return {
    text,
    usage: {
      inputTokens: u.input_tokens ?? 0,
      cacheCreationInputTokens: u.cache_creation_input_tokens ?? 0,
      cacheReadInputTokens: u.cache_read_input_tokens ?? 0,
      outputTokens: u.output_tokens ?? 0,
    },
  };
}
