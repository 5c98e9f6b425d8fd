export {
  HierarchicalDocumentTool, hasIdPrefix, type ToolOptions, type ToolSearchOptions, type ToolIngestOptions,
} from "./hierarchical-document-tool.js";
export { describeOpenInfo, describeStoreInfo, storeOpenInfo, type OpenInfo } from "./open-info.js";
export { DERIVED_FILE_NAME, readDerivedState, writeDerivedState, removeDerivedState, type DerivedState, type LoadedDerivedState } from "./derived-state.js";
export { DERIVED_DELTA_FILE_NAME, readDerivedDelta, writeDerivedDelta, removeDerivedDelta, type DerivedDelta } from "./derived-delta.js";
export { LayeredResolver, type ReferenceResolver } from "./layered-resolver.js";
export { FlatCatalog, CATALOG_COLUMNS, type FlatCatalogData } from "./flat-catalog.js";
export { loadToolConfig, redactConfig, type EnvLookup, type LoadToolConfigOptions, type LocatedProblem } from "./config-loader.js";
export {
  expandSources,
  isUnderRoots,
  extensionWithDot,
  type ExpandedSources,
  type SkippedFile,
  type SkipReason,
  type SourceSelection,
} from "./source-files.js";
export { summarizeSkipped, describeSkipped, type SkippedSummary } from "./skipped-summary.js";
export { looksLikeText, isTextFile } from "./text-sniff.js";
export { Catalog, citationKey, citedKeysOf, type CatalogEntry, type FileState } from "./catalog.js";
export { TitlePhraseIndex, TITLE_PHRASE_SCORE } from "./title-phrase.js";
export { acquireIndexLock, tryIndexLock, type IndexLock } from "./index-lock.js";
export { isUnitOf, type IncomingReference } from "./incoming-reference.js";
export { chainMatches, groupSections, shortTitle, splitQualifiedId, type SectionMatch } from "./section-lookup.js";
export { buildResults, type RoutedHit } from "./search-results.js";
export type { FileOutcome, FileReport, IngestProgress, IngestReport } from "./ingest-types.js";
export { writeIndexManifest, MANIFEST, type IndexManifest } from "./index-manifest.js";
export { ConvertPool, type ConvertPoolOptions } from "./convert-pool.js";
export { workerComponents, type WorkerComponents } from "./worker-stages.js";
export { defaultWorkers } from "./read-ahead.js";
export type { PreparedFile, PrepareOptions } from "./prepare-file.js";
export { readIndexFolderState, type IndexFolderState } from "./index-folder-state.js";
