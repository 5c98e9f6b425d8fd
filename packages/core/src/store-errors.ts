import { HierdocError, type ErrorCode, type ErrorDetails } from "./errors.js";

/**
 * A {@link HierdocError} thrown by a store adapter: `details` name the adapter and the operation, followed
 * by the adapter's own facts (collection, index, URL, expected dimensions, …).
 *
 * Use it for the adapter's own checks (not open, bad argument, corrupt record); use {@link storeFailure}
 * for a mapped driver error.
 */
export function storeError(
  adapter: string,
  code: ErrorCode,
  operation: string,
  message: string,
  details: Record<string, unknown> = {},
  options: { cause?: unknown; retryable?: boolean } = {},
): HierdocError {
  return new HierdocError(code, message, { cause: options.cause, retryable: options.retryable, details: { adapter, operation, ...details } });
}

/**
 * The `name` and `message` of a thrown value, read as plain fields so that errors from another realm
 * (e.g. undici's DOMException under Jest's VM, which fails `instanceof Error`) are described too.
 * `name` is `""` when absent; `message` falls back to `String(err)`.
 */
export function describeThrown(err: unknown): { name: string; message: string } {
  const name = (err as { name?: unknown } | null | undefined)?.name;
  const message = (err as { message?: unknown } | null | undefined)?.message;
  return { name: typeof name === "string" ? name : "", message: typeof message === "string" ? message : String(err) };
}

/** What {@link storeFailure} needs to describe a failed driver call. */
export interface StoreFailure {
  /** Adapter id (`details.adapter`, and the message prefix). */
  adapter: string;
  /** The store operation that failed (`open`, `upsert`, …). */
  operation: string;
  code: ErrorCode;
  retryable: boolean;
  /** Why it failed (driver message, HTTP status and body, …). */
  reason: string;
  /** Where the store is (URL, host, endpoint), named in the message when the store is unavailable. */
  location: string;
  /** Name of the store in the "unavailable" message; default `adapter` (e.g. `"pinecone index"`). */
  label?: string;
  /** The driver error. */
  cause: unknown;
  /** More facts for `details` (the location under the adapter's own key, status, driver error name…). */
  details?: ErrorDetails;
}

/**
 * The {@link HierdocError} of a failed driver call, with the message every adapter uses:
 * `"<label> at <location> is unavailable: <operation> failed: <reason>"` for E_STORE_UNAVAILABLE, else
 * `"<adapter>: <operation> failed: <reason>"`.
 */
export function storeFailure(failure: StoreFailure): HierdocError {
  const { adapter, operation, code, reason } = failure;
  const what = code === "E_STORE_UNAVAILABLE" ? `${failure.label ?? adapter} at ${failure.location} is unavailable` : adapter;
  return storeError(adapter, code, operation, `${what}: ${operation} failed: ${reason}`, failure.details, {
    cause: failure.cause,
    retryable: failure.retryable,
  });
}

/** Builds one adapter's errors: see {@link storeErrorBuilder}. */
export type StoreErrorBuilder = (code: ErrorCode, operation: string, message: string, extra?: Record<string, unknown>, cause?: unknown) => HierdocError;

/**
 * A {@link storeError} bound to one adapter instance: every error names `adapter` and carries `details()`
 * (read when the error is built: collection, index, URL…) followed by the call's own `extra`. Use it as
 * an adapter's `error` field.
 */
export function storeErrorBuilder(adapter: string, details: () => Record<string, unknown> = () => ({})): StoreErrorBuilder {
  return (code, operation, message, extra = {}, cause) => storeError(adapter, code, operation, message, { ...details(), ...extra }, { cause });
}
