import type { ErrorCode } from "./errors.js";

/**
 * Socket-level error codes (Node `net` / DNS and undici) that mean the request got no answer: the store
 * could not be reached or dropped the connection, so the same call may succeed later.
 */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_CLOSED",
]);

/**
 * The network-level failure behind an error, if any: a {@link NETWORK_ERROR_CODES} code (or one of
 * `extraCodes`) anywhere in its `cause` chain; else, for Node's `fetch` (which reports every network
 * failure as `TypeError: fetch failed` with the socket error as `cause`, sometimes without a code, e.g.
 * "other side closed"), the cause's message, or `"fetch failed"`. `undefined` for anything else.
 */
export function networkFailure(err: unknown, extraCodes: Iterable<string> = []): string | undefined {
  const extra = new Set(extraCodes);
  let fetchFailed = false;
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (NETWORK_ERROR_CODES.has(code) || extra.has(code))) return code;
    const message = (e as { message?: unknown }).message;
    if (depth === 0 && message === "fetch failed") fetchFailed = true;
    else if (fetchFailed && typeof message === "string") return message;
    e = (e as { cause?: unknown }).cause;
  }
  return fetchFailed ? "fetch failed" : undefined;
}

/** Code and retryability of a failed store request. */
export interface FailureClass {
  code: ErrorCode;
  retryable: boolean;
}

/**
 * How a failed HTTP request to a store is reported. A number is the answer's status: 429 and 502–504
 * (throttling, gateway, overload) → E_STORE_UNAVAILABLE, retryable; other 5xx → E_STORE, retryable; any
 * other status → E_STORE, not retryable (the adapter refines 4xx, e.g. to E_DIMENSION_MISMATCH). A string is
 * a network-level failure without an answer (see {@link networkFailure}) → E_STORE_UNAVAILABLE, retryable.
 */
export function classifyHttpFailure(failure: number | string): FailureClass {
  if (typeof failure === "string") return { code: "E_STORE_UNAVAILABLE", retryable: true };
  if (failure === 429 || (failure >= 502 && failure <= 504)) return { code: "E_STORE_UNAVAILABLE", retryable: true };
  return { code: "E_STORE", retryable: failure >= 500 };
}
