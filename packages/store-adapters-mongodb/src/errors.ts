import type { ErrorCode } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";

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
  const name = typeof (err as { name?: unknown } | null)?.name === "string" ? (err as { name: string }).name : "";
  const raw = (err as { message?: unknown } | null)?.message;
  const reason = typeof raw === "string" ? raw : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  const labels = (err as { errorLabelSet?: Set<string> } | null)?.errorLabelSet ?? new Set<string>();
  let mapped: ErrorCode = "E_STORE";
  let retryable = false;
  if (UNAVAILABLE.has(name) || labels.has("RetryableWriteError") || labels.has("TransientTransactionError")) {
    mapped = "E_STORE_UNAVAILABLE";
    retryable = true;
  } else if (name === "MongoOperationTimeoutError" || code === 50) {
    mapped = "E_TIMEOUT";
    retryable = true;
  } else if (/dimension/i.test(reason) && /vector/i.test(reason)) {
    mapped = "E_DIMENSION_MISMATCH";
  }
  const what = mapped === "E_STORE_UNAVAILABLE" ? `mongodb at ${where} is unavailable` : "mongodb";
  return new HierdocError(mapped, `${what}: ${operation} failed: ${reason}`, {
    cause: err,
    retryable,
    details: { adapter: ADAPTER, operation, where, serverCode: typeof code === "number" ? code : undefined, driverError: name || undefined },
  });
}

/** Retry policy for idempotent calls. */
export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
}

/**
 * Runs an idempotent call, retrying with exponential backoff and jitter while the mapped error is retryable
 * and not a timeout (the driver already retries reads and writes once on its own).
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export async function withRetry<T>(operation: string, where: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const mapped = mapMongoError(err, operation, where);
      if (!mapped.retryable || mapped.code === "E_TIMEOUT" || attempt >= policy.retries) {
        if (attempt > 0) mapped.details.attempts = attempt + 1;
        throw mapped;
      }
      await new Promise((resolve) => setTimeout(resolve, policy.baseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5)));
    }
  }
}
