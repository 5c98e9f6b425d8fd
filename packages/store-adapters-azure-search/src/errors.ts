import type { ErrorCode } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";

/** Adapter id used in every error this package throws. */
export const ADAPTER = "azure-search";

const TRANSPORT_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT", "EPIPE", "REQUEST_SEND_ERROR"]);

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
  const name = typeof (err as { name?: unknown } | null)?.name === "string" ? (err as { name: string }).name : "";
  const raw = (err as { message?: unknown } | null)?.message;
  const reason = typeof raw === "string" ? raw : String(err);
  const status = restStatus(err);
  const socket = (err as { code?: unknown } | null)?.code;
  let code: ErrorCode = "E_STORE";
  let retryable = false;
  if (name === "AbortError" || name === "TimeoutError") {
    code = "E_TIMEOUT";
    retryable = true;
  } else if (status === undefined && typeof socket === "string" && TRANSPORT_CODES.has(socket)) {
    code = "E_STORE_UNAVAILABLE";
    retryable = true;
  } else if (status === 429 || (status !== undefined && status >= 502 && status <= 504)) {
    code = "E_STORE_UNAVAILABLE";
    retryable = true;
  } else if (status !== undefined && status >= 500) {
    retryable = true;
  } else if (status === 400 && /dimension/i.test(reason)) {
    code = "E_DIMENSION_MISMATCH";
  }
  const what = code === "E_STORE_UNAVAILABLE" ? `azure-search at ${endpoint} is unavailable` : "azure-search";
  return new HierdocError(code, `${what}: ${operation} failed: ${reason}`, {
    cause: err,
    retryable,
    details: { adapter: ADAPTER, operation, endpoint, status, errorCode: typeof socket === "string" ? socket : undefined, driverError: name || undefined },
  });
}

/** Retry and timeout policy for idempotent calls. */
export interface RetryPolicy {
  /** Attempts after the first one. */
  retries: number;
  /** Delay before the first retry; doubles each time (with jitter). */
  baseDelayMs: number;
  /** Time limit of one attempt; the request is aborted (E_TIMEOUT, not retried). */
  timeoutMs: number;
}

/**
 * Runs an idempotent call with an abort signal per attempt, retrying with exponential backoff and jitter
 * while the mapped error is retryable and not a timeout.
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export async function withRetry<T>(operation: string, endpoint: string, policy: RetryPolicy, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(AbortSignal.timeout(policy.timeoutMs));
    } catch (err) {
      const mapped = mapAzureSearchError(err, operation, endpoint);
      if (mapped.code === "E_TIMEOUT") mapped.details.timeoutMs = policy.timeoutMs;
      if (!mapped.retryable || mapped.code === "E_TIMEOUT" || attempt >= policy.retries) {
        if (attempt > 0) mapped.details.attempts = attempt + 1;
        throw mapped;
      }
      const delay = policy.baseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
