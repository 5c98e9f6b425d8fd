import type { HierdocError } from "@hierdoc/core";
import { mapPgError } from "./errors.js";

/** How often and how patiently idempotent operations are retried. */
export interface RetryOptions {
  /** Total attempts including the first (default 3). */
  attempts?: number;
  /** Delay before the first retry; doubles each time, with jitter (default 100 ms). */
  baseDelayMs?: number;
}

/**
 * Runs an idempotent operation, retrying with exponential backoff while the mapped error is retryable.
 * @throws HierdocError the mapped error of the last attempt.
 */
export async function withRetry<T>(operation: string, options: RetryOptions, fn: () => Promise<T>): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 3);
  const base = Math.max(0, options.baseDelayMs ?? 100);
  let last: HierdocError | undefined;
  let made = 0;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    made = attempt;
    try {
      return await fn();
    } catch (err) {
      last = mapPgError(err, operation);
      if (!last.retryable || attempt === attempts) break;
      const delay = base * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  if (last !== undefined && made > 1) last.details.attempts = made;
  throw last;
}
