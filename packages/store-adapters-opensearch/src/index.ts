export { OpenSearchStore, type OpenSearchStoreOptions } from "./opensearch-store.js";
export { openSearchIndexBody, hybridPipelineBody, EMBEDDER_KEY, DIMENSIONS_KEY, type IndexBodyOptions, type HybridWeights } from "./index-body.js";
export { mapOpenSearchError, classifyStatus, responseFailure, type RetryPolicy } from "./errors.js";
