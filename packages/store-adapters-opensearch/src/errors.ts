import type { ErrorCode } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";

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
export function classifyStatus(status: number, type: string, reason: string): { code: ErrorCode; retryable: boolean } {
  if (status === 429 || (status >= 502 && status <= 504)) return { code: "E_STORE_UNAVAILABLE", retryable: true };
  if (status >= 500) return { code: "E_STORE", retryable: true };
  if (/dimension/i.test(reason) && /vector|knn/i.test(`${type} ${reason}`)) return { code: "E_DIMENSION_MISMATCH", retryable: false };
  return { code: "E_STORE", retryable: false };
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
  const name = typeof (err as { name?: unknown } | null)?.name === "string" ? (err as { name: string }).name : "";
  const message = (err as { message?: unknown } | null)?.message;
  let reason = typeof message === "string" ? message : String(err);
  let code: ErrorCode = "E_STORE";
  let retryable = false;
  const http = responseFailure(err);
  if (http !== undefined) {
    reason = `HTTP ${http.status}${http.type ? ` ${http.type}` : ""}: ${http.reason}`;
    ({ code, retryable } = classifyStatus(http.status, http.type, http.reason));
  } else if (name === "TimeoutError" || name === "RequestAbortedError") {
    code = "E_TIMEOUT";
    retryable = true;
  } else if (UNREACHABLE.has(name)) {
    code = "E_STORE_UNAVAILABLE";
    retryable = true;
  }
  const what = code === "E_STORE_UNAVAILABLE" ? `opensearch at ${url} is unavailable` : "opensearch";
  return new HierdocError(code, `${what}: ${operation} failed: ${reason}`, {
    cause: err,
    retryable,
    details: { adapter: ADAPTER, operation, url, status: http?.status, errorType: http?.type || undefined, driverError: name || undefined },
  });
}

/** Retry policy for idempotent calls. */
export interface RetryPolicy {
  /** Attempts after the first one. */
  retries: number;
  /** Delay before the first retry; doubles each time (with jitter). */
  baseDelayMs: number;
}

/**
 * Runs an idempotent call, retrying with exponential backoff and jitter while the mapped error is retryable
 * and not a timeout (a hung node is reported at once rather than waited on `retries` more times).
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export async function withRetry<T>(operation: string, url: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const mapped = mapOpenSearchError(err, operation, url);
      if (!mapped.retryable || mapped.code === "E_TIMEOUT" || attempt >= policy.retries) {
        if (attempt > 0) mapped.details.attempts = attempt + 1;
        throw mapped;
      }
      const delay = policy.baseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
