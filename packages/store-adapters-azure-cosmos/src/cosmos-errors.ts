import {
  HierdocError,
  classifyHttpFailure,
  describeThrown,
  networkFailure,
  redactUrl,
  storeFailure,
  withStoreRetry,
  type FailureClass,
  type StoreRetryPolicy,
} from "@hierdoc/core";

/** Adapter id used in errors and logs. */
export const ADAPTER = "azure-cosmos-nosql";

/** HTTP status and the service's message of an `ErrorResponse` of `@azure/cosmos`, if it is one. */
export function cosmosStatus(err: unknown): { status: number; message: string } | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== "number") return undefined;
  const body = (err as { body?: { message?: unknown } }).body;
  const raw = typeof body?.message === "string" ? body.message : describeThrown(err).message;
  // The service's messages embed a JSON envelope and activity ids on later lines: keep the first line.
  return { status: code, message: raw.split(/\r?\n/)[0] ?? raw };
}

/** True when the error is the service's 404 (database, container or item does not exist). */
export function isNotFound(err: unknown): boolean {
  return cosmosStatus(err instanceof HierdocError ? err.cause : err)?.status === 404;
}

/** True when the error is the service's 409 (the resource already exists: another writer created it first). */
export function isConflict(err: unknown): boolean {
  return cosmosStatus(err instanceof HierdocError ? err.cause : err)?.status === 409;
}

/**
 * Maps an error of `@azure/cosmos` to a {@link HierdocError} naming the adapter, the operation and the
 * account endpoint (without credentials).
 *
 * Connection refused / reset / DNS failures, 429 and 502–504 → `E_STORE_UNAVAILABLE` (retryable); 503
 * (service unavailable) too; other 5xx → `E_STORE` (retryable); the SDK's request timeout
 * (`TimeoutError`) or an aborted request → `E_TIMEOUT` (retryable); 401/403 → `E_STORE` naming the key;
 * a 400 about vector dimensions → `E_DIMENSION_MISMATCH`; any other 4xx → `E_STORE`.
 */
export function mapCosmosError(err: unknown, operation: string, endpoint: string): HierdocError {
  if (err instanceof HierdocError) return err;
  const { name, message } = describeThrown(err);
  const location = redactUrl(endpoint);
  const http = cosmosStatus(err);
  const transport = networkFailure(err, ["ECONNREFUSED"]);
  let failure: FailureClass = { code: "E_STORE", retryable: false };
  let reason = message;
  if (http !== undefined) {
    reason = `HTTP ${http.status}: ${http.message}`;
    failure = http.status === 503 ? { code: "E_STORE_UNAVAILABLE", retryable: true } : classifyHttpFailure(http.status);
    if (http.status === 401 || http.status === 403) reason = `${reason} (check vector_store.key)`;
    if (http.status === 400 && /dimension/i.test(http.message)) failure = { code: "E_DIMENSION_MISMATCH", retryable: false };
  } else if (name === "TimeoutError" || name === "AbortError" || (err as { code?: unknown } | null)?.code === "TimeoutError" || /operation was aborted/i.test(message)) {
    failure = { code: "E_TIMEOUT", retryable: true };
  } else if (transport !== undefined) {
    failure = classifyHttpFailure(transport);
    reason = `${reason} (${transport})`;
  }
  return storeFailure({
    adapter: ADAPTER,
    operation,
    ...failure,
    reason,
    location,
    label: "Azure Cosmos DB account",
    cause: err,
    details: { endpoint: location, status: http?.status, driverError: name || undefined },
  });
}

/** Retry policy of idempotent calls (the SDK itself already retries 429 and some connection resets). */
export type RetryPolicy = Pick<StoreRetryPolicy, "retries" | "baseDelayMs">;

/**
 * Runs an idempotent call, retrying retryable mapped errors (not timeouts) with backoff.
 * @throws HierdocError the mapped error of the last attempt.
 */
export function withRetry<T>(operation: string, endpoint: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  return withStoreRetry(policy, (err) => mapCosmosError(err, operation, endpoint), fn);
}
