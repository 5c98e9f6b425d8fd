/**
 * Scales `vector` in place to unit L2 length and returns it. A zero (or non-finite) vector is set to all
 * zeros and returned as is, so callers never see NaN.
 */
export function normalizeInPlace(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  if (!(sum > 0) || !Number.isFinite(sum)) {
    vector.fill(0);
    return vector;
  }
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] *= inv;
  return vector;
}

/**
 * Cosine similarity of two equal-length vectors; 0 when either is a zero vector.
 *
 * @throws HierdocError never; a length mismatch compares the common prefix only — callers check dimensions.
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}
