export { QdrantStore, DENSE_VECTOR, SPARSE_VECTOR, EMBEDDER_KEY, DIMENSIONS_KEY, type QdrantStoreOptions } from "./qdrant-store.js";
export { mapQdrantError, transportCode, type RetryPolicy } from "./errors.js";
export { pointId } from "./point-id.js";
export { tokenize, termIndex, documentSparseVector, querySparseVector, type SparseVector, type Bm25Options } from "./sparse-terms.js";
