import { trace } from "@opentelemetry/api";
import {
  HierdocError,
  isHierdocError,
  type ChunkRecord,
  type ContextGenerator,
  type ConverterLimitsConfig,
  type DefinitionEntry,
  type Embedder,
  type KeywordIndex,
  type ToolConfig,
  type VectorStoreAdapter,
} from "@hierdoc/core";
import { SUPPORTED_EXTENSIONS } from "@hierdoc/convert";
import { acceptsAnalyzed, type AnalyzedBatch, type ExactIndex } from "@hierdoc/keyword-search";
import type { Catalog } from "./catalog.js";
import type { IngestProgress, IngestReport } from "./ingest-types.js";
import type { PreparedFile } from "./prepare-file.js";
import { embedTexts, vectorViews, writeContexts, type FileContexts } from "./file-stages.js";
import { assembleRecords } from "./record-assembly.js";
import { IngestCheckpoint } from "./ingest-checkpoint.js";
import { createPreparer, defaultWorkers, ReadAhead } from "./read-ahead.js";
import { expandSources, isUnderRoots, type SourceSelection } from "./source-files.js";
import { workerComponents } from "./worker-stages.js";

/** Everything an ingest run reads and writes. */
export interface IngestContext {
  config: ToolConfig;
  store: VectorStoreAdapter;
  embedder: Embedder;
  keyword: KeywordIndex;
  exact: ExactIndex;
  catalog: Catalog;
  contextGenerator: ContextGenerator | undefined;
  onDefinitions: (sourcePath: string, entries: DefinitionEntry[]) => void;
  onProgress?: (event: IngestProgress) => void;
  /** Called after each checkpoint (`ingest.checkpoint`) flushed the store. */
  onCheckpoint?: () => Promise<void>;
  force: boolean;
  signal?: AbortSignal;
  /** Include / exclude globs of folder and glob sources, added to the config's; `extensions` replaces the converters' list. */
  selection?: SourceSelection;
  /** Converter limits (default: the config's `limits`). */
  limits?: ConverterLimitsConfig;
  /**
   * Worker threads converting and parsing files, and writing contexts and embedding them when the context writer and
   * embedder declare a `workerRecipe` (default: the config's `ingest.workers`, else min(cores − 1, 4), at least 1); 0 = this thread.
   */
  workers?: number;
}

const tracer = trace.getTracer("@hierdoc/tool");

/**
 * Records the stages that prepared a file (convert, parse, definitions, and context and embed when a worker did
 * them: in a worker thread, or in the prepare call) as spans `hierarchical_document.ingest.<stage>` under the current one, laid end to end and
 * ending at `endMs`, so traces keep those stages whichever thread ran them.
 */
function recordPreparedStages(timingsMs: Readonly<Record<string, number>>, endMs: number): void {
  let t = endMs - Object.values(timingsMs).reduce((sum, ms) => sum + ms, 0);
  for (const [stage, ms] of Object.entries(timingsMs)) {
    const span = tracer.startSpan(`hierarchical_document.ingest.${stage}`, { startTime: t });
    t += ms;
    span.end(t);
  }
}

export { INCOMPLETE_CONTEXT } from "./record-assembly.js";

/**
 * Runs one incremental ingest: expands sources, skips unchanged files, converts, parses, extracts
 * definitions and references, writes contexts, embeds, and replaces each changed file's chunks in the
 * store, keyword and exact indexes; removes files that left an ingested folder; flushes the store.
 */
export async function runIngest(sources: string[], ctx: IngestContext): Promise<IngestReport> {
  const timings: Record<string, number> = {};
  const time = <T>(stage: string, fn: () => Promise<T> | T): Promise<T> =>
    tracer.startActiveSpan(`hierarchical_document.ingest.${stage}`, async (span) => {
      const t = performance.now();
      try {
        return await fn();
      } finally {
        timings[stage] = (timings[stage] ?? 0) + (performance.now() - t);
        span.end();
      }
    });
  const report: IngestReport = { files: [], skipped: [], chunksWritten: 0, chunksDeleted: 0, tokens: 0, bytes: 0, timingsMs: timings, contextFailures: 0, totalChunks: 0 };
  // Globs given for this run (CLI flags) add to the config's.
  const selection: SourceSelection = {
    include: [...(ctx.config.include ?? []), ...(ctx.selection?.include ?? [])],
    exclude: [...(ctx.config.exclude ?? []), ...(ctx.selection?.exclude ?? [])],
    extensions: ctx.selection?.extensions ?? SUPPORTED_EXTENSIONS,
  };
  const expanded = await time("expand", () => expandSources(sources, selection));
  report.skipped = expanded.skipped;
  for (const err of expanded.errors) {
    report.files.push({ sourcePath: String(err.details.file ?? "?"), outcome: "failed", chunks: 0, tokens: 0, bytes: 0, error: err });
  }
  const total = expanded.files.length;
  let n = 0;
  const progress = (sourcePath: string, stage: IngestProgress["stage"], within?: { done: number; total: number }) =>
    ctx.onProgress?.({
      file: n,
      files: total,
      sourcePath,
      stage,
      chunksDone: report.chunksWritten,
      tokensDone: report.tokens,
      bytesDone: report.bytes,
      ...(within ? { stageDone: within.done, stageTotal: within.total } : {}),
    });

  /** Ends the run early: what was already written stays committed (flushed), then `err` is thrown. */
  const stopWith = async (err: HierdocError): Promise<never> => {
    await time("persist", () => ctx.store.flush());
    throw err;
  };

  /** Indexes each file in order; files are read and converted ahead, in workers when there are any. */
  async function ingestFiles(): Promise<void> {
    const ahead = new ReadAhead(
      expanded.files,
      preparer,
      (path, fileHash) => {
        const state = ctx.catalog.fileState(path);
        return !ctx.force && !!state && state.complete && state.fileHash === fileHash;
      },
      (t) => (timings.read = (timings.read ?? 0) + t),
    );
    // Flushes the store every few files (ingest.checkpoint), so a kill loses at most the files since.
    const checkpoint = new IngestCheckpoint(ctx.config.ingest.checkpoint, () => time("persist", async () => {
      await ctx.store.flush();
      await ctx.onCheckpoint?.();
    }));
    for (const path of expanded.files) {
      n++;
      if (ctx.signal?.aborted) await stopWith(new HierdocError("E_CANCELLED", "ingest cancelled"));
      progress(path, "read");
      try {
        const file = await ahead.take();
        const state = ctx.catalog.fileState(path);
        if (!file.prepared) {
          report.files.push({ sourcePath: path, outcome: "unchanged", chunks: state?.chunkIds.length ?? 0, tokens: 0, bytes: file.size });
          progress(path, "skipped");
          continue;
        }
        progress(path, "convert");
        // Chunk-level progress of the contexts and vectors a worker writes for this file.
        file.watch?.((p) => progress(path, p.stage, { done: p.done, total: p.total }));
        const prepared = await time(preparer.pooled ? "wait" : "prepare", () => untilAborted(file.prepared!, ctx.signal));
        for (const [k, v] of Object.entries(prepared.timingsMs)) timings[k] = (timings[k] ?? 0) + v;
        recordPreparedStages(prepared.timingsMs, Date.now());
        const records = await buildRecords(prepared, file.fileHash, ctx, time, (stage, within) => progress(path, stage, within));
        if (records.failures > 0) report.contextFailures += records.failures;
        progress(path, "store");
        await time("store", () => replaceFile(path, records, ctx, report));
        const tokens = records.records.reduce((s, r) => s + r.tokens, 0);
        report.tokens += tokens;
        report.bytes += file.size;
        report.files.push({ sourcePath: path, outcome: state ? "updated" : "added", chunks: records.records.length, tokens, bytes: file.size });
        progress(path, "done");
      } catch (err) {
        if (isHierdocError(err, "E_CANCELLED")) await stopWith(err);
        const error = isHierdocError(err)
          ? err
          : new HierdocError("E_INTERNAL", `${path}: ${(err as Error).message}`, { cause: err, details: { file: path } });
        if (!error.message.includes(path)) error.message = `${path}: ${error.message}`;
        report.files.push({ sourcePath: path, outcome: "failed", chunks: 0, tokens: 0, bytes: 0, error });
        progress(path, "failed");
        if (isHierdocError(error, "E_STORE_UNAVAILABLE") || isHierdocError(error, "E_EMBEDDER_MISMATCH") || isHierdocError(error, "E_DIMENSION_MISMATCH")) {
          // The store itself is failing: stop here; what was already written stays committed.
          await stopWith(error);
        }
      }
      // Outside the try: a failing checkpoint (the store cannot be written) ends the run, it is not a file's failure.
      await checkpoint.fileDone();
    }
  }
  // No more workers than files: each worker loads the converters once.
  const workers = Math.min(ctx.workers ?? ctx.config.ingest.workers ?? defaultWorkers(), expanded.files.length);
  const preparer = createPreparer(
    workers,
    {
      limits: ctx.limits ?? ctx.config.limits,
      maxChunkTokens: ctx.config.chunking.max_chunk_tokens,
      targetChunkTokens: ctx.config.chunking.target_chunk_tokens,
    },
    workerComponents(ctx.embedder, ctx.contextGenerator, ctx.keyword),
  );
  try {
    await ingestFiles();
  } finally {
    await preparer.close();
  }

  const present = new Set(expanded.files);
  // A file left out only for its extension may have been named explicitly before: it stays. Files gone,
  // excluded, or no longer text leave the index.
  const kept = new Set(expanded.skipped.filter((s) => s.reason === "unsupported-extension").map((s) => s.path));
  for (const sourcePath of ctx.catalog.sources()) {
    if (present.has(sourcePath) || kept.has(sourcePath) || !isUnderRoots(sourcePath, expanded.roots)) continue;
    const ids = ctx.catalog.idsOf(sourcePath);
    await time("store", () => removeFile(sourcePath, ids, ctx));
    report.chunksDeleted += ids.length;
    report.files.push({ sourcePath, outcome: "removed", chunks: ids.length, tokens: 0, bytes: 0 });
  }
  await time("persist", () => ctx.store.flush());
  report.totalChunks = ctx.catalog.size;
  return report;
}

interface BuiltRecords {
  records: ChunkRecord[];
  vectors: Float32Array[];
  failures: number;
  /** The records' indexed texts analysed for the keyword index by the worker (see `PreparedFile.analyzed`). */
  analyzed?: AnalyzedBatch;
}

async function buildRecords(
  prepared: PreparedFile,
  fileHash: string,
  ctx: IngestContext,
  time: <T>(stage: string, fn: () => Promise<T> | T) => Promise<T>,
  stage: (s: IngestProgress["stage"], within?: { done: number; total: number }) => void,
): Promise<BuiltRecords> {
  stage("parse");
  const { document: doc, definitions, chunks } = prepared;
  // The definitions of this file must be known before contexts are written here (structural context lists terms;
  // a writer that lists them declares no worker recipe, so its contexts are always written here, after this call).
  ctx.onDefinitions(doc.sourcePath, definitions);
  stage("context");
  const onProgress = (p: { stage: "context" | "embed"; done: number; total: number }) => stage(p.stage, { done: p.done, total: p.total });
  let records = prepared.records;
  let failures = prepared.contexts?.failures ?? 0;
  if (!records) {
    const contexts: FileContexts =
      prepared.contexts ??
      (ctx.contextGenerator && chunks.length > 0
        ? await time("context", () => writeContexts(ctx.contextGenerator!, doc, chunks, { signal: ctx.signal, onProgress }))
        : { texts: [], failures: 0 });
    failures = contexts.failures;
    // A file whose contexts did not all come back is stored under a marked hash (see `storedHashOf`).
    records = assembleRecords(prepared, contexts, fileHash);
  }
  stage("embed");
  const dims = ctx.embedder.dimensions;
  // Embedded by the worker (one transferred buffer), or here.
  const flat =
    prepared.vectors ??
    (await time("embed", () => embedTexts(ctx.embedder, records.map((r) => r.indexedText), { signal: ctx.signal, onProgress })));
  if (flat.length !== records.length * dims) {
    throw new HierdocError("E_DIMENSION_MISMATCH", `${doc.sourcePath}: ${flat.length / Math.max(1, records.length)} dimensions per vector, expected ${dims}`, { details: { file: doc.sourcePath } });
  }
  return { records, vectors: vectorViews(flat, dims), failures, analyzed: prepared.analyzed };
}

/**
 * `promise`, or E_CANCELLED as soon as `signal` aborts (the worker keeps going until the preparer closes).
 * @throws HierdocError E_CANCELLED; what `promise` rejects with.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new HierdocError("E_CANCELLED", "ingest cancelled"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new HierdocError("E_CANCELLED", "ingest cancelled"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

async function replaceFile(sourcePath: string, built: BuiltRecords, ctx: IngestContext, report: IngestReport): Promise<void> {
  const { records, vectors, analyzed } = built;
  const oldIds = ctx.catalog.idsOf(sourcePath);
  const newIds = new Set(records.map((r) => r.id));
  const stale = oldIds.filter((id) => !newIds.has(id));
  // The keyword index is written first: if it fails (an OpenSearch outage), the store still holds the
  // file's previous version and the next ingest processes the file again. A store that fails after it
  // leaves extra keyword entries whose ids resolve to the old records, which results drop or show as before.
  await ctx.keyword.remove(stale);
  // Analysed by the worker when the index accepts it (the same index as analysing the texts here, byte for byte).
  const keyword = ctx.keyword;
  if (analyzed && acceptsAnalyzed(keyword)) await keyword.upsertAnalyzed(records.map((r) => ({ id: r.id, sourcePath: r.sourcePath })), analyzed);
  else await keyword.upsert(records.map((r) => ({ id: r.id, text: r.indexedText, sourcePath: r.sourcePath })));
  if (stale.length > 0) {
    await ctx.store.deleteByIds(stale);
    report.chunksDeleted += stale.length;
  }
  const batch = Math.max(1, Math.min(ctx.store.capabilities.maxBatchSize, 512));
  for (let i = 0; i < records.length; i += batch) {
    await ctx.store.upsert(records.slice(i, i + batch).map((record, j) => ({ record, vector: vectors[i + j] })));
  }
  report.chunksWritten += records.length;
  ctx.exact.remove(oldIds);
  for (const id of stale) ctx.catalog.delete(id);
  for (const r of records) {
    ctx.catalog.put(r);
    ctx.exact.addChunk(r);
  }
}

async function removeFile(sourcePath: string, ids: string[], ctx: IngestContext): Promise<void> {
  await ctx.store.deleteBySource(sourcePath);
  await ctx.keyword.remove(ids);
  ctx.exact.remove(ids);
  for (const id of ids) ctx.catalog.delete(id);
  ctx.onDefinitions(sourcePath, []);
}
