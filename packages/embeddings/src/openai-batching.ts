/** Limits of one embeddings request. OpenAI documents 2048 inputs and 300 000 tokens per request. */
export interface BatchLimits {
  maxInputs: number;
  maxTokens: number;
  estimateTokens: (text: string) => number;
}

/**
 * Conservative token estimate without a tokenizer: UTF-8 bytes / 3 (English BPE averages ≈ 4 bytes per
 * token; CJK ≈ 3 bytes per character and token), rounded up, at least 1.
 */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(Buffer.byteLength(text, "utf8") / 3));
}

/**
 * Splits indexes of `texts` into consecutive batches within `limits`. A single text above `maxTokens`
 * gets a batch of its own (the API then decides).
 */
export function planBatches(texts: readonly string[], indexes: readonly number[], limits: BatchLimits): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let tokens = 0;
  for (const index of indexes) {
    const cost = limits.estimateTokens(texts[index]);
    if (current.length > 0 && (current.length >= limits.maxInputs || tokens + cost > limits.maxTokens)) {
      batches.push(current);
      current = [];
      tokens = 0;
    }
    current.push(index);
    tokens += cost;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
