export { PineconeStore, META_ID, EMBEDDER_KEY, DIMENSIONS_KEY, MAX_METADATA_BYTES, type PineconeStoreOptions } from "./pinecone-store.js";
export { mapPineconeError, pineconeStatus, timedFetch, type RetryPolicy } from "./errors.js";
