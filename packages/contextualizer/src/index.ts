export { StructuralContextGenerator, structuralContextFromRecipe, type StructuralContextOptions, type StructuralPart } from "./structural-context.js";
export {
  AnthropicContextGenerator,
  DEFAULT_ANTHROPIC_CONTEXT_MODEL,
  anthropicMessageParams,
  anthropicCompletion,
  type AnthropicContextOptions,
} from "./anthropic-context-generator.js";
export { AnthropicBatchContextGenerator, BATCH_MODEL_PRICES, type AnthropicBatchContextOptions } from "./anthropic-batch-context-generator.js";
export { planContextJobs, type ContextJob, type ContextPlan, type PlanSettings } from "./context-jobs.js";
export { OpenAIContextGenerator, DEFAULT_OPENAI_CONTEXT_MODEL, type OpenAIContextOptions, type AzureContextSettings } from "./openai-context-generator.js";
export { LlmContextGenerator, type LlmContextOptions, type LlmCallInput, type LlmCompletion } from "./llm-context-generator.js";
export { createContextGenerator, isLlmContextGenerator, type ContextConfig, type CreateContextGeneratorOptions } from "./create-context-generator.js";
export { FileContextCache, MemoryContextCache, contextCacheKey, hashText, type ContextCache, type ContextCacheKeyParts } from "./context-cache.js";
export { UsageMeter, mergeContextUsage, MODEL_PRICES, priceFor, estimateCost, type TokenUsage, type ModelPrice, type ModelUsage, type ContextUsage } from "./usage-accounting.js";
export { DEFAULT_RETRY_POLICY, backoffDelay, retryAfterMs, isRetryableStatus, withRetries, sleep, type RetryPolicy, type FailureInfo } from "./retry-policy.js";
export { classifySdkError, type SdkErrorClasses, type ClassifiedFailure } from "./sdk-errors.js";
export { CONTEXT_PROMPT_TEMPLATE, CONTEXT_SYSTEM_PROMPT, PROMPT_TEMPLATE_VERSION, buildContextPrompt, renderContextPrompt, type ContextPrompt } from "./prompt.js";
export { documentWindow, estimateTokens, CHARS_PER_TOKEN, type DocumentWindow } from "./document-window.js";
export { sanitizeContext } from "./sanitize-context.js";
export { mapWithConcurrency } from "./concurrency.js";
export { addContextUsage, readContextUsage, USAGE_FILE } from "./usage-file.js";
