import { HierdocError } from "@hierdoc/core";

/** How failed LLM calls are retried. The SDKs' own retries are switched off so this policy is the only one. */
export interface RetryPolicy {
  /** Retries after the first attempt. Default 4. */
  maxRetries: number;
  /** First backoff in ms, doubled per retry. Default 500. */
  baseDelayMs: number;
  /** Upper bound of any wait, including a server's `retry-after`. Default 60 000. */
  maxDelayMs: number;
  /** Random source in [0, 1) for jitter (tests pass a fixed one). Default Math.random. */
  random: () => number;
}

/** Defaults of {@link RetryPolicy}. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 60_000, random: Math.random };

/** What the retry loop needs to know about one failure. */
export interface FailureInfo {
  retryable: boolean;
  /** Server-requested wait (from `retry-after-ms` / `retry-after`), in ms. */
  retryAfterMs?: number;
}

/**
 * Reads a wait from response headers: `retry-after-ms` (ms), `retry-after` as seconds or an HTTP date.
 * Returns undefined when absent or unreadable.
 */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value.trim());
  if (value.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** True for the HTTP statuses worth retrying: 408, 409, 429, 529 and every 5xx. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500);
}

/**
 * Wait before retry number `attempt` (0-based): the server's `retry-after` when given (capped at
 * `maxDelayMs`), else exponential backoff `baseDelayMs · 2^attempt` with "equal jitter" (between half and
 * all of it), capped at `maxDelayMs`.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, serverWaitMs?: number): number {
  if (serverWaitMs !== undefined) return Math.min(policy.maxDelayMs, serverWaitMs);
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(exp / 2 + policy.random() * (exp / 2));
}

/**
 * Sleeps `ms`, or rejects with HierdocError E_CANCELLED as soon as `signal` aborts.
 * @throws HierdocError E_CANCELLED
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The error thrown when the caller's AbortSignal fires. */
export function cancelled(): HierdocError {
  return new HierdocError("E_CANCELLED", "context generation was cancelled", { retryable: false });
}

/**
 * Calls `fn` until it succeeds, a failure is not retryable, or `policy.maxRetries` retries are spent;
 * `classify` maps a thrown value to {@link FailureInfo}. `onRetry` sees each wait (for logs and tests).
 * @throws the last failure, or HierdocError E_CANCELLED when `signal` aborts
 */
export async function withRetries<T>(
  fn: (attempt: number) => Promise<T>,
  classify: (err: unknown) => FailureInfo,
  policy: RetryPolicy,
  options: { signal?: AbortSignal; onRetry?: (attempt: number, delayMs: number, err: unknown) => void } = {},
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) throw cancelled();
    try {
      return await fn(attempt);
    } catch (err) {
      if (options.signal?.aborted) throw cancelled();
      const info = classify(err);
      if (!info.retryable || attempt >= policy.maxRetries) throw err;
      const delay = backoffDelay(attempt, policy, info.retryAfterMs);
      options.onRetry?.(attempt, delay, err);
      await sleep(delay, options.signal);
    }
  }
}
