export { LanceDbStore, LANCEDB_MAX_BATCH, type LanceDbStoreOptions } from "./lancedb-store.js";
export { mapLanceError } from "./errors.js";
export { tableSchema, encodeRow, decodeRow, type LanceRow } from "./row-codec.js";
