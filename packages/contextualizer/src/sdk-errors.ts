import { HierdocError } from "@hierdoc/core";
import { cancelled, isRetryableStatus, retryAfterMs, type FailureInfo } from "./retry-policy.js";

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes an official SDK exports (Anthropic and OpenAI share this shape). */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
  APIUserAbortError: ErrorClass;
}

class NeverThrown extends Error {}

/**
 * Error classes no failure is an instance of: what a generator classifies with before its SDK has loaded
 * (a failure then can only come from loading or from hierdoc itself).
 */
export const NO_SDK_ERRORS: SdkErrorClasses = {
  APIError: NeverThrown,
  APIConnectionError: NeverThrown,
  APIConnectionTimeoutError: NeverThrown,
  APIUserAbortError: NeverThrown,
};

/** A failure classified for the retry loop, with the HierdocError it becomes if it is the last one. */
export interface ClassifiedFailure extends FailureInfo {
  error: HierdocError;
}

/**
 * Maps an SDK (or parse) failure to retryability, the server's `retry-after` and a HierdocError naming the
 * provider and operation: 408/409/429/529/5xx, connection errors, timeouts and malformed response bodies are
 * retryable; other 4xx are not; an abort becomes E_CANCELLED. Messages carry the status and the API's
 * error message, never document text.
 */
export function classifySdkError(err: unknown, classes: SdkErrorClasses, provider: string, operation: string): ClassifiedFailure {
  const details = { adapter: provider, operation };
  if (err instanceof HierdocError) return { retryable: err.retryable, error: err };
  if (err instanceof classes.APIUserAbortError) return { retryable: false, error: cancelled() };
  if (err instanceof classes.APIConnectionTimeoutError) {
    return { retryable: true, error: new HierdocError("E_TIMEOUT", `${provider} ${operation} timed out`, { cause: err, retryable: true, details }) };
  }
  if (err instanceof classes.APIConnectionError) {
    const error = new HierdocError("E_LLM", `${provider} ${operation} failed: connection error (${err.message})`, { cause: err, retryable: true, details });
    return { retryable: true, error };
  }
  if (err instanceof classes.APIError) {
    const api = err as Error & { status?: number; headers?: Headers };
    const retryable = isRetryableStatus(api.status);
    const error = new HierdocError("E_LLM", `${provider} ${operation} failed: ${api.message}`, {
      cause: err,
      retryable,
      details: { ...details, status: api.status },
    });
    return { retryable, retryAfterMs: retryAfterMs(api.headers), error };
  }
  if (err instanceof SyntaxError || (err as { name?: unknown } | null)?.name === "SyntaxError") {
    return { retryable: true, error: new HierdocError("E_LLM", `${provider} ${operation} returned a malformed response body`, { cause: err, retryable: true, details }) };
  }
  const reason = err instanceof Error ? err.message : String(err);
  return { retryable: false, error: new HierdocError("E_LLM", `${provider} ${operation} failed: ${reason}`, { cause: err, details }) };
}
