import type { HierdocError } from "./errors.js";

/** How an idempotent store call is retried. */
export interface StoreRetryPolicy {
  /** Attempts after the first one. */
  retries: number;
  /** Delay before the first retry in ms; doubles each retry, times a random jitter factor. */
  baseDelayMs: number;
  /**
   * Time limit of one attempt in ms, when the adapter enforces one. {@link withStoreRetry} does not enforce
   * it (the adapter does, with an abort signal or {@link withTimeLimit}); it records it as
   * `details.timeoutMs` on an E_TIMEOUT that lacks it.
   */
  timeoutMs?: number;
  /** Range of the factor each delay is multiplied by. Default `[0.75, 1.25]`. */
  jitter?: readonly [number, number];
}

/** The delay in ms before retry number `attempt + 1` (`attempt` counts from 0) under `policy`. */
export function retryDelayMs(policy: StoreRetryPolicy, attempt: number): number {
  const [low, high] = policy.jitter ?? [0.75, 1.25];
  return policy.baseDelayMs * 2 ** attempt * (low + Math.random() * (high - low));
}

/**
 * Runs an idempotent store call, mapping what it throws with `mapError` and retrying with exponential
 * backoff and jitter while the mapped error is retryable and not E_TIMEOUT (a hung store is reported at
 * once rather than waited on `retries` more times). `fn` gets the attempt number, counting from 0.
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export async function withStoreRetry<T>(
  policy: StoreRetryPolicy,
  mapError: (err: unknown) => HierdocError,
  fn: (attempt: number) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      const mapped = mapError(err);
      if (mapped.code === "E_TIMEOUT" && policy.timeoutMs !== undefined && mapped.details.timeoutMs === undefined) {
        mapped.details.timeoutMs = policy.timeoutMs;
      }
      if (!mapped.retryable || mapped.code === "E_TIMEOUT" || attempt >= policy.retries) {
        if (attempt > 0) mapped.details.attempts = attempt + 1;
        throw mapped;
      }
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(policy, attempt)));
    }
  }
}

/**
 * Settles like `promise`, or rejects with `onTimeout()` when it has not settled within `ms`. For clients
 * without a per-request abort: the request is abandoned, not cancelled.
 * @throws whatever `promise` rejects with, or the error `onTimeout` returns.
 */
export function withTimeLimit<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
