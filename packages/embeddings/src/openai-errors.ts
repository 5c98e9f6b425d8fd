import { HierdocError, lazyImport } from "@hierdoc/core";

/** The `openai` package's exports. */
export type OpenAISdk = typeof import("openai");

/** The loaded SDK, kept for the synchronous error classification below. */
let sdk: OpenAISdk | undefined;

/**
 * Loads the `openai` SDK on first use (an {@link OpenAIEmbedder} calls it before its first request), so
 * importing this package loads no SDK. Later calls share the load; a failed load is tried again next time.
 */
export const loadOpenAISdk: () => Promise<OpenAISdk> = lazyImport(() => import("openai").then((loaded) => (sdk = loaded)));

/** HTTP statuses after which the same embeddings request may succeed. */
const RETRYABLE_STATUS = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

/** True for transport failures (connection refused/reset, timeout) that are worth another attempt. */
export function isNetworkError(err: unknown): boolean {
  return sdk !== undefined && err instanceof sdk.APIConnectionError;
}

/**
 * Maps an `openai` SDK error (or a malformed response) to a HierdocError: `E_CANCELLED` for aborts,
 * otherwise `E_EMBEDDING` with `retryable` set for 408/409/429/5xx and network errors, and the provider,
 * operation and HTTP status in `details`. Never includes the API key or input text. SDK errors are
 * recognised once the SDK has loaded (the first embeddings request loads it); before that every error is
 * one of the generic cases.
 */
export function mapOpenAIError(err: unknown, where: { provider: string; model: string }): HierdocError {
  if (err instanceof HierdocError) return err;
  const details = { adapter: where.provider, operation: "embed", model: where.model };
  if (sdk && err instanceof sdk.APIUserAbortError) {
    return new HierdocError("E_CANCELLED", `${where.provider} embeddings request was cancelled`, { cause: err, details });
  }
  if (sdk && err instanceof sdk.APIConnectionError) {
    return new HierdocError("E_EMBEDDING", `${where.provider} embeddings: cannot reach the endpoint (${err.message})`, {
      cause: err,
      retryable: true,
      details,
    });
  }
  if (sdk && err instanceof sdk.APIError && typeof err.status === "number") {
    const status = err.status;
    const hint = status === 401 || status === 403 ? " (check the API key)" : status === 404 ? " (check the model / deployment and base URL)" : "";
    return new HierdocError("E_EMBEDDING", `${where.provider} embeddings failed with HTTP ${status}${hint}: ${err.message}`, {
      cause: err,
      retryable: RETRYABLE_STATUS.has(status) || status >= 500,
      details: { ...details, status },
    });
  }
  // Duck-typed: fetch's JSON errors may come from another realm (test VMs), where instanceof fails.
  const name = typeof err === "object" && err !== null ? (err as { name?: unknown }).name : undefined;
  const reason = typeof err === "object" && err !== null && "message" in err ? String((err as { message: unknown }).message) : String(err);
  if (name === "SyntaxError") {
    return new HierdocError("E_EMBEDDING", `${where.provider} embeddings: malformed response (${reason})`, {
      cause: err,
      details,
    });
  }
  return new HierdocError("E_EMBEDDING", `${where.provider} embeddings failed: ${reason}`, { cause: err, details });
}
