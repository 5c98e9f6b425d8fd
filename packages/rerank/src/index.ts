export { LexicalReranker, DEFAULT_LEXICAL_WEIGHTS, sectionIdsIn, type LexicalWeights, type LexicalRerankerOptions } from "./lexical-reranker.js";
export { analyze, stems, ngrams, minimalWindow, type Token } from "./text.js";
export { CohereReranker, type CohereRerankerOptions } from "./cohere-reranker.js";
export { VoyageReranker, type VoyageRerankerOptions } from "./voyage-reranker.js";
export { JinaReranker, type JinaRerankerOptions } from "./jina-reranker.js";
export { LlmReranker, parseScores, type LlmRerankerOptions, type LlmRerankProvider, type RerankUsage } from "./llm-reranker.js";
export { CrossEncoderReranker, type CrossEncoderRerankerOptions } from "./cross-encoder-reranker.js";
export { createReranker, type RerankConfig, type CreateRerankerOptions } from "./create-reranker.js";
export { withRetries, isRetryable, candidateText, type RetryOptions } from "./retry.js";
