export { WeaviateStore, type WeaviateStoreOptions } from "./weaviate-store.js";
export { mapWeaviateError, httpFailure, transportCode, type RetryPolicy } from "./errors.js";
export { objectId } from "./object-id.js";
