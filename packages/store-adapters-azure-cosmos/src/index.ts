export { CosmosStore, META_ID, META_PARTITION, type CosmosStoreOptions } from "./cosmos-store.js";
export { ADAPTER, mapCosmosError, isNotFound, type RetryPolicy } from "./cosmos-errors.js";
export { containerDefinition, declaredVector, hasFullTextIndex, type ContainerSpec, type CosmosVectorIndexType } from "./container-definition.js";
export { CHUNK_KIND, META_KIND, queryTerms, vectorQuery, fullTextQuery, hybridQuery, byIdsQuery, keysByIdsQuery, idsQuery, scanQuery, countQuery, type CosmosQuery } from "./cosmos-queries.js";
