import { HierdocError, type Chunk, type ContextGenerator, type ConvertedDocument, type Embedder } from "@hierdoc/core";

/** Chunks embedded per `embedDocuments` call (and per chunk-level progress event). */
export const EMBED_BATCH = 64;

/** Chunk-level progress inside one file: chunks of the file whose context or vector is done, and its chunk count. */
export interface FileStageProgress {
  stage: "context" | "embed";
  done: number;
  total: number;
}

/** What writing contexts and embedding one file need; the same code runs in an ingest worker and in the ingesting thread. */
export interface FileStageOptions {
  signal?: AbortSignal;
  onProgress?: (progress: FileStageProgress) => void;
}

/** One file's contexts: `texts[i]` is chunk i's ("" when it has none or it failed), `failures` how many failed. */
export interface FileContexts {
  texts: string[];
  failures: number;
}

/**
 * The contexts of a file's chunks, in chunk order, from `generator` (a failed context is "" and counted).
 * @throws what the generator throws (E_CANCELLED on abort, its API errors).
 */
export async function writeContexts(generator: ContextGenerator, document: ConvertedDocument, chunks: readonly Chunk[], options: FileStageOptions = {}): Promise<FileContexts> {
  if (chunks.length === 0) return { texts: [], failures: 0 };
  const results = await generator.generate(chunks.map((chunk) => ({ document, chunk })), {
    signal: options.signal,
    onProgress: (done, total) => options.onProgress?.({ stage: "context", done, total }),
  });
  const byId = new Map<string, string>();
  let failures = 0;
  for (const r of results) {
    if (r.error) failures++;
    else byId.set(r.chunkId, r.context);
  }
  return { texts: chunks.map((c) => byId.get(c.id) ?? ""), failures };
}

/** The text a chunk is indexed and embedded under: its context, a blank line, its content (the content alone without context). */
export function indexedTextOf(context: string, content: string): string {
  return context ? `${context}\n\n${content}` : content;
}

/**
 * Embeds `texts` in batches of {@link EMBED_BATCH} into one flat array (`texts.length × embedder.dimensions`, text i at
 * `i × dimensions`), so a worker hands it over as one transferable buffer; reports progress after each batch when
 * there is more than one.
 * @throws HierdocError E_CANCELLED between batches once `signal` aborts; E_DIMENSION_MISMATCH when a vector's length
 *   is not `embedder.dimensions`; what the embedder throws.
 */
export async function embedTexts(embedder: Embedder, texts: readonly string[], options: FileStageOptions = {}): Promise<Float32Array> {
  const dims = embedder.dimensions;
  const out = new Float32Array(texts.length * dims);
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    if (options.signal?.aborted) throw new HierdocError("E_CANCELLED", "ingest cancelled");
    const batch = texts.slice(i, i + EMBED_BATCH);
    const vectors = await embedder.embedDocuments(batch);
    if (vectors.length !== batch.length) throw new HierdocError("E_INTERNAL", `embedder ${embedder.id} returned ${vectors.length} vectors for ${batch.length} texts`);
    vectors.forEach((v, j) => {
      if (v.length !== dims) throw new HierdocError("E_DIMENSION_MISMATCH", `embedder ${embedder.id} returned a vector of ${v.length} dimensions, expected ${dims}`, { details: { expected: dims, actual: v.length } });
      out.set(v, (i + j) * dims);
    });
    // Chunk-level progress inside a large file (a local ONNX model embeds tens of chunks per second).
    if (texts.length > EMBED_BATCH) options.onProgress?.({ stage: "embed", done: Math.min(i + EMBED_BATCH, texts.length), total: texts.length });
  }
  return out;
}

/**
 * Per-chunk views (no copies) of a flat array of `dimensions`-long vectors, made with this realm's Float32Array: an
 * array a worker sent is one of the Node realm's, which `instanceof` in another realm (a vm context) does not accept.
 */
export function vectorViews(flat: Float32Array, dimensions: number): Float32Array[] {
  const bytes = dimensions * Float32Array.BYTES_PER_ELEMENT;
  return Array.from({ length: flat.length / dimensions }, (_, i) => new Float32Array(flat.buffer, flat.byteOffset + i * bytes, dimensions));
}
