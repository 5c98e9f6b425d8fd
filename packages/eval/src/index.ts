export {
  DEFAULT_MATCHING,
  parseQrels,
  parseQrelsQuery,
  qrelsFromRecords,
  type GoldEvidence,
  type MatchingOptions,
  type Qrels,
  type QrelsDocument,
  type QrelsPassage,
  type QrelsQuery,
} from "./qrels.js";
export { parseRunJsonl, toRun, toRunResult, type Run, type RunEntry, type RunInput, type RunResult } from "./run.js";
export {
  averagePrecisionAtK,
  dedupe,
  hitsAtK,
  ndcgAtK,
  precisionAtK,
  recallAtK,
  reciprocalRankAtK,
} from "./metrics.js";
export { createProjector, splitUnitKey, unitKey, type Projector } from "./projection.js";
export {
  displayUnit,
  evaluateRun,
  toScorerJson,
  type ChunkTrace,
  type EvalMetrics,
  type EvaluateOptions,
  type EvaluationReport,
  type QueryEvaluation,
} from "./evaluate.js";
export { formatMetricsTable, formatPerQueryJsonl } from "./format.js";
export { loadQrels, parseQrelsText, readRunJsonl } from "./io.js";
export { codePointLength, codePointPrefix, countWords, hasNonWhitespace, normalizeText, pathStem, pyRound } from "./python-compat.js";
