export { indexDirOf, readManifest, MANIFEST, type IndexLocation, type IndexManifest } from "./index-folder.js";
export { resolveConfig, type Env } from "./resolve-config.js";
export { createStore } from "./create-store.js";
export { STORE_DESCRIPTORS, STORE_PROVIDERS, findStore, resolveStore, storeConfigProblems, withoutStoreSecrets, type StoreConfigProblem } from "./store-registry.js";
export { openIndex, cacheDirOf, createConfiguredEmbedder, type OpenIndexOptions } from "./open-index.js";
export { createKeywordIndex } from "./create-keyword-index.js";
export { resultJson, responseJson, recordJson, definitionJson, crossReferenceJson, ingestJson } from "./json-contract.js";
export { storeTableMarkdown, storeKeysMarkdown, generatedBlock, replaceGeneratedBlock } from "./store-docs.js";
