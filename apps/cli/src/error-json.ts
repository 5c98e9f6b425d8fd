import type { HierdocError } from "@hierdoc/core";

/**
 * An error as JSON (stderr or a batch line): `{ code, message, retryable?, details? }`, details without undefined
 * or function values; `retryable: true` when the same command may succeed later (e.g. E_STORE_UNAVAILABLE).
 */
export function errorJson(err: HierdocError | Error): Record<string, unknown> {
  const e = err as HierdocError;
  return { code: e.code ?? "E_INTERNAL", message: err.message, ...(e.retryable === true ? { retryable: true } : {}), ...(e.details && Object.keys(e.details).length > 0 ? { details: safeDetails(e.details) } : {}) };
}

function safeDetails(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details)) if (v !== undefined && typeof v !== "function") out[k] = v;
  return out;
}
