import { HierdocError } from "@hierdoc/core";
import type { config } from "mssql";

/**
 * The part of an `mssql` `ConnectionPool` the adapter uses, so that tests can put a double behind the same
 * calls. `request().input(name, value).query(sql)` is how every statement is sent (parameterised, one
 * round trip).
 */
export interface SqlRequestLike {
  input(name: string, value: unknown): SqlRequestLike;
  query<T = Record<string, unknown>>(sql: string): Promise<{ recordset: T[]; rowsAffected: number[] }>;
}

/** A connected pool of connections. */
export interface SqlPoolLike {
  connect(): Promise<unknown>;
  request(): SqlRequestLike;
  close(): Promise<void>;
}

/** Makes the pool for a connection string and time limits. */
export type SqlPoolFactory = (connectionString: string, limits: { connectTimeoutMs: number; requestTimeoutMs: number }) => Promise<SqlPoolLike>;

/**
 * The real pool: `mssql` (tedious driver) `ConnectionPool` from an ADO-style (`Server=…;Database=…;User Id=…;
 * Password=…;Encrypt=true`) or URL (`mssql://user:pw@host:1433/db`) connection string, with the time limits.
 * Loads `mssql` on first use.
 */
export const mssqlPool: SqlPoolFactory = async (connectionString, limits) => {
  const mssql = (await import("mssql")).default;
  const config = /^(mssql|sqlserver):\/\//i.test(connectionString) ? fromUrl(connectionString) : mssql.ConnectionPool.parseConnectionString(connectionString);
  if (typeof config.server !== "string" || config.server === "") {
    throw new HierdocError("E_CONFIG", "vector_store.connection_string: names no server (Server=HOST,PORT;… or mssql://USER:PASSWORD@HOST:PORT/DB)", { details: { adapter: "sql-server", operation: "configure" } });
  }
  config.connectionTimeout = limits.connectTimeoutMs;
  config.requestTimeout = limits.requestTimeoutMs;
  return new mssql.ConnectionPool(config) as unknown as SqlPoolLike;
};

/** An `mssql://USER:PASSWORD@HOST:PORT/DATABASE?encrypt=true&trustServerCertificate=false` URL as a pool config. */
function fromUrl(connectionString: string): config {
  const u = new URL(connectionString);
  const flag = (name: string, fallback: boolean): boolean => {
    const v = u.searchParams.get(name);
    return v === null ? fallback : /^(true|yes|1)$/i.test(v);
  };
  return {
    server: decodeURIComponent(u.hostname),
    port: u.port === "" ? undefined : Number(u.port),
    user: decodeURIComponent(u.username) || undefined,
    password: decodeURIComponent(u.password) || undefined,
    database: decodeURIComponent(u.pathname.replace(/^\//, "")) || undefined,
    options: { encrypt: flag("encrypt", true), trustServerCertificate: flag("trustServerCertificate", false) },
  };
}
