import type { FailureClass, StoreRetryPolicy } from "@hierdoc/core";
import { HierdocError, classifyHttpFailure, describeThrown, storeFailure, withStoreRetry } from "@hierdoc/core";

/** Adapter id used in every error this package throws. */
export const ADAPTER = "opensearch";

/** Names of client errors raised before any HTTP answer: the node could not be reached. */
const UNREACHABLE = new Set(["ConnectionError", "NoLivingConnectionsError"]);

/** Status, OpenSearch error type and reason of a `ResponseError`, if the error is one. */
export function responseFailure(err: unknown): { status: number; type: string; reason: string } | undefined {
  const e = (err instanceof HierdocError ? err.cause : err) as { name?: unknown; statusCode?: unknown; body?: unknown } | null | undefined;
  if (e?.name !== "ResponseError" || typeof e.statusCode !== "number") return undefined;
  const error = (e.body as { error?: unknown } | undefined)?.error;
  if (typeof error === "string") return { status: e.statusCode, type: "", reason: error };
  const detail = error as { type?: string; reason?: string; root_cause?: Array<{ type?: string; reason?: string }>; caused_by?: { type?: string; reason?: string } } | undefined;
  const root = detail?.root_cause?.[0];
  const type = detail?.type ?? root?.type ?? "";
  const cause = detail?.caused_by?.reason ? ` (caused by ${detail.caused_by.type ?? "error"}: ${detail.caused_by.reason})` : "";
  const reason = `${detail?.reason ?? root?.reason ?? JSON.stringify(e.body ?? "")}${cause}`;
  return { status: e.statusCode, type, reason };
}

/** Code and retryability of an OpenSearch answer (whole request or one bulk item). */
export function classifyStatus(status: number, type: string, reason: string): FailureClass {
  const failure = classifyHttpFailure(status);
  if (failure.code === "E_STORE" && status < 500 && /dimension/i.test(reason) && /vector|knn/i.test(`${type} ${reason}`)) return { code: "E_DIMENSION_MISMATCH", retryable: false };
  return failure;
}

/**
 * Maps an error of the OpenSearch client to a {@link HierdocError} naming the adapter and the operation.
 *
 * `ConnectionError` / `NoLivingConnectionsError` (refused, reset, DNS), 429 and 502–504 →
 * `E_STORE_UNAVAILABLE` (retryable); other 5xx → `E_STORE` (retryable); the client's `TimeoutError` →
 * `E_TIMEOUT` (retryable); a k-NN vector dimension complaint → `E_DIMENSION_MISMATCH`; other 4xx → `E_STORE`.
 */
export function mapOpenSearchError(err: unknown, operation: string, url: string): HierdocError {
  if (err instanceof HierdocError) return err;
  const { name, message } = describeThrown(err);
  let reason = message;
  let failure: FailureClass = { code: "E_STORE", retryable: false };
  const http = responseFailure(err);
  if (http !== undefined) {
    reason = `HTTP ${http.status}${http.type ? ` ${http.type}` : ""}: ${http.reason}`;
    failure = classifyStatus(http.status, http.type, http.reason);
  } else if (name === "TimeoutError" || name === "RequestAbortedError") {
    failure = { code: "E_TIMEOUT", retryable: true };
  } else if (UNREACHABLE.has(name)) {
    failure = { code: "E_STORE_UNAVAILABLE", retryable: true };
  }
  return storeFailure({
    adapter: ADAPTER,
    operation,
    ...failure,
    reason,
    location: url,
    cause: err,
    details: { url, status: http?.status, errorType: http?.type || undefined, driverError: name || undefined },
  });
}

/** Retry policy for idempotent calls: `retries` after the first attempt, backoff from `baseDelayMs`, doubling with jitter. */
export type RetryPolicy = Pick<StoreRetryPolicy, "retries" | "baseDelayMs">;

/**
 * Runs an idempotent call, retrying with exponential backoff and jitter while the mapped error is retryable
 * and not a timeout (a hung node is reported at once rather than waited on `retries` more times).
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export function withRetry<T>(operation: string, url: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  return withStoreRetry(policy, (err) => mapOpenSearchError(err, operation, url), fn);
}
