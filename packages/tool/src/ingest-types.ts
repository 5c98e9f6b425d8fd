import type { HierdocError } from "@hierdoc/core";
import type { SkippedFile } from "./source-files.js";

/** What happened to one file during an ingest. */
export type FileOutcome = "added" | "updated" | "unchanged" | "removed" | "failed";

/** Per-file line of an {@link IngestReport}. */
export interface FileReport {
  sourcePath: string;
  outcome: FileOutcome;
  chunks: number;
  tokens: number;
  bytes: number;
  error?: HierdocError;
}

/** Summary of an ingest: files by outcome, chunk and token counts, per-stage timings. */
export interface IngestReport {
  files: FileReport[];
  /** Files under the ingested folders and globs that were left out, with the reason (see `summarizeSkipped`). */
  skipped: SkippedFile[];
  chunksWritten: number;
  chunksDeleted: number;
  tokens: number;
  bytes: number;
  /**
   * Milliseconds per stage: expand, read, convert, parse, definitions (summed over the ingest workers, which run
   * them in parallel), wait (this thread waiting for the workers) or prepare (no workers: convert + parse here),
   * context, embed (summed over the workers too when the context writer and embedder run there: see
   * `WorkerRecipe`), analyze and records (the workers' BM25 analysis and record assembly, when they do them), store,
   * persist.
   */
  timingsMs: Record<string, number>;
  /** Context failures (chunks indexed without context, retried on the next ingest). */
  contextFailures: number;
  totalChunks: number;
}

/** A progress event of a long ingest. */
export interface IngestProgress {
  /** 1-based file number and the total. */
  file: number;
  files: number;
  sourcePath: string;
  stage: "read" | "convert" | "parse" | "context" | "embed" | "store" | "done" | "skipped" | "failed";
  chunksDone: number;
  tokensDone: number;
  bytesDone: number;
  /** Inside a long stage of one file (`embed`): chunks of this file done so far, and its chunk count. */
  stageDone?: number;
  stageTotal?: number;
}
