import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type Anthropic from "@anthropic-ai/sdk";
import type { ContextGenerator, ContextRequest, ContextResult, ConvertedDocument } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";
import { anthropicCompletion, anthropicMessageParams, DEFAULT_ANTHROPIC_CONTEXT_MODEL } from "./anthropic-context-generator.js";
import { MemoryContextCache, type ContextCache } from "./context-cache.js";
import { planContextJobs } from "./context-jobs.js";
import { PROMPT_TEMPLATE_VERSION } from "./prompt.js";
import { DEFAULT_RETRY_POLICY, sleep, withRetries, type RetryPolicy } from "./retry-policy.js";
import { sanitizeContext } from "./sanitize-context.js";
import { classifySdkError, NO_SDK_ERRORS, type SdkErrorClasses } from "./sdk-errors.js";
import { loadAnthropic } from "./sdk-loader.js";
import { MODEL_PRICES, UsageMeter, type ContextUsage, type ModelPrice } from "./usage-accounting.js";

/** Options of {@link AnthropicBatchContextGenerator}. */
export interface AnthropicBatchContextOptions {
  /** Folder for the pending-batch state (`anthropic-batches.json`), e.g. `<index>/contexts`. */
  stateDir: string;
  /** Default {@link DEFAULT_ANTHROPIC_CONTEXT_MODEL}. */
  model?: string;
  apiKey?: string;
  baseURL?: string;
  client?: Anthropic;
  /** Default 100. */
  maxTokens?: number;
  /** Default 0; null leaves it out. */
  temperature?: number | null;
  /** Default 180 000 tokens. */
  contextWindowTokens?: number;
  /** Default `maxTokens × 6`. */
  maxContextChars?: number;
  /** Share the same cache as {@link AnthropicContextGenerator}: both use the key `anthropic:<model>`. */
  cache?: ContextCache;
  /** Between two status checks. Default 30 000 ms. */
  pollIntervalMs?: number;
  /**
   * How long one `generate` waits for its batches (default 24 h, the API's limit). With 0 it submits and
   * returns at once: the chunks come back with a retryable error and the next ingest collects the results.
   */
  maxWaitMs?: number;
  /** Requests per batch. Default 10 000 (the API allows 100 000 or 256 MB). */
  maxRequestsPerBatch?: number;
  /** Retry policy of each API call (create, retrieve, results). */
  retry?: Partial<RetryPolicy>;
  /** Per API call. Default 120 000 ms. */
  timeoutMs?: number;
  /** Batch prices; default {@link MODEL_PRICES} at half price. */
  prices?: Readonly<Record<string, ModelPrice>>;
}

interface PendingBatch {
  id: string;
  model: string;
  createdAt: string;
  keys: string[];
}

/** {@link MODEL_PRICES} at the Message Batches discount (50 %). */
export const BATCH_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze(
  Object.fromEntries(
    Object.entries(MODEL_PRICES).map(([k, p]) => [
      k,
      { input: p.input / 2, output: p.output / 2, cacheWrite: (p.cacheWrite ?? p.input) / 2, cacheRead: (p.cacheRead ?? p.input) / 2 },
    ]),
  ),
);

/**
 * Contexts through Anthropic's Message Batches API (half price, results within 24 h) with the same prompt,
 * cache keys and sanitising as {@link AnthropicContextGenerator}. Submitted batch ids are kept in
 * `<stateDir>/anthropic-batches.json` before waiting, so a restarted ingest collects a batch instead of
 * paying for it again. Chunks still pending when `maxWaitMs` runs out, and chunks the batch reports as
 * errored, expired or canceled, come back with a retryable error (indexed without context; the next ingest
 * collects or resubmits them). The SDK loads on the first `generate` that has chunks to send or collect.
 */
export class AnthropicBatchContextGenerator implements ContextGenerator {
  readonly id: string;
  readonly provider = "anthropic";
  readonly model: string;
  private client?: Anthropic;
  private errors: SdkErrorClasses = NO_SDK_ERRORS;
  private readonly options: AnthropicBatchContextOptions;
  private readonly cache: ContextCache;
  private readonly meter: UsageMeter;
  private readonly policy: RetryPolicy;
  private readonly stateFile: string;
  private readonly hashes = new WeakMap<ConvertedDocument, string>();

  constructor(options: AnthropicBatchContextOptions) {
    this.options = options;
    this.model = options.model ?? DEFAULT_ANTHROPIC_CONTEXT_MODEL;
    this.id = `anthropic:${this.model}:${PROMPT_TEMPLATE_VERSION}`;
    this.client = options.client;
    this.cache = options.cache ?? new MemoryContextCache();
    this.meter = new UsageMeter(options.prices ?? BATCH_MODEL_PRICES);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.stateFile = join(options.stateDir, "anthropic-batches.json");
  }

  /** Token and cost totals (at batch prices) since this generator was created. */
  usage(): ContextUsage {
    return this.meter.snapshot();
  }

  /**
   * Answers from the cache, collects pending batches, submits a batch for the rest and waits up to `maxWaitMs`.
   * @throws HierdocError E_CANCELLED when `signal` aborts (submitted batches stay recorded and are collected
   *   later); E_LLM when a batch cannot be submitted or read after retries
   */
  async generate(requests: ContextRequest[], options: { signal?: AbortSignal } = {}): Promise<ContextResult[]> {
    const signal = options.signal;
    const maxTokens = this.options.maxTokens ?? 100;
    const { results, jobs, cacheHits } = await planContextJobs(requests, {
      modelKey: `anthropic:${this.model}`,
      cache: this.cache,
      contextWindowTokens: this.options.contextWindowTokens ?? 180_000,
      maxTokens,
      hashes: this.hashes,
    });
    for (let i = 0; i < cacheHits; i++) this.meter.addCacheHit(this.model);
    if (jobs.length === 0) return results;
    const failures = new Map<string, HierdocError>();
    const state = await this.loadState();
    const needed = new Set(jobs.map((j) => j.key));
    const pendingKeys = new Set(state.flatMap((b) => (b.model === this.model ? b.keys : [])));
    const toSubmit = jobs.filter((j) => !pendingKeys.has(j.key));
    const size = this.options.maxRequestsPerBatch ?? 10_000;
    for (let i = 0; i < toSubmit.length; i += size) {
      const part = toSubmit.slice(i, i + size);
      const temperature = this.options.temperature === undefined ? 0 : this.options.temperature;
      const batch = await this.call("messages.batches.create", (client) =>
        client.messages.batches.create(
          { requests: part.map((j) => ({ custom_id: j.key, params: anthropicMessageParams(this.model, maxTokens, temperature, j.input) })) },
          { signal, maxRetries: 0 },
        ),
      signal);
      state.push({ id: batch.id, model: this.model, createdAt: new Date().toISOString(), keys: part.map((j) => j.key) });
      await this.saveState(state);
    }
    let relevant = state.filter((b) => b.model === this.model && b.keys.some((k) => needed.has(k)));
    const deadline = Date.now() + (this.options.maxWaitMs ?? 24 * 3600_000);
    for (;;) {
      const open: PendingBatch[] = [];
      for (const b of relevant) {
        const info = await this.call("messages.batches.retrieve", (client) => client.messages.batches.retrieve(b.id, {}, { signal, maxRetries: 0 }), signal);
        if (info.processing_status !== "ended") {
          open.push(b);
          continue;
        }
        await this.collect(b, failures, signal);
        state.splice(state.indexOf(b), 1);
        await this.saveState(state);
      }
      relevant = open;
      if (open.length === 0 || Date.now() >= deadline) break;
      await sleep(Math.min(this.options.pollIntervalMs ?? 30_000, Math.max(0, deadline - Date.now())), signal);
    }
    await this.cache.flush();
    const waiting = new Map(relevant.flatMap((b) => b.keys.map((k) => [k, b.id] as const)));
    for (const job of jobs) {
      const context = await this.cache.get(job.key);
      const batchId = waiting.get(job.key);
      const error =
        context !== undefined
          ? undefined
          : (failures.get(job.key) ??
            new HierdocError("E_LLM", batchId ? `context pending in Anthropic batch ${batchId}; run the ingest again to collect it` : "no result in the Anthropic batch", {
              retryable: true,
              details: { adapter: "anthropic", operation: "messages.batches", batchId },
            }));
      if (error) this.meter.addFailure(this.model);
      for (const i of job.indexes) results[i] = { chunkId: requests[i]!.chunk.id, context: context ?? "", ...(error ? { error } : {}) };
    }
    return results;
  }

  private async collect(batch: PendingBatch, failures: Map<string, HierdocError>, signal: AbortSignal | undefined): Promise<void> {
    const maxChars = this.options.maxContextChars ?? (this.options.maxTokens ?? 100) * 6;
    const decoder = await this.call("messages.batches.results", (client) => client.messages.batches.results(batch.id, {}, { signal, maxRetries: 0 }), signal);
    for await (const row of decoder) {
      const details = { adapter: "anthropic", operation: "messages.batches", batchId: batch.id };
      if (row.result.type !== "succeeded") {
        failures.set(row.custom_id, new HierdocError("E_LLM", `Anthropic batch ${batch.id}: request ${row.result.type}`, { retryable: true, details }));
        continue;
      }
      try {
        const completion = anthropicCompletion(row.result.message);
        this.meter.addCall(this.model, completion.usage);
        const context = sanitizeContext(completion.text, maxChars);
        if (context) await this.cache.set(row.custom_id, context);
        else failures.set(row.custom_id, new HierdocError("E_LLM", "anthropic returned an empty context", { details }));
      } catch (err) {
        failures.set(row.custom_id, new HierdocError("E_LLM", `Anthropic batch ${batch.id}: malformed result`, { cause: err, retryable: true, details }));
      }
    }
  }

  private async call<T>(operation: string, fn: (client: Anthropic) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const classify = (err: unknown) => classifySdkError(err, this.errors, "anthropic", operation);
    try {
      const client = await this.connect();
      return await withRetries(() => fn(client), classify, this.policy, { signal });
    } catch (err) {
      throw classify(err).error;
    }
  }

  /** The client (given, or created with the SDK loaded on first use). */
  private async connect(): Promise<Anthropic> {
    const sdk = await loadAnthropic();
    this.errors = sdk;
    const { apiKey, baseURL, timeoutMs } = this.options;
    return (this.client ??= new sdk.Anthropic({ apiKey: apiKey ?? null, baseURL: baseURL ?? null, maxRetries: 0, timeout: timeoutMs ?? 120_000 }));
  }

  private async loadState(): Promise<PendingBatch[]> {
    try {
      const parsed = JSON.parse(await readFile(this.stateFile, "utf8")) as { batches?: PendingBatch[] };
      return Array.isArray(parsed.batches) ? parsed.batches : [];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new HierdocError("E_INDEX_CORRUPT", `cannot read ${this.stateFile}`, { cause: err, details: { file: this.stateFile } });
    }
  }

  private async saveState(state: PendingBatch[]): Promise<void> {
    await mkdir(this.options.stateDir, { recursive: true });
    const tmp = `${this.stateFile}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify({ batches: state }, null, 2), "utf8");
    await rename(tmp, this.stateFile);
  }
}
