import type { FailureClass, StoreRetryPolicy } from "@hierdoc/core";
import { HierdocError, describeThrown, storeFailure, withStoreRetry } from "@hierdoc/core";

/** Adapter id used in every error this package throws. */
export const ADAPTER = "mongodb";

/** Driver error classes after which the same call may succeed (no server, network drop, pool cleared). */
const UNAVAILABLE = new Set(["MongoServerSelectionError", "MongoNetworkError", "MongoNetworkTimeoutError", "MongoPoolClearedError", "MongoTopologyClosedError", "MongoNotConnectedError"]);

/**
 * Maps a MongoDB driver error to a {@link HierdocError} naming the adapter and the operation.
 *
 * Server selection / network errors and errors labelled `RetryableWriteError` / `TransientTransactionError`
 * → `E_STORE_UNAVAILABLE` (retryable); `MongoOperationTimeoutError` / `MaxTimeMSExpired` (code 50) →
 * `E_TIMEOUT` (retryable); a server message about vector dimensions → `E_DIMENSION_MISMATCH`; everything
 * else (bad pipeline, missing index, auth) → `E_STORE`.
 */
export function mapMongoError(err: unknown, operation: string, where: string): HierdocError {
  if (err instanceof HierdocError) return err;
  const { name, message: reason } = describeThrown(err);
  const code = (err as { code?: unknown } | null)?.code;
  const labels = (err as { errorLabelSet?: Set<string> } | null)?.errorLabelSet ?? new Set<string>();
  let failure: FailureClass = { code: "E_STORE", retryable: false };
  if (UNAVAILABLE.has(name) || labels.has("RetryableWriteError") || labels.has("TransientTransactionError")) {
    failure = { code: "E_STORE_UNAVAILABLE", retryable: true };
  } else if (name === "MongoOperationTimeoutError" || code === 50) {
    failure = { code: "E_TIMEOUT", retryable: true };
  } else if (/dimension/i.test(reason) && /vector/i.test(reason)) {
    failure = { code: "E_DIMENSION_MISMATCH", retryable: false };
  }
  return storeFailure({
    adapter: ADAPTER,
    operation,
    ...failure,
    reason,
    location: where,
    cause: err,
    details: { where, serverCode: typeof code === "number" ? code : undefined, driverError: name || undefined },
  });
}

/** Retry policy for idempotent calls: `retries` after the first attempt, backoff from `baseDelayMs`, doubling with jitter. */
export type RetryPolicy = Pick<StoreRetryPolicy, "retries" | "baseDelayMs">;

/**
 * Runs an idempotent call, retrying with exponential backoff and jitter while the mapped error is retryable
 * and not a timeout (the driver already retries reads and writes once on its own).
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export function withRetry<T>(operation: string, where: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  return withStoreRetry(policy, (err) => mapMongoError(err, operation, where), fn);
}
