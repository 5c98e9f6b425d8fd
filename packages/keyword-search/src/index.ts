export { type Analyzer, type AnalyzedText, type AnalyzerOptions, StandardAnalyzer, RankBm25Analyzer, createAnalyzer } from "./analyzer.js";
export { type AnalyzedBatch, type AnalyzedUpserts, acceptsAnalyzed, analyzeBatch, analyzedBuffers } from "./analyzed-batch.js";
export { ENGLISH_STOP_WORDS } from "./stop-words.js";
export { Bm25Index, BM25_FILE_NAME, type Bm25Options, type Bm25SaveOptions, type Bm25Variant } from "./bm25-index.js";
export { writeFileAtomic } from "./atomic-write.js";
export {
  type ParsedSectionId, type FoundSectionId, findSectionIds, parseSectionId, parseSectionIdList, canonicalKind, normalizeNumber,
  numberPrefixes, findQuotedPhrases,
} from "./section-id.js";
export {
  ExactIndex, EXACT_TIERS, EXACT_FILE_NAME, type ExactIndexOptions, type ExactLookupOptions,
} from "./exact-index.js";
export { type ExactChunk, type ExactChunkList, type ExactIndexState, exactChunkList } from "./exact-state.js";
export { OpenSearchKeywordIndex, openSearchIndexBody, type OpenSearchKeywordOptions } from "./opensearch-keyword-index.js";
export { isIdLookupQuery } from "./id-query.js";
