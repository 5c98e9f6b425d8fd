import type { FailureClass, StoreRetryPolicy } from "@hierdoc/core";
import { HierdocError, classifyHttpFailure, describeThrown, networkFailure, storeFailure, withStoreRetry } from "@hierdoc/core";

/** Adapter id used in every error this package throws. */
export const ADAPTER = "azure-search";

/** The Azure pipeline's own code for a request that could not be sent, besides the socket codes. */
const SDK_TRANSPORT_CODES = ["REQUEST_SEND_ERROR"];

/** HTTP status of an Azure SDK `RestError`, if it carries one. */
export function restStatus(err: unknown): number | undefined {
  const e = err instanceof HierdocError ? err.cause : err;
  const status = (e as { statusCode?: unknown } | null | undefined)?.statusCode;
  return typeof status === "number" ? status : undefined;
}

/**
 * Maps an error of `@azure/search-documents` (a `RestError` from `@azure/core-rest-pipeline`, or an
 * `AbortError`) to a {@link HierdocError} naming the adapter and the operation.
 *
 * No status and a socket code (ECONNREFUSED, …, REQUEST_SEND_ERROR), 429 and 502–504 (503 is how the service
 * throttles) → `E_STORE_UNAVAILABLE` (retryable); other 5xx → `E_STORE` (retryable); an abort after
 * `timeoutMs` → `E_TIMEOUT`; a 400 about vector dimensions → `E_DIMENSION_MISMATCH`; other 4xx → `E_STORE`.
 */
export function mapAzureSearchError(err: unknown, operation: string, endpoint: string): HierdocError {
  if (err instanceof HierdocError) return err;
  const { name, message: reason } = describeThrown(err);
  const status = restStatus(err);
  const socket = (err as { code?: unknown } | null)?.code;
  const network = status === undefined ? networkFailure(err, SDK_TRANSPORT_CODES) : undefined;
  let failure: FailureClass = { code: "E_STORE", retryable: false };
  if (name === "AbortError" || name === "TimeoutError") failure = { code: "E_TIMEOUT", retryable: true };
  else if (status === 400 && /dimension/i.test(reason)) failure = { code: "E_DIMENSION_MISMATCH", retryable: false };
  else if (status !== undefined || network !== undefined) failure = classifyHttpFailure(status ?? (network as string));
  return storeFailure({
    adapter: ADAPTER,
    operation,
    ...failure,
    reason,
    location: endpoint,
    cause: err,
    details: { endpoint, status, errorCode: typeof socket === "string" ? socket : undefined, driverError: name || undefined },
  });
}

/**
 * Retry and timeout policy for idempotent calls: `retries` after the first attempt, backoff from
 * `baseDelayMs` doubling with jitter, and `timeoutMs` per attempt (the request is aborted; E_TIMEOUT, not
 * retried).
 */
export type RetryPolicy = Required<Pick<StoreRetryPolicy, "retries" | "baseDelayMs" | "timeoutMs">>;

/**
 * Runs an idempotent call with an abort signal per attempt, retrying with exponential backoff and jitter
 * while the mapped error is retryable and not a timeout.
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export function withRetry<T>(operation: string, endpoint: string, policy: RetryPolicy, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return withStoreRetry(policy, (err) => mapAzureSearchError(err, operation, endpoint), () => fn(AbortSignal.timeout(policy.timeoutMs)));
}
