import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import type { ConverterLimitsConfig } from "@hierdoc/core";
import { ConvertPool } from "./convert-pool.js";
import type { FileStageProgress } from "./file-stages.js";
import type { PrepareOptions, PreparedFile } from "./prepare-file.js";
import type { WorkerComponents } from "./worker-stages.js";

/** Converts and parses files: in worker threads under time and memory caps, or in this thread. */
export interface Preparer {
  /** Files started ahead of the one being indexed (so workers stay busy while this thread embeds and stores). */
  readonly window: number;
  /** True when files are prepared in worker threads. */
  readonly pooled: boolean;
  /**
   * `onProgress`: chunk-level progress of the contexts and vectors the workers write (see `components`); `fileHash`
   * lets the workers assemble the records (`PreparedFile.records`).
   */
  run(path: string, bytes: Uint8Array, onProgress?: (progress: FileStageProgress) => void, fileHash?: string): Promise<PreparedFile>;
  close(): Promise<void>;
}

/**
 * Default number of ingest workers: min(CPU cores − 1, 4), at least 1. The main thread is a pipeline stage of its
 * own (it writes the store, the keyword and exact indexes in file order), so it keeps a core: on 2 cores a second
 * worker only adds a V8 isolate's start-up, JIT and GC (measured 0.87–0.90× of 1 worker end to end,
 * tools/bench ingest-workers-bench, 2026-12-03).
 */
export function defaultWorkers(): number {
  return Math.max(1, Math.min(availableParallelism() - 1, 4));
}

/**
 * A {@link Preparer}: `workers` ≥ 1 runs a {@link ConvertPool} of that size (callers pass no more than the
 * files to prepare: each worker loads the converters once, ≈ 0.5–2.5 s, and the `components` it is given, e.g. the
 * GloVe table); 0 prepares in this thread (no time or memory cap; contexts and vectors are then the caller's).
 */
export function createPreparer(workers: number, options: PrepareOptions & { limits: ConverterLimitsConfig }, components?: WorkerComponents): Preparer {
  if (workers <= 0) {
    // Loaded here only: with workers, this thread never loads the converters, chunker or extractors.
    const run = async (path: string, bytes: Uint8Array) => (await import("./prepare-file.js")).prepareFile(path, bytes, options);
    return { window: 1, pooled: false, run, close: async () => {} };
  }
  const pool = new ConvertPool({ ...options, size: workers, components });
  // Each worker holds the file it prepares and the next one (see ConvertPool), besides the file this thread indexes.
  return { window: workers * 2 + 1, pooled: true, run: (path, bytes, onProgress, fileHash) => pool.run(path, bytes, onProgress, fileHash), close: () => pool.close() };
}

/** One file read, hashed and (unless unchanged) handed to the preparer. */
export interface StartedFile {
  path: string;
  size: number;
  fileHash: string;
  /** Present unless the caller decided the file is unchanged. */
  prepared?: Promise<PreparedFile>;
  /**
   * Sends the chunk-level progress of this file's worker to `listener` from now on, first the events it sent
   * before (a file prepared ahead reports them when the consumer reaches it).
   */
  watch?: (listener: (progress: FileStageProgress) => void) => void;
}

/**
 * Reads files in order and starts preparing up to `preparer.window` of them ahead of the consumer.
 * `isUnchanged` decides, from the content hash, which files need no preparing.
 */
export class ReadAhead {
  private readonly started: Array<Promise<StartedFile>> = [];
  private next = 0;

  constructor(
    private readonly files: readonly string[],
    private readonly preparer: Preparer,
    private readonly isUnchanged: (path: string, fileHash: string) => boolean,
    private readonly onRead?: (ms: number) => void,
  ) {}

  /**
   * The next file, in order; starts more files so `window` are in flight.
   * @throws what reading the file threw (the caller reports it for that file).
   */
  async take(): Promise<StartedFile> {
    while (this.started.length < this.preparer.window && this.next < this.files.length) {
      const started = this.start(this.files[this.next++]);
      started.catch(() => undefined); // reported when taken
      this.started.push(started);
    }
    const head = this.started.shift();
    if (!head) throw new Error("ReadAhead: no file left");
    return head;
  }

  private async start(path: string): Promise<StartedFile> {
    const t = performance.now();
    const buf = await readFile(path);
    this.onRead?.(performance.now() - t);
    const fileHash = createHash("sha256").update(buf).digest("hex");
    const size = buf.length;
    if (this.isUnchanged(path, fileHash)) return { path, size, fileHash };
    const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    // A small Buffer shares Node's pool: copy it so the worker can take the whole buffer.
    const own = buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength ? bytes : new Uint8Array(bytes);
    const early: FileStageProgress[] = [];
    let listener: ((progress: FileStageProgress) => void) | undefined;
    const prepared = this.preparer.run(path, own, (progress) => (listener ? listener(progress) : early.push(progress)), fileHash);
    prepared.catch(() => undefined);
    const watch = (fn: (progress: FileStageProgress) => void) => {
      listener = fn;
      for (const progress of early.splice(0)) fn(progress);
    };
    return { path, size, fileHash, prepared, watch };
  }
}
