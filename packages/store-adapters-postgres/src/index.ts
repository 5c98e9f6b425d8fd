export { PostgresStore } from "./postgres-store.js";
export type { PostgresStoreOptions } from "./postgres-store.js";
export { isConnectionError, mapPgError } from "./errors.js";
export { withRetry } from "./retry.js";
export type { RetryOptions } from "./retry.js";
export { HNSW_MAX_DIMENSIONS, quoteIdent, toVectorLiteral } from "./sql.js";
