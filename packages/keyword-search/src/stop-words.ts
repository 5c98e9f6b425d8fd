/**
 * Lucene's / OpenSearch's default English stop set (`_english_`), so the in-memory analyzer and the
 * OpenSearch `stop` filter drop the same words.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not",
  "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was",
  "will", "with",
]);
