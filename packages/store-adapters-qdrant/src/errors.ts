import type { FailureClass, StoreRetryPolicy } from "@hierdoc/core";
import { HierdocError, classifyHttpFailure, describeThrown, networkFailure, storeFailure, withStoreRetry } from "@hierdoc/core";

/** Adapter id used in every error this package throws. */
export const ADAPTER = "qdrant";

/**
 * The transport failure (ECONNREFUSED, …) anywhere in an error's `cause` chain, if any (see
 * `networkFailure` in `@hierdoc/core`): Node's `fetch` reports every network-level failure as
 * `TypeError: fetch failed` with the socket error as `cause`.
 */
export function transportCode(err: unknown): string | undefined {
  return networkFailure(err);
}

/** HTTP status and body of a Qdrant REST error (`ApiError` of the client's fetcher), if it is one. */
function httpFailure(err: unknown): { status: number; body: string } | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status !== "number") return undefined;
  const data = (err as { data?: unknown }).data;
  const reason = (data as { status?: { error?: unknown } } | undefined)?.status?.error;
  return { status, body: typeof reason === "string" ? reason : typeof data === "string" ? data : JSON.stringify(data ?? "") };
}

/** True when the error is Qdrant's 404 "Collection `x` doesn't exist". */
export function isNotFound(err: unknown): boolean {
  const cause = err instanceof HierdocError ? err.cause : err;
  return httpFailure(cause)?.status === 404;
}

/**
 * Maps an error of the Qdrant REST client to a {@link HierdocError} naming the adapter and the operation.
 *
 * Connection refused / reset / DNS failures, 429 and 502–504 → `E_STORE_UNAVAILABLE` (retryable); other 5xx →
 * `E_STORE` (retryable); the client's own timeout (an aborted request) → `E_TIMEOUT` (retryable); a "Vector dimension error"
 * answer → `E_DIMENSION_MISMATCH`; any other 4xx → `E_STORE`.
 */
export function mapQdrantError(err: unknown, operation: string, url: string): HierdocError {
  if (err instanceof HierdocError) return err;
  // Errors from another realm (undici's DOMException under Jest's VM) fail `instanceof Error`: read fields.
  const { name, message } = describeThrown(err);
  const http = httpFailure(err);
  const transport = networkFailure(err);
  let failure: FailureClass = { code: "E_STORE", retryable: false };
  let reason = message;
  if (http !== undefined) {
    reason = `HTTP ${http.status}: ${http.body}`;
    failure = classifyHttpFailure(http.status);
    if (http.status < 500 && http.status !== 429 && /vector dimension error|expected dim/i.test(http.body)) failure = { code: "E_DIMENSION_MISMATCH", retryable: false };
  } else if (name === "QdrantClientTimeoutError" || name === "AbortError" || name === "TimeoutError") {
    failure = { code: "E_TIMEOUT", retryable: true };
  } else if (name === "QdrantClientResourceExhaustedError") {
    failure = { code: "E_STORE_UNAVAILABLE", retryable: true };
  } else if (transport !== undefined) {
    failure = classifyHttpFailure(transport);
    reason = `${reason} (${transport})`;
  }
  return storeFailure({ adapter: ADAPTER, operation, ...failure, reason, location: url, cause: err, details: { url, status: http?.status, driverError: name || undefined } });
}

/** Retry policy for idempotent calls: `retries` after the first attempt, backoff from `baseDelayMs`, doubling with jitter. */
export type RetryPolicy = Pick<StoreRetryPolicy, "retries" | "baseDelayMs">;

/**
 * Runs an idempotent call, retrying with exponential backoff and jitter while the mapped error is retryable
 * and not a timeout (a hung server is reported at once rather than waited on `retries` more times).
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export function withRetry<T>(operation: string, url: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  return withStoreRetry(policy, (err) => mapQdrantError(err, operation, url), fn);
}
