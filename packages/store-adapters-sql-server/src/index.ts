export { SqlServerStore, EMBEDDER_KEY, DIMENSIONS_KEY, type SqlServerStoreOptions } from "./sql-server-store.js";
export { ADAPTER, mapSqlServerError, serverOf, type RetryPolicy } from "./sql-server-errors.js";
export { mssqlPool, type SqlPoolFactory, type SqlPoolLike, type SqlRequestLike } from "./pool.js";
export * as statements from "./sql-statements.js";
export type { FullTextMode, SqlTable } from "./sql-statements.js";
