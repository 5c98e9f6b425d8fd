export { indexDirOf, readManifest, MANIFEST, type IndexLocation, type IndexManifest } from "./index-folder.js";
export { resolveConfig, type Env } from "./resolve-config.js";
export { createStore, STORE_PROVIDERS } from "./create-store.js";
export { openIndex, cacheDirOf, createConfiguredEmbedder, type OpenIndexOptions } from "./open-index.js";
export { createKeywordIndex } from "./create-keyword-index.js";
export { resultJson, responseJson, recordJson, definitionJson, crossReferenceJson, ingestJson } from "./json-contract.js";
