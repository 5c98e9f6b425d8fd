export { percentile, summarize, median, type LatencySummary } from "./stats.js";
export { markdownTable, fmt, verdict, type Align } from "./markdown.js";
export { lineChartSvg, type PlotSeries, type PlotOptions } from "./svg-plot.js";
export { machineInfo, type MachineInfo } from "./machine.js";
export { bertEncoderGraph, bertParameterCount, gaussianFill, MINILM_L6, BGE_SMALL, type BertShape, type BertGraphOptions } from "./bert-graph.js";
export { buildWordPieceVocabulary, basicTokens, wordPieces, wordPieceTokenizerJson, SPECIAL_TOKENS, type VocabularyOptions } from "./wordpiece-vocab.js";
export { writeBertModelFolder, type BertFolder, type BertFolderOptions } from "./bert-model-folder.js";
