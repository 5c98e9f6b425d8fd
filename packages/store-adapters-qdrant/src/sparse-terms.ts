/** A Qdrant sparse vector: strictly increasing term indices and their weights. */
export interface SparseVector {
  indices: number[];
  values: number[];
}

/** BM25 settings of the document side of the sparse vectors. */
export interface Bm25Options {
  /** Term-frequency saturation. Default 1.2. */
  k1?: number;
  /** Length normalisation. Default 0.75. */
  b?: number;
  /** Assumed average document length in tokens (Qdrant/fastembed use 256). Default 256. */
  avgDocLength?: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased NFKC word tokens (letters and digits) of `text`. */
export function tokenize(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().match(WORD) ?? [];
}

/** 32-bit FNV-1a hash of a token: its index in the sparse vector space (Qdrant indices are u32). */
export function termIndex(token: string): number {
  let h = 2166136261;
  for (let i = 0; i < token.length; i++) {
    h ^= token.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function toSparse(weights: Map<number, number>): SparseVector {
  const indices = [...weights.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((i) => weights.get(i)!) };
}

/**
 * The document-side BM25 term weights of `text`: `tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen))` per hashed
 * term. The IDF factor is applied by Qdrant itself (sparse vector `modifier: "idf"`), so the score of a
 * query is the BM25 score over the collection's current statistics.
 */
export function documentSparseVector(text: string, options: Bm25Options = {}): SparseVector {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const avg = options.avgDocLength ?? 256;
  const tokens = tokenize(text);
  const tf = new Map<number, number>();
  for (const t of tokens) {
    const i = termIndex(t);
    tf.set(i, (tf.get(i) ?? 0) + 1);
  }
  const norm = k1 * (1 - b + (b * tokens.length) / avg);
  const weights = new Map<number, number>();
  for (const [i, f] of tf) weights.set(i, (f * (k1 + 1)) / (f + norm));
  return toSparse(weights);
}

/** The query-side sparse vector: weight 1 per distinct hashed term (IDF comes from the server). */
export function querySparseVector(text: string): SparseVector {
  const weights = new Map<number, number>();
  for (const t of tokenize(text)) weights.set(termIndex(t), 1);
  return toSparse(weights);
}
