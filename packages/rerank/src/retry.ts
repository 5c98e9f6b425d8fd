import { HierdocError, toHierdocError, type RerankCandidate } from "@hierdoc/core";

/** Bounded retry policy shared by the API and LLM rerankers. */
export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** First back-off delay; doubles per retry, capped at 8 s, unless the server sends Retry-After (default 500 ms). */
  retryBaseDelayMs?: number;
  /** Per-attempt timeout (default 10 s). */
  timeoutMs?: number;
}

/** HTTP status and Retry-After of a failed attempt, as far as the error tells. */
function statusOf(err: unknown): { status?: number; retryAfterMs?: number; timeout: boolean } {
  const e = err as { statusCode?: unknown; status?: unknown; name?: unknown; code?: unknown; headers?: unknown; rawResponse?: { headers?: unknown } };
  const status = typeof e?.statusCode === "number" ? e.statusCode : typeof e?.status === "number" ? e.status : undefined;
  const name = typeof e?.name === "string" ? e.name : "";
  const timeout = /timeout|abort/i.test(name) || e?.code === "E_TIMEOUT";
  let retryAfterMs: number | undefined;
  const headers = (e?.headers ?? e?.rawResponse?.headers) as { get?: (k: string) => string | null } | Record<string, string> | undefined;
  const raw = typeof (headers as { get?: unknown })?.get === "function"
    ? (headers as { get: (k: string) => string | null }).get("retry-after")
    : (headers as Record<string, string> | undefined)?.["retry-after"];
  if (raw != null && raw !== "" && Number.isFinite(Number(raw))) retryAfterMs = Number(raw) * 1000;
  return { status, retryAfterMs, timeout };
}

/** True for failures worth another attempt: timeouts, network errors, 408, 409, 429 and 5xx. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof HierdocError) return err.retryable;
  const { status, timeout } = statusOf(err);
  if (timeout) return true;
  if (status === undefined) return err instanceof TypeError; // fetch's network failure
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Runs `attempt` with a per-attempt timeout (its AbortSignal) and up to `maxRetries` retries on retryable
 * failures, with exponential back-off or the server's Retry-After.
 * @throws HierdocError E_TIMEOUT when the last attempt timed out, else E_RERANK naming `provider`
 * (retryable when the last failure was).
 */
export async function withRetries<T>(provider: string, options: RetryOptions, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const maxRetries = options.maxRetries ?? 2;
  const base = options.retryBaseDelayMs ?? 500;
  const timeoutMs = options.timeoutMs ?? 10_000;
  for (let i = 0; ; i++) {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      return await attempt(controller.signal);
    } catch (err) {
      const retryable = timedOut || isRetryable(err);
      if (!retryable || i >= maxRetries) {
        if (timedOut || statusOf(err).timeout) {
          throw new HierdocError("E_TIMEOUT", `${provider} rerank timed out after ${timeoutMs} ms (${i + 1} attempt(s))`, {
            cause: err,
            retryable: true,
            details: { adapter: provider, operation: "rerank" },
          });
        }
        const { status } = statusOf(err);
        throw toHierdocError(err, "E_RERANK", {
          adapter: provider,
          operation: "rerank",
          retryable,
          message: `${provider} rerank failed${status ? ` (HTTP ${status})` : ""} after ${i + 1} attempt(s): ${(err as Error)?.message ?? String(err)}`,
        });
      }
      const delay = statusOf(err).retryAfterMs ?? Math.min(base * 2 ** i, 8000);
      await new Promise((r) => setTimeout(r, delay));
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The text an API reranker sees for a candidate: its parent chain as a heading line, then the chunk. */
export function candidateText(c: RerankCandidate, maxChars = 4000): string {
  const head = c.parentChain.length > 0 ? c.parentChain.join(" > ") : c.sectionTitle;
  const text = head ? `${head}\n${c.content}` : c.content;
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}

/** Maps `{index, relevance_score}` results back to candidate ids, dropping out-of-range indexes. */
export function byIndex(results: Array<{ index: number; relevanceScore: number }>, candidates: RerankCandidate[], provider: string): Array<{ id: string; score: number }> {
  const out: Array<{ id: string; score: number }> = [];
  for (const r of results) {
    const c = candidates[r.index];
    if (!c || typeof r.relevanceScore !== "number") {
      throw new HierdocError("E_RERANK", `${provider} rerank returned an unknown document index ${r.index}`, { details: { adapter: provider, operation: "rerank" } });
    }
    out.push({ id: c.id, score: r.relevanceScore });
  }
  return out;
}

/**
 * Reads an API key: the explicit one, else the provider's usual environment variable through `env`.
 * @throws HierdocError E_CONFIG naming the variable when neither is set.
 */
export function requireKey(provider: string, apiKey: string | undefined, variable: string): string {
  if (apiKey) return apiKey;
  throw new HierdocError("E_CONFIG", `rerank.api_key: set it (e.g. \${${variable}}) or the ${variable} environment variable for the ${provider} reranker`, {
    details: { path: "rerank.api_key" },
  });
}
