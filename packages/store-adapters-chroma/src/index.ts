export { ChromaStore, DEFAULT_CHROMA_MAX_BATCH, type ChromaStoreOptions } from "./chroma-store.js";
export { mapChromaError, type RetryPolicy } from "./errors.js";
export { encodeRecord, decodeRecord, RECORD_KEY } from "./record-codec.js";
