import { HierdocError, type Embedder, type WorkerRecipe } from "@hierdoc/core";
import { wordTokens } from "./tokenize.js";
import { normalizeInPlace } from "./vector-math.js";

/** Options of {@link HashEmbedder}. */
export interface HashEmbedderOptions {
  /** Vector size; default 256. */
  dimensions?: number;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Deterministic feature-hashing embedder for tests: each lower-cased word token adds ±1 to one of N buckets
 * (FNV-1a hash; the sign comes from a second hash bit), then the vector is L2-normalised. Texts sharing
 * words are similar; there is no notion of meaning. Not for production retrieval.
 */
export class HashEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  /** Ingest workers build their own copy (same vectors): see `hashEmbedderFromRecipe`. */
  readonly workerRecipe: WorkerRecipe;

  /** @throws HierdocError E_CONFIG when `dimensions` is not a positive integer. */
  constructor(options: HashEmbedderOptions = {}) {
    const dimensions = options.dimensions ?? 256;
    if (!Number.isInteger(dimensions) || dimensions <= 0) {
      throw new HierdocError("E_CONFIG", `hash embedder: dimensions must be a positive integer, got ${dimensions}`);
    }
    this.dimensions = dimensions;
    this.id = `hash:fnv1a:${dimensions}:v1`;
    this.workerRecipe = { module: "@hierdoc/embeddings", factory: "hashEmbedderFromRecipe", options: { dimensions } };
  }

  /** Embeds one text synchronously (all-zero vector when the text has no word tokens). */
  embedSync(text: string): Float32Array {
    const vector = new Float32Array(this.dimensions);
    for (const token of wordTokens(text)) {
      const hash = fnv1a(token);
      const sign = (fnv1a(`#${token}`) & 1) === 0 ? 1 : -1;
      vector[hash % this.dimensions] += sign;
    }
    return normalizeInPlace(vector);
  }

  /** Embeds each text; see {@link HashEmbedder.embedSync}. */
  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedSync(text));
  }

  /** Embeds a query exactly like a document. */
  async embedQuery(text: string): Promise<Float32Array> {
    return this.embedSync(text);
  }
}
