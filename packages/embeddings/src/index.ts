export { HashEmbedder, type HashEmbedderOptions } from "./hash-embedder.js";
export { GloveEmbedder, DEFAULT_SIF_A, gloveCachePath, type GloveLoadOptions } from "./glove-embedder.js";
export {
  GLOVE_CACHE_MAGIC,
  GLOVE_CACHE_VERSION,
  decodeGloveCache,
  encodeGloveCache,
  readGloveCache,
  writeGloveCache,
  convertWinkJson,
  quantizeRows,
  type GloveMatrix,
} from "./glove-cache.js";
export { GloveVocabulary } from "./glove-vocabulary.js";
export { wordTokens } from "./tokenize.js";
export { cosineSimilarity, normalizeInPlace } from "./vector-math.js";
export {
  OpenAIEmbedder,
  KNOWN_OPENAI_DIMENSIONS,
  type OpenAIEmbedderOptions,
  type OpenAIProvider,
} from "./openai-embedder.js";
export { estimateTokens, planBatches, type BatchLimits } from "./openai-batching.js";
export { mapOpenAIError } from "./openai-errors.js";
export { createEmbedder, type CreateEmbedderOptions, type EmbeddingConfig } from "./create-embedder.js";
export {
  TransformersEmbedder,
  transformersEmbedderId,
  type TransformersEmbedderOptions,
  type TransformersPooling,
} from "./transformers-embedder.js";
export { TRANSFORMERS_DTYPES, onnxFileFor, checkModelFolder, type TransformersDtype } from "./transformers-model-files.js";
export { TRANSFORMERS_VERSION, importTransformers, type TransformersImporter } from "./transformers-loader.js";
export { gloveEmbedderFromRecipe, hashEmbedderFromRecipe } from "./worker-recipes.js";
