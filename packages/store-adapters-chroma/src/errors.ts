import type { ErrorCode } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";

/** Adapter id used in every error this package throws. */
export const ADAPTER = "chroma";

/** Names of chromadb client errors after which the same call may succeed. */
const RETRYABLE = new Set(["ChromaConnectionError", "ChromaServerError", "ChromaRateLimitError"]);

/**
 * Maps a chromadb client error to a {@link HierdocError} naming the adapter and the operation.
 *
 * Connection failures and rate limits → `E_STORE_UNAVAILABLE` (retryable); 5xx → `E_STORE` (retryable);
 * a vector-size complaint → `E_DIMENSION_MISMATCH`; anything else → `E_STORE`.
 */
export function mapChromaError(err: unknown, operation: string, url: string): HierdocError {
  if (err instanceof HierdocError) return err;
  const name = err instanceof Error ? err.name : "";
  const reason = err instanceof Error ? err.message : String(err);
  let code: ErrorCode = "E_STORE";
  if (name === "ChromaConnectionError" || name === "ChromaRateLimitError") code = "E_STORE_UNAVAILABLE";
  else if (/expecting embedding with dimension/i.test(reason)) code = "E_DIMENSION_MISMATCH";
  const what = code === "E_STORE_UNAVAILABLE" ? `chroma at ${url} is unavailable` : "chroma";
  return new HierdocError(code, `${what}: ${operation} failed: ${reason}`, {
    cause: err,
    retryable: RETRYABLE.has(name),
    details: { adapter: ADAPTER, operation, url, driverError: name || undefined },
  });
}

/** Retry and timeout policy for idempotent calls. */
export interface RetryPolicy {
  /** Attempts after the first one. */
  retries: number;
  /** Delay before the first retry; doubles each time (with jitter). */
  baseDelayMs: number;
  /** Time limit of one attempt; an attempt that exceeds it fails with E_TIMEOUT and is not retried. */
  timeoutMs: number;
}

function withTimeout<T>(promise: Promise<T>, ms: number, operation: string, url: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HierdocError("E_TIMEOUT", `chroma at ${url}: ${operation} did not answer within ${ms} ms`, {
            retryable: true,
            details: { adapter: ADAPTER, operation, url, timeoutMs: ms },
          }),
        ),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs an idempotent call with a time limit per attempt, retrying with exponential backoff while the
 * mapped error is retryable (timeouts are reported, not retried: the server may be hung).
 * @throws HierdocError the mapped error of the last attempt, or E_TIMEOUT.
 */
export async function withRetry<T>(operation: string, url: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await withTimeout(fn(), policy.timeoutMs, operation, url);
    } catch (err) {
      const mapped = mapChromaError(err, operation, url);
      if (!mapped.retryable || mapped.code === "E_TIMEOUT" || attempt >= policy.retries) {
        if (attempt > 0) mapped.details.attempts = attempt + 1;
        throw mapped;
      }
      const delay = policy.baseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
