import type { ErrorCode } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";

/** Adapter id used in every error this package throws. */
export const ADAPTER = "qdrant";

/** Socket-level error codes after which the same call may succeed on another attempt. */
const TRANSPORT_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_CLOSED",
]);

/**
 * The transport failure (ECONNREFUSED, …) anywhere in an error's `cause` chain, if any. Node's `fetch`
 * reports every network-level failure as `TypeError: fetch failed` with the socket error as `cause`
 * (sometimes without a `code`, e.g. "other side closed" on a dropped keep-alive connection).
 */
export function transportCode(err: unknown): string | undefined {
  let fetchFailed = false;
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && TRANSPORT_CODES.has(code)) return code;
    const message = (e as { message?: unknown }).message;
    if (depth === 0 && message === "fetch failed") fetchFailed = true;
    else if (fetchFailed && typeof message === "string") return message;
    e = (e as { cause?: unknown }).cause;
  }
  return fetchFailed ? "fetch failed" : undefined;
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
  const name = typeof (err as { name?: unknown } | null)?.name === "string" ? (err as { name: string }).name : "";
  const http = httpFailure(err);
  const transport = transportCode(err);
  let code: ErrorCode = "E_STORE";
  let retryable = false;
  const message = (err as { message?: unknown } | null)?.message;
  let reason = typeof message === "string" ? message : String(err);
  if (http !== undefined) {
    reason = `HTTP ${http.status}: ${http.body}`;
    if (http.status === 429 || (http.status >= 502 && http.status <= 504)) {
      code = "E_STORE_UNAVAILABLE";
      retryable = true;
    } else if (http.status >= 500) {
      retryable = true;
    } else if (/vector dimension error|expected dim/i.test(http.body)) {
      code = "E_DIMENSION_MISMATCH";
    }
  } else if (name === "QdrantClientTimeoutError" || name === "AbortError" || name === "TimeoutError") {
    code = "E_TIMEOUT";
    retryable = true;
  } else if (name === "QdrantClientResourceExhaustedError") {
    code = "E_STORE_UNAVAILABLE";
    retryable = true;
  } else if (transport !== undefined) {
    code = "E_STORE_UNAVAILABLE";
    retryable = true;
    reason = `${reason} (${transport})`;
  }
  const what = code === "E_STORE_UNAVAILABLE" ? `qdrant at ${url} is unavailable` : "qdrant";
  return new HierdocError(code, `${what}: ${operation} failed: ${reason}`, {
    cause: err,
    retryable,
    details: { adapter: ADAPTER, operation, url, status: http?.status, driverError: name || undefined },
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
 * and not a timeout (a hung server is reported at once rather than waited on `retries` more times).
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export async function withRetry<T>(operation: string, url: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const mapped = mapQdrantError(err, operation, url);
      if (!mapped.retryable || mapped.code === "E_TIMEOUT" || attempt >= policy.retries) {
        if (attempt > 0) mapped.details.attempts = attempt + 1;
        throw mapped;
      }
      const delay = policy.baseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
