import type { ContextGenerateOptions, ContextGenerator, ContextRequest, ContextResult, ConvertedDocument } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";
import { mapWithConcurrency } from "./concurrency.js";
import { MemoryContextCache, type ContextCache } from "./context-cache.js";
import { planContextJobs, type ContextJob, type LlmCallInput } from "./context-jobs.js";
import { DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from "./retry-policy.js";
import { sanitizeContext } from "./sanitize-context.js";
import type { ClassifiedFailure } from "./sdk-errors.js";
import { UsageMeter, type ContextUsage, type ModelPrice, type TokenUsage } from "./usage-accounting.js";

/** Options shared by every LLM context generator. */
export interface LlmContextOptions {
  /** Model (or Azure deployment) name. */
  model: string;
  /** `max_tokens` of each call (`context_max_tokens`). Default 100. */
  maxTokens?: number;
  /** Default 0; `null` leaves it out of the request (for models that reject it). */
  temperature?: number | null;
  /** Calls in flight at once (`context_concurrency`). Default 10. */
  concurrency?: number;
  /** Per-call timeout in ms (each attempt). Default 60 000. */
  timeoutMs?: number;
  /** Our retry policy (the SDK's own retries are off). */
  retry?: Partial<RetryPolicy>;
  /** The model's context window in tokens; longer documents are sent as a window around the chunk. */
  contextWindowTokens?: number;
  /** Longest context kept, in characters. Default `maxTokens × 6`. */
  maxContextChars?: number;
  /** Persistent cache; default a process-local {@link MemoryContextCache}. */
  cache?: ContextCache;
  /** Price table override (USD per million tokens by model prefix). */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Called before each retry wait (logging, tests). */
  onRetry?: (info: { chunkId: string; attempt: number; delayMs: number; error: HierdocError }) => void;
}

export type { LlmCallInput };

/** One provider call's answer. */
export interface LlmCompletion {
  text: string;
  usage: TokenUsage;
}

/**
 * The provider-independent half of LLM contexts: persistent cache lookup, prompt building with a document
 * window, concurrency, retries, timeout, cancellation, output sanitising and token/cost accounting.
 * The first chunk of each document (window) is sent alone so it writes the prompt cache and the others read it.
 * A provider subclass implements {@link complete} and {@link classify}.
 */
export abstract class LlmContextGenerator implements ContextGenerator {
  abstract readonly id: string;
  /** Provider label used in errors and the cache key (`anthropic`, `openai`, …). */
  abstract readonly provider: string;
  readonly model: string;
  protected readonly maxTokens: number;
  protected readonly temperature: number | null;
  protected readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly policy: RetryPolicy;
  private readonly windowTokens: number;
  private readonly maxContextChars: number;
  private readonly cache: ContextCache;
  private readonly meter: UsageMeter;
  private readonly onRetry: LlmContextOptions["onRetry"];
  private readonly docHashes = new WeakMap<ConvertedDocument, string>();

  protected constructor(options: LlmContextOptions, defaultWindowTokens: number) {
    if (!options.model) throw new HierdocError("E_CONFIG", "context_model.name is required", { details: { path: "context_model.name" } });
    this.model = options.model;
    this.maxTokens = options.maxTokens ?? 100;
    this.temperature = options.temperature === undefined ? 0 : options.temperature;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.concurrency = Math.max(1, options.concurrency ?? 10);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.windowTokens = options.contextWindowTokens ?? defaultWindowTokens;
    this.maxContextChars = options.maxContextChars ?? this.maxTokens * 6;
    this.cache = options.cache ?? new MemoryContextCache();
    this.meter = new UsageMeter(options.prices);
    this.onRetry = options.onRetry;
  }

  /** Sends one prompt to the provider. Must pass `signal` and `timeoutMs` through and disable SDK retries. */
  protected abstract complete(input: LlmCallInput, options: { signal?: AbortSignal; timeoutMs: number }): Promise<LlmCompletion>;

  /** Classifies a failure of {@link complete}. */
  protected abstract classify(err: unknown): ClassifiedFailure;

  /** Token, cache and cost totals since this generator was created (for the ingest summary and `stats`). */
  usage(): ContextUsage {
    return this.meter.snapshot();
  }

  /**
   * One result per request, in order. A chunk whose call finally fails gets `context: ""` and `error`
   * (a HierdocError E_LLM or E_TIMEOUT); the others are unaffected. Successful contexts are cached.
   * @throws HierdocError E_CANCELLED when `signal` aborts; E_INTERNAL when the cache cannot be written
   */
  async generate(requests: ContextRequest[], options: ContextGenerateOptions = {}): Promise<ContextResult[]> {
    const signal = options.signal;
    if (signal?.aborted) throw new HierdocError("E_CANCELLED", "context generation was cancelled");
    const { results, jobs, cacheHits } = await planContextJobs(requests, {
      modelKey: `${this.provider}:${this.model}`,
      cache: this.cache,
      contextWindowTokens: this.windowTokens,
      maxTokens: this.maxTokens,
      hashes: this.docHashes,
    });
    for (let i = 0; i < cacheHits; i++) this.meter.addCacheHit(this.model);
    const leaders = new Map<string, ContextJob>();
    for (const job of jobs) if (!leaders.has(job.group)) leaders.set(job.group, job);
    const followers = jobs.filter((j) => leaders.get(j.group) !== j);
    let done = requests.length - jobs.reduce((n, j) => n + j.indexes.length, 0);
    if (done > 0) options.onProgress?.(done, requests.length);
    const run = async (job: ContextJob): Promise<void> => {
      const result = await this.runJob(job, signal);
      for (const i of job.indexes) results[i] = { ...result, chunkId: requests[i]!.chunk.id };
      done += job.indexes.length;
      options.onProgress?.(done, requests.length);
    };
    try {
      await mapWithConcurrency([...leaders.values()], this.concurrency, run);
      await mapWithConcurrency(followers, this.concurrency, run);
    } finally {
      // Contexts already paid for are on disk even when the run is cancelled or fails.
      await this.cache.flush();
    }
    return results;
  }

  private async runJob(job: ContextJob, signal: AbortSignal | undefined): Promise<ContextResult> {
    try {
      const completion = await withRetries(
        () => this.complete(job.input, { signal, timeoutMs: this.timeoutMs }),
        (err) => this.classify(err),
        this.policy,
        {
          signal,
          onRetry: (attempt, delayMs, err) => {
            this.meter.addRetry(this.model);
            this.onRetry?.({ chunkId: job.chunkId, attempt, delayMs, error: this.classify(err).error });
          },
        },
      );
      this.meter.addCall(this.model, completion.usage);
      const context = sanitizeContext(completion.text, this.maxContextChars);
      if (!context) {
        throw new HierdocError("E_LLM", `${this.provider} returned an empty context`, { details: { adapter: this.provider, operation: "generate" } });
      }
      await this.cache.set(job.key, context);
      return { chunkId: job.chunkId, context };
    } catch (err) {
      const error = err instanceof HierdocError ? err : this.classify(err).error;
      if (error.code === "E_CANCELLED" || signal?.aborted) throw new HierdocError("E_CANCELLED", "context generation was cancelled", { cause: err });
      this.meter.addFailure(this.model);
      return { chunkId: job.chunkId, context: "", error };
    }
  }
}
