import { HierdocError, describeThrown, networkFailure, storeFailure, withStoreRetry, type FailureClass, type StoreRetryPolicy } from "@hierdoc/core";

/** Adapter id used in errors and logs. */
export const ADAPTER = "sql-server";

/** SQL Server / Azure SQL error numbers that mean "try again": deadlock victim, throttling, failover, database busy. */
const TRANSIENT = new Set([1205, 40197, 40501, 40613, 49918, 49919, 49920, 4060, 4221, 233, 10053, 10054, 10060, 10928, 10929]);

/** The host (and port) of a connection string, without user or password, for messages. */
export function serverOf(connectionString: string): string {
  const url = /^mssql:\/\/(?:[^@/]*@)?([^/?;]+)/i.exec(connectionString);
  if (url !== null) return url[1];
  const server = /(?:^|;)\s*(?:server|data source|address|addr|network address)\s*=\s*([^;]+)/i.exec(connectionString);
  return server === null ? "(server not named)" : server[1].trim().replace(/^tcp:/i, "");
}

/**
 * Maps an `mssql` / tedious error to a {@link HierdocError} naming the adapter, the operation and the server
 * (never the connection string).
 *
 * A connection that cannot be made (ESOCKET, ECONNREFUSED, DNS) and transient server errors (Azure SQL
 * 40501/40613/40197/…) → `E_STORE_UNAVAILABLE` (retryable); deadlock 1205 → `E_STORE` (retryable); a connect
 * or request timeout (`ETIMEOUT`) → `E_TIMEOUT` (retryable, not retried within the call); a login failure (`ELOGIN`) → `E_STORE` naming
 * `vector_store.connection_string`; a vector size error → `E_DIMENSION_MISMATCH`; other errors → `E_STORE`.
 */
export function mapSqlServerError(err: unknown, operation: string, server: string): HierdocError {
  if (err instanceof HierdocError) return err;
  const { name, message } = describeThrown(err);
  const code = (err as { code?: unknown } | null)?.code;
  const number = (err as { number?: unknown } | null)?.number;
  const transport = networkFailure(err, ["ESOCKET", "ECONNCLOSED"]);
  let failure: FailureClass = { code: "E_STORE", retryable: false };
  let reason = message;
  if (name === "ConnectionError" && code === "ELOGIN") {
    reason = `${message} (check vector_store.connection_string)`;
  } else if (code === "ETIMEOUT") {
    // A connect or request timeout: the server accepted nothing or answered nothing in time. Reported once
    // (not retried within the call), like the other adapters' hung services.
    failure = { code: "E_TIMEOUT", retryable: true };
  } else if (name === "ConnectionError" || transport !== undefined) {
    failure = { code: "E_STORE_UNAVAILABLE", retryable: true };
    if (typeof code === "string") reason = `${message} (${code})`;
  } else if (typeof number === "number" && TRANSIENT.has(number)) {
    failure = { code: number === 1205 ? "E_STORE" : "E_STORE_UNAVAILABLE", retryable: true };
  } else if (/vector dimensions?|dimension.*(mismatch|do not match)|vector\(\d+\) is incompatible with vector\(\d+\)/i.test(message)) {
    failure = { code: "E_DIMENSION_MISMATCH", retryable: false };
  }
  if (typeof number === "number") reason = `${reason} (error ${number})`;
  return storeFailure({ adapter: ADAPTER, operation, ...failure, reason, location: server, label: "SQL Server", cause: err, details: { server, sqlError: number, driverError: name || undefined } });
}

/** Retry policy of idempotent calls. */
export type RetryPolicy = Pick<StoreRetryPolicy, "retries" | "baseDelayMs">;

/**
 * Runs an idempotent call, retrying retryable mapped errors (not timeouts) with backoff.
 * @throws HierdocError the mapped error of the last attempt.
 */
export function withRetry<T>(operation: string, server: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  return withStoreRetry(policy, (err) => mapSqlServerError(err, operation, server), fn);
}
