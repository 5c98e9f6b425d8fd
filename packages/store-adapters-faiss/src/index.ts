export { FaissStore } from "./faiss-store.js";
export type { FaissIndexType, FaissStoreOptions } from "./faiss-store.js";
export type { FaissManifest, FaissFileEntry } from "./faiss-files.js";
