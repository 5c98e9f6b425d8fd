export { MemoryStore } from "./memory-store.js";
export type { MemoryStoreOptions } from "./memory-store.js";
export { VectorMatrix, vectorNorm } from "./vector-matrix.js";
export { TopK } from "./top-k.js";
export { MANIFEST_FILE } from "./snapshot.js";
export type { SnapshotManifest, SnapshotFileEntry } from "./snapshot.js";
export { DEFAULT_MEMORY_ANN, resolveMemoryAnn } from "./ann-leg.js";
export type { MemoryAnnConfig, ResolvedMemoryAnn } from "./ann-leg.js";
export type { SnapshotAnnEntry } from "./snapshot.js";
