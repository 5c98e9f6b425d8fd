import { HierdocError, NETWORK_ERROR_CODES, type ErrorCode } from "@hierdoc/core";

/** Adapter name used in every error this package raises. */
export const ADAPTER = "postgres";

/** SQLSTATEs after which the server may accept the same call later (shutting down, starting up, too many clients). */
const SERVER_UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection (?:is )?closed/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
  /not queryable/i,
];

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * True when `err` means the server could not be reached or dropped the connection (network errors,
 * SQLSTATE class 08, server shutting down, too many connections), i.e. retrying later may succeed.
 */
export function isConnectionError(err: unknown): boolean {
  if (err instanceof AggregateError) return err.errors.some(isConnectionError);
  const code = codeOf(err);
  if (code !== undefined && (NETWORK_ERROR_CODES.has(code) || SERVER_UNAVAILABLE_STATES.has(code) || code.startsWith("08"))) return true;
  const message = err instanceof Error ? err.message : String(err);
  return CONNECTION_MESSAGES.some((re) => re.test(message));
}

/**
 * Maps a `pg` driver error to a {@link HierdocError} naming the adapter and the operation:
 * unreachable server → E_STORE_UNAVAILABLE (retryable); serialization failure or deadlock → E_STORE
 * (retryable); a pgvector dimension error → E_DIMENSION_MISMATCH; anything else → E_STORE.
 */
export function mapPgError(err: unknown, operation: string, where?: string): HierdocError {
  if (err instanceof HierdocError) return err;
  const reason = err instanceof Error && err.message ? err.message : codeOf(err) ?? String(err);
  const sqlState = codeOf(err);
  const details = { adapter: ADAPTER, operation, ...(sqlState ? { sqlState } : {}), ...(where ? { where } : {}) };
  let code: ErrorCode = "E_STORE";
  let retryable = false;
  let message = `postgres ${operation} failed: ${reason}`;
  if (isConnectionError(err)) {
    code = "E_STORE_UNAVAILABLE";
    retryable = true;
    message = `postgres${where ? ` at ${where}` : ""} is unavailable: ${operation} failed: the server cannot be reached (${reason})`;
  } else if (sqlState === "40001" || sqlState === "40P01") {
    retryable = true;
  } else if (/expected \d+ dimensions?, not \d+/i.test(reason)) {
    code = "E_DIMENSION_MISMATCH";
  }
  return new HierdocError(code, message, { cause: err, retryable, details });
}
