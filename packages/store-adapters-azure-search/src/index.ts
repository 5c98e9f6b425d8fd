export { AzureSearchStore, type AzureSearchStoreOptions } from "./azure-search-store.js";
export { azureIndexDefinition, documentKey, odataString, META_KEY, VECTOR_PROFILE, VECTOR_ALGORITHM } from "./index-schema.js";
export { mapAzureSearchError, restStatus, type RetryPolicy } from "./errors.js";
