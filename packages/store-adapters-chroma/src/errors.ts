import type { ErrorCode, StoreRetryPolicy } from "@hierdoc/core";
import { HierdocError, storeError, storeFailure, withStoreRetry, withTimeLimit } from "@hierdoc/core";

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
  return storeFailure({ adapter: ADAPTER, operation, code, retryable: RETRYABLE.has(name), reason, location: url, cause: err, details: { url, driverError: name || undefined } });
}

/**
 * Retry and timeout policy for idempotent calls: `retries` after the first attempt, backoff from
 * `baseDelayMs` doubling with jitter, and `timeoutMs` per attempt (an attempt that exceeds it fails with
 * E_TIMEOUT and is not retried).
 */
export type RetryPolicy = Required<Pick<StoreRetryPolicy, "retries" | "baseDelayMs" | "timeoutMs">>;

/**
 * Runs an idempotent call with a time limit per attempt, retrying with exponential backoff while the
 * mapped error is retryable (timeouts are reported, not retried: the server may be hung).
 * @throws HierdocError the mapped error of the last attempt, or E_TIMEOUT.
 */
export function withRetry<T>(operation: string, url: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  const timeout = (): HierdocError =>
    storeError(ADAPTER, "E_TIMEOUT", operation, `chroma at ${url}: ${operation} did not answer within ${policy.timeoutMs} ms`, { url, timeoutMs: policy.timeoutMs }, { retryable: true });
  return withStoreRetry(policy, (err) => mapChromaError(err, operation, url), () => withTimeLimit(fn(), policy.timeoutMs, timeout));
}
