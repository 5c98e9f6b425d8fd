import { HierdocError, type ErrorCode, type ErrorDetails } from "@hierdoc/core";

/** Builds a {@link HierdocError} whose message and details name the file. */
export function fileError(
  code: ErrorCode,
  path: string,
  message: string,
  options: { cause?: unknown; details?: ErrorDetails } = {},
): HierdocError {
  return new HierdocError(code, `${path}: ${message}`, {
    cause: options.cause,
    details: { ...options.details, file: path },
  });
}

/** Wraps anything a parser threw as E_PARSE naming the file; HierdocErrors pass through unchanged. */
export function parseError(path: string, what: string, err: unknown): HierdocError {
  if (err instanceof HierdocError) return err;
  const reason = err instanceof Error ? err.message : String(err);
  return fileError("E_PARSE", path, `cannot parse ${what}: ${reason}`, { cause: err });
}
