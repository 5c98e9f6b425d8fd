import { withStoreRetry } from "@hierdoc/core";
import { mapPgError } from "./errors.js";

/** How often and how patiently idempotent operations are retried. */
export interface RetryOptions {
  /** Total attempts including the first (default 3). */
  attempts?: number;
  /** Delay before the first retry; doubles each time, with jitter (default 100 ms). */
  baseDelayMs?: number;
  /** Where the server is (host, port, database; no credentials), named by E_STORE_UNAVAILABLE errors. */
  where?: string;
}

/**
 * Runs an idempotent operation, retrying with exponential backoff while the mapped error is retryable.
 * @throws HierdocError the mapped error of the last attempt.
 */
export function withRetry<T>(operation: string, options: RetryOptions, fn: () => Promise<T>): Promise<T> {
  const policy = { retries: Math.max(1, options.attempts ?? 3) - 1, baseDelayMs: Math.max(0, options.baseDelayMs ?? 100), jitter: [0.5, 1] as const };
  return withStoreRetry(policy, (err) => mapPgError(err, operation, options.where), fn);
}
