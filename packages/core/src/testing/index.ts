export { runStoreConformance } from "./store-conformance.js";
export type { StoreConformanceFactory, StoreUnderTest } from "./store-conformance.js";
export { expectHierdocError, expectStoreUnavailable } from "./expect-errors.js";
export type { ExpectedStoreError } from "./expect-errors.js";
export {
  FIXTURE_DIMENSIONS,
  FIXTURE_EMBEDDER_ID,
  cosine,
  makeRecord,
  makeStoreRecord,
  makeStoreRecords,
  makeVector,
  normalize,
  seededRandom,
  vectorWithSimilarity,
} from "./fixtures.js";
export { jestApi } from "./jest-api.js";
export type { JestApi } from "./jest-api.js";
export { gdprArticleRecords, lexicalHashVector } from "./gdpr-articles.js";
export { RecordingHttpServer } from "./recording-http-server.js";
export type { RecordedHttpRequest, ScriptedResponse } from "./recording-http-server.js";
export { closedPort } from "./closed-port.js";
export { axisVector, chunkRecordFor, paragraphRecords, randomVector } from "./paragraph-records.js";
export { bm25Rank, cosineSimilarity, wordTokens } from "./wire-scoring.js";
export { reopenableStore, serveDuringSuite } from "./serve-during-suite.js";
export type { SuiteService } from "./serve-during-suite.js";
export { GDPR_MARKDOWN, gdprIndex, gdprSkipNote, hasGdpr, useGdprIndex } from "./gdpr-index.js";
export type { GdprIndex, GdprSuiteIndex, IndexOpener, IngestibleIndex } from "./gdpr-index.js";
export { describeFrameworkPackage, readmeExampleBlock } from "./framework-package-suite.js";
export type { FrameworkPackage } from "./framework-package-suite.js";
