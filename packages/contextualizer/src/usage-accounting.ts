/** Token counts of one LLM call, normalised across providers (input excludes cache writes and reads). */
export interface TokenUsage {
  /** Uncached input tokens. */
  inputTokens: number;
  /** Input tokens written to the prompt cache (Anthropic `cache_creation_input_tokens`). */
  cacheCreationInputTokens: number;
  /** Input tokens read from the prompt cache (Anthropic `cache_read_input_tokens`, OpenAI `cached_tokens`). */
  cacheReadInputTokens: number;
  outputTokens: number;
}

/** USD per million tokens. `cacheWrite` defaults to `input`, `cacheRead` to `input`. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite?: number;
  cacheRead?: number;
}

/**
 * List prices (USD per million tokens, standard tier, no batch discount) of the models most used for
 * contexts, matched by longest model-name prefix. Prices change: the estimate is a guide, not a bill.
 */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  "claude-3-haiku": { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 },
  "claude-3-5-haiku": { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 },
  "claude-haiku-4-5": { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
  "claude-3-5-sonnet": { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  "claude-3-7-sonnet": { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  "claude-sonnet-4": { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cacheRead: 0.075 },
  "gpt-4o": { input: 2.5, output: 10, cacheRead: 1.25 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cacheRead: 0.1 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cacheRead: 0.025 },
  "gpt-4.1": { input: 2, output: 8, cacheRead: 0.5 },
});

/** The price of `model` by longest matching prefix of {@link MODEL_PRICES} (or `prices`), else undefined. */
export function priceFor(model: string, prices: Readonly<Record<string, ModelPrice>> = MODEL_PRICES): ModelPrice | undefined {
  let best: string | undefined;
  for (const key of Object.keys(prices)) {
    if (model.startsWith(key) && (!best || key.length > best.length)) best = key;
  }
  return best ? prices[best] : undefined;
}

/** Estimated USD cost of `usage` at `price`. */
export function estimateCost(usage: TokenUsage, price: ModelPrice): number {
  const perToken = (n: number, usdPerMillion: number): number => (n * usdPerMillion) / 1_000_000;
  return (
    perToken(usage.inputTokens, price.input) +
    perToken(usage.cacheCreationInputTokens, price.cacheWrite ?? price.input) +
    perToken(usage.cacheReadInputTokens, price.cacheRead ?? price.input) +
    perToken(usage.outputTokens, price.output)
  );
}

/** Totals for one model: calls, chunks answered from the persistent cache, failures, tokens and cost. */
export interface ModelUsage extends TokenUsage {
  model: string;
  /** LLM calls that returned a context. */
  requests: number;
  /** Chunks answered from the persistent context cache (no LLM call). */
  cachedContexts: number;
  /** Chunks whose call finally failed. */
  failures: number;
  /** Retries performed. */
  retries: number;
  /** Estimated USD, or null when the model is not in the price table (tokens are still reported). */
  costUsd: number | null;
}

/** What {@link UsageMeter.snapshot} returns: per-model totals and the overall estimated cost. */
export interface ContextUsage {
  models: ModelUsage[];
  /** Sum of known costs; null when no model has a price. */
  totalCostUsd: number | null;
}

/** Accumulates {@link ModelUsage} per model. One per generator; safe across concurrent calls (single thread). */
export class UsageMeter {
  private readonly byModel = new Map<string, Omit<ModelUsage, "costUsd">>();
  private readonly prices: Readonly<Record<string, ModelPrice>>;

  constructor(prices: Readonly<Record<string, ModelPrice>> = MODEL_PRICES) {
    this.prices = prices;
  }

  private entry(model: string): Omit<ModelUsage, "costUsd"> {
    let e = this.byModel.get(model);
    if (!e) {
      e = { model, requests: 0, cachedContexts: 0, failures: 0, retries: 0, inputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 0 };
      this.byModel.set(model, e);
    }
    return e;
  }

  /** Records one successful call. */
  addCall(model: string, usage: TokenUsage): void {
    const e = this.entry(model);
    e.requests++;
    e.inputTokens += usage.inputTokens;
    e.cacheCreationInputTokens += usage.cacheCreationInputTokens;
    e.cacheReadInputTokens += usage.cacheReadInputTokens;
    e.outputTokens += usage.outputTokens;
  }

  /** Records a chunk answered from the persistent cache. */
  addCacheHit(model: string): void {
    this.entry(model).cachedContexts++;
  }

  /** Records a chunk whose call finally failed. */
  addFailure(model: string): void {
    this.entry(model).failures++;
  }

  /** Records one retry. */
  addRetry(model: string): void {
    this.entry(model).retries++;
  }

  /** Adds another model total (from a stored report) to this meter. */
  absorb(m: Omit<ModelUsage, "costUsd">): void {
    const e = this.entry(m.model);
    for (const k of ["requests", "cachedContexts", "failures", "retries", "inputTokens", "cacheCreationInputTokens", "cacheReadInputTokens", "outputTokens"] as const) {
      e[k] += m[k] ?? 0;
    }
  }

  /** A copy of the totals with cost estimates. */
  snapshot(): ContextUsage {
    const models = [...this.byModel.values()].map((e) => {
      const price = priceFor(e.model, this.prices);
      return { ...e, costUsd: price ? estimateCost(e, price) : null };
    });
    const priced = models.filter((m) => m.costUsd !== null);
    return { models, totalCostUsd: priced.length ? priced.reduce((s, m) => s + (m.costUsd ?? 0), 0) : null };
  }
}

/**
 * Adds two usage reports model by model (e.g. the totals stored in the index plus this ingest's), so
 * `hierdoc stats` can show lifetime totals. Costs are recomputed from the summed tokens.
 */
export function mergeContextUsage(a: ContextUsage | undefined, b: ContextUsage, prices: Readonly<Record<string, ModelPrice>> = MODEL_PRICES): ContextUsage {
  const meter = new UsageMeter(prices);
  for (const m of [...(a?.models ?? []), ...b.models]) {
    meter.absorb(m);
  }
  return meter.snapshot();
}
