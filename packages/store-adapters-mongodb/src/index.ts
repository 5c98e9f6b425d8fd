export { MongoStore, type MongoStoreOptions } from "./mongodb-store.js";
export { searchIndexDefinitions, vectorSearchStage, textSearchStage, vectorSearchPipeline, textSearchPipeline, hybridPipeline, type IndexNames } from "./pipelines.js";
export { mapMongoError, type RetryPolicy } from "./errors.js";
