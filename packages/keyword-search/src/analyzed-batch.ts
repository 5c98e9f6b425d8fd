import { HierdocError } from "@hierdoc/core";
import type { Analyzer, AnalyzerOptions } from "./analyzer.js";

/**
 * Documents analysed into terms away from the index (an ingest worker), in a compact form that crosses threads
 * cheaply: the batch's distinct terms once, in order of first appearance, and per document its distinct terms
 * (as positions in `terms`, in order of first occurrence in the document) with their frequencies, in typed arrays
 * whose buffers can be transferred. Document d's entries are `docTerms` / `docTfs` from `docStart[d]` to
 * `docStart[d + 1]`; `lengths[d]` is its length as BM25 counts it.
 */
export interface AnalyzedBatch {
  /** The analyzer's `id`: an index only accepts a batch made by its own analyzer. */
  analyzerId: string;
  terms: string[];
  docStart: Uint32Array;
  docTerms: Uint32Array;
  docTfs: Uint32Array;
  lengths: Uint32Array;
}

/** A keyword index that adds documents analysed elsewhere (see {@link analyzeBatch}) as if their texts were upserted. */
export interface AnalyzedUpserts {
  /** The analyzer as data, to build the same analyzer in another thread (`createAnalyzer`). */
  readonly analyzerOptions: AnalyzerOptions;
  readonly analyzer: Analyzer;
  /**
   * Adds or replaces `docs[i]` with the analysed text of document i of `batch`; the index ends up exactly as
   * `upsert` of the texts would leave it.
   * @throws HierdocError E_INVALID_ARGUMENT when the batch was made by another analyzer or counts other documents.
   */
  upsertAnalyzed(docs: ReadonlyArray<{ id: string; sourcePath: string }>, batch: AnalyzedBatch): Promise<void>;
}

/** Whether `index` accepts pre-analysed documents ({@link AnalyzedUpserts}): a capability, not a class check. */
export function acceptsAnalyzed<T extends object>(index: T): index is T & AnalyzedUpserts {
  const i = index as Partial<AnalyzedUpserts>;
  return typeof i.upsertAnalyzed === "function" && i.analyzerOptions !== undefined && i.analyzer !== undefined;
}

/**
 * Analyses `texts` with `analyzer` into one {@link AnalyzedBatch} (what `Bm25Index.upsert` would compute per text).
 * Pure: the same texts give the same batch in any thread.
 */
export function analyzeBatch(analyzer: Analyzer, texts: readonly string[]): AnalyzedBatch {
  const local = new Map<string, number>();
  const terms: string[] = [];
  const docStart = new Uint32Array(texts.length + 1);
  const lengths = new Uint32Array(texts.length);
  let docTerms = new Uint32Array(1024);
  let docTfs = new Uint32Array(1024);
  let tf = new Uint32Array(1024);
  let n = 0;
  const seen: number[] = [];
  for (let d = 0; d < texts.length; d++) {
    const { tokens, length } = analyzer.analyze(texts[d]!);
    lengths[d] = length;
    seen.length = 0;
    for (const token of tokens) {
      let t = local.get(token);
      if (t === undefined) {
        t = terms.length;
        terms.push(token);
        local.set(token, t);
        if (t >= tf.length) tf = grown(tf, t + 1);
      }
      if (tf[t]++ === 0) seen.push(t);
    }
    if (n + seen.length > docTerms.length) {
      docTerms = grown(docTerms, n + seen.length);
      docTfs = grown(docTfs, n + seen.length);
    }
    for (const t of seen) {
      docTerms[n] = t;
      docTfs[n] = tf[t]!;
      tf[t] = 0;
      n++;
    }
    docStart[d + 1] = n;
  }
  return { analyzerId: analyzer.id, terms, docStart, docTerms: docTerms.slice(0, n), docTfs: docTfs.slice(0, n), lengths };
}

/** The buffers of a batch, to transfer it to another thread instead of copying it. */
export function analyzedBuffers(batch: AnalyzedBatch): ArrayBuffer[] {
  return [batch.docStart, batch.docTerms, batch.docTfs, batch.lengths].map((a) => a.buffer).filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}

/**
 * Checks that `batch` fits an index whose analyzer is `analyzerId` and `count` documents.
 * @throws HierdocError E_INVALID_ARGUMENT otherwise.
 */
export function checkAnalyzedBatch(batch: AnalyzedBatch, analyzerId: string, count: number): void {
  if (batch.analyzerId !== analyzerId) {
    throw new HierdocError("E_INVALID_ARGUMENT", `analysed documents made by analyzer ${batch.analyzerId} cannot enter an index analysed by ${analyzerId}`, {
      details: { expected: analyzerId, actual: batch.analyzerId },
    });
  }
  const valid = batch.docStart.length === count + 1 && batch.lengths.length === count && batch.docTerms.length === batch.docTfs.length && batch.docStart[count] === batch.docTerms.length;
  if (!valid) throw new HierdocError("E_INVALID_ARGUMENT", `an analysed batch of ${batch.lengths.length} documents does not describe the ${count} documents given`);
}

function grown(a: Uint32Array<ArrayBuffer>, min: number): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(Math.max(min, a.length * 2));
  out.set(a);
  return out;
}
