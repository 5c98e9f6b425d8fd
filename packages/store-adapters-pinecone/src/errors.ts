import type { FailureClass, StoreRetryPolicy } from "@hierdoc/core";
import { HierdocError, classifyHttpFailure, describeThrown, storeFailure, withStoreRetry } from "@hierdoc/core";

/** Adapter id used in every error this package throws. */
export const ADAPTER = "pinecone";

/** Pinecone SDK error names raised when the index host could not be reached at all. */
const UNREACHABLE = new Set(["PineconeConnectionError", "PineconeRequestError", "PineconeUnableToResolveHostError"]);

/**
 * The HTTP status behind a Pinecone SDK error. The SDK maps each status to its own class (400/403 →
 * BadRequest, 404 → NotFound, 500 → InternalServer, 503 → Unavailable, …) and other statuses (429, 502,
 * 504) to `PineconeUnmappedHttpError`, whose message carries "Status: N".
 */
export function pineconeStatus(err: unknown): number | undefined {
  const e = err instanceof HierdocError ? err.cause : err;
  const name = (e as { name?: unknown } | null | undefined)?.name;
  const byName: Record<string, number> = {
    PineconeBadRequestError: 400,
    PineconeAuthorizationError: 401,
    PineconeNotFoundError: 404,
    PineconeMethodNotAllowedError: 405,
    PineconeConflictError: 409,
    PineconeUnprocessableEntityError: 422,
    PineconeInternalServerError: 500,
    PineconeNotImplementedError: 501,
    PineconeUnavailableError: 503,
  };
  if (typeof name === "string" && byName[name] !== undefined) return byName[name];
  const message = (e as { message?: unknown } | null | undefined)?.message;
  const m = typeof message === "string" ? /Status(?: Code)?: (\d{3})/.exec(message) : null;
  return m === null ? undefined : Number(m[1]);
}

/**
 * Maps an error of the Pinecone SDK to a {@link HierdocError} naming the adapter and the operation.
 *
 * Connection failures (`PineconeConnectionError`), 429, and every 5xx → `E_STORE_UNAVAILABLE` (retryable):
 * the SDK's fetch wrapper turns any 5xx answer into `PineconeMaxRetriesExceededError` without its status
 * (this adapter sets the SDK's `maxRetries` to 0 and retries itself); `PineconeTimeoutError` → `E_TIMEOUT`; a 400 about the vector dimension →
 * `E_DIMENSION_MISMATCH`; other 4xx (bad request, 401/403 auth, 404 index) → `E_STORE`.
 */
export function mapPineconeError(err: unknown, operation: string, host: string): HierdocError {
  if (err instanceof HierdocError) return err;
  const { name, message: reason } = describeThrown(err);
  const status = pineconeStatus(err);
  let failure: FailureClass = status === undefined ? { code: "E_STORE", retryable: false } : classifyHttpFailure(status);
  if (UNREACHABLE.has(name) || name === "PineconeMaxRetriesExceededError") {
    failure = { code: "E_STORE_UNAVAILABLE", retryable: true };
  } else if (name === "PineconeTimeoutError") {
    failure = { code: "E_TIMEOUT", retryable: true };
  } else if (status === 400 && /dimension/i.test(reason)) {
    failure = { code: "E_DIMENSION_MISMATCH", retryable: false };
  }
  return storeFailure({ adapter: ADAPTER, operation, ...failure, reason, location: host, label: "pinecone index", cause: err, details: { host, status, driverError: name || undefined } });
}

/**
 * Retry and timeout policy for idempotent calls: `retries` after the first attempt, backoff from
 * `baseDelayMs` doubling with jitter, and `timeoutMs` per attempt (E_TIMEOUT, not retried; the request is
 * aborted through the SDK's fetch).
 */
export type RetryPolicy = Required<Pick<StoreRetryPolicy, "retries" | "baseDelayMs" | "timeoutMs">>;

/**
 * Runs an idempotent call, retrying with exponential backoff and jitter while the mapped error is retryable
 * and not a timeout.
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export function withRetry<T>(operation: string, host: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  return withStoreRetry(policy, (err) => mapPineconeError(timeoutCause(err) ?? err, operation, host), fn);
}

/** A timeout abort (from {@link timedFetch}) wrapped by the SDK as a connection error, as `PineconeTimeoutError`. */
function timeoutCause(err: unknown): Error | undefined {
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 6; depth++) {
    const name = (e as { name?: unknown }).name;
    if (name === "TimeoutError" || (name === "AbortError" && /timed? ?out|timeout/i.test(String((e as { message?: unknown }).message)))) {
      return Object.assign(new Error(`request timed out`), { name: "PineconeTimeoutError", cause: err });
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A `fetch` that aborts each request after `ms` (AbortSignal.timeout), for the SDK's `fetchApi` option. */
export function timedFetch(ms: number): typeof fetch {
  return (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(ms) });
}
