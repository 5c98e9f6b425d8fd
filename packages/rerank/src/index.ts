export { LexicalReranker, DEFAULT_LEXICAL_WEIGHTS, type LexicalWeights, type LexicalRerankerOptions } from "./lexical-reranker.js";
export { FeatureExtractor, FEATURE_NAMES, sectionIdsIn, tiedRanks, type FeatureName, type FeatureRow } from "./features.js";
export { SET_FEATURE_NAMES, chunkPlace, setFeatures, type SetFeatureName } from "./set-features.js";
export { LearnedReranker, DEFAULT_RANKER_MODEL_PATH, type LearnedRerankerOptions } from "./learned-reranker.js";
export {
  loadRankerModel,
  parseRankerModel,
  scoreRow,
  scoreVector,
  type RankerModel,
  type LinearRankerModel,
  type TreesRankerModel,
  type RankerTree,
} from "./ranker-model.js";
export { addPairGradients, assignFolds, type TrainingGroup, type PairWeighting } from "./lambda-gradients.js";
export { trainLinearRanker, type LinearTrainOptions } from "./train-linear.js";
export { trainTreesRanker, type TreesTrainOptions } from "./train-trees.js";
export { candidateFromResult, toTrainingGroups, crossValidateScores, type LabelledQuery } from "./training.js";
export { analyze, stems, ngrams, minimalWindow, type Token } from "./text.js";
export { StemVocabulary } from "./stem-vocabulary.js";
export { CohereReranker, type CohereRerankerOptions } from "./cohere-reranker.js";
export { VoyageReranker, type VoyageRerankerOptions } from "./voyage-reranker.js";
export { JinaReranker, type JinaRerankerOptions } from "./jina-reranker.js";
export { LlmReranker, parseScores, type LlmRerankerOptions, type LlmRerankProvider, type RerankUsage } from "./llm-reranker.js";
export { CrossEncoderReranker, type CrossEncoderRerankerOptions } from "./cross-encoder-reranker.js";
export { createReranker, type RerankConfig, type CreateRerankerOptions } from "./create-reranker.js";
export { withRetries, isRetryable, candidateText, type RetryOptions } from "./retry.js";
