/**
 * Machine-readable error codes. Every failure hierdoc reports carries one, so callers (and the CLI's
 * exit codes) can branch on the kind of failure rather than on message text.
 */
export const ErrorCodes = [
  "E_CONFIG",
  "E_INVALID_ARGUMENT",
  "E_INPUT_NOT_FOUND",
  "E_INPUT_EMPTY",
  "E_INPUT_BINARY",
  "E_INPUT_ENCODING",
  "E_INPUT_TOO_LARGE",
  "E_UNSUPPORTED_TYPE",
  "E_PARSE",
  "E_INDEX_MISSING",
  "E_INDEX_CORRUPT",
  "E_INDEX_LOCKED",
  "E_EMBEDDER_MISMATCH",
  "E_DIMENSION_MISMATCH",
  "E_STORE_UNAVAILABLE",
  "E_STORE",
  "E_KEYWORD_UNAVAILABLE",
  "E_EMBEDDING",
  "E_LLM",
  "E_RERANK",
  "E_TIMEOUT",
  "E_CANCELLED",
  "E_NOT_FOUND",
  "E_INTERNAL",
] as const;

/** One of {@link ErrorCodes}. */
export type ErrorCode = (typeof ErrorCodes)[number];

/** Where an error happened: a file and line, a YAML path, or an adapter and its operation. */
export interface ErrorDetails {
  file?: string;
  line?: number;
  column?: number;
  /** YAML / JSON path such as `tools[0].chunking.max_chunk_tokens`. */
  path?: string;
  adapter?: string;
  operation?: string;
  /** Free-form extra facts (never secrets, never document text). */
  [key: string]: unknown;
}

/** Options accepted by {@link HierdocError}. */
export interface HierdocErrorOptions {
  cause?: unknown;
  retryable?: boolean;
  details?: ErrorDetails;
}

/**
 * Base error of every hierdoc package: a {@link ErrorCode}, whether retrying the same call may succeed,
 * the underlying cause, and where it happened.
 */
export class HierdocError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, options: HierdocErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HierdocError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }

  /** A JSON-safe view (code, message, retryable, details) for `--json` error output and logs. */
  toJSON(): { code: ErrorCode; message: string; retryable: boolean; details: ErrorDetails } {
    return { code: this.code, message: this.message, retryable: this.retryable, details: this.details };
  }
}

/** True when `err` is a {@link HierdocError}, optionally with the given code. */
export function isHierdocError(err: unknown, code?: ErrorCode): err is HierdocError {
  return err instanceof HierdocError && (code === undefined || err.code === code);
}

/**
 * Wraps an unknown thrown value from a driver as a {@link HierdocError}, naming the adapter and operation.
 * A value that already is a HierdocError is returned unchanged.
 */
export function toHierdocError(
  err: unknown,
  code: ErrorCode,
  context: { adapter?: string; operation?: string; message?: string; retryable?: boolean },
): HierdocError {
  if (err instanceof HierdocError) return err;
  const reason = err instanceof Error ? err.message : String(err);
  const where = [context.adapter, context.operation].filter(Boolean).join(" ");
  const message = context.message ?? (where ? `${where} failed: ${reason}` : reason);
  return new HierdocError(code, message, {
    cause: err,
    retryable: context.retryable ?? false,
    details: { adapter: context.adapter, operation: context.operation },
  });
}
