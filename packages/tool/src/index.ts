export { HierarchicalDocumentTool, hasIdPrefix, type ToolOptions, type ToolSearchOptions, type ToolIngestOptions } from "./hierarchical-document-tool.js";
export { loadToolConfig, redactConfig, type EnvLookup, type LoadToolConfigOptions, type LocatedProblem } from "./config-loader.js";
export { expandSources, isUnderRoots, DOCUMENT_EXTENSIONS, type ExpandedSources } from "./source-files.js";
export { Catalog, type CatalogEntry, type FileState } from "./catalog.js";
export { acquireIndexLock, type IndexLock } from "./index-lock.js";
export { buildResults, type RoutedHit } from "./search-results.js";
export type { FileOutcome, FileReport, IngestProgress, IngestReport } from "./ingest-types.js";
export { writeIndexManifest, MANIFEST, type IndexManifest } from "./index-manifest.js";
