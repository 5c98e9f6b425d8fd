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
export { wordTokens } from "./tokenize.js";
export { cosineSimilarity, normalizeInPlace } from "./vector-math.js";
