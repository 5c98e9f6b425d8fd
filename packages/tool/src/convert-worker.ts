// Entry of an ingest worker thread: prepares the files the pool sends, one at a time (convert, parse, definitions,
// and the contexts, vectors and keyword terms when the pool sent their components' recipes).
import { readFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { analyzedBuffers } from "@hierdoc/keyword-search";
import type { FileStageProgress } from "./file-stages.js";
import type { PrepareOptions, prepareFile as PrepareFile } from "./prepare-file.js";
import type { FileStages, WorkerComponents } from "./worker-stages.js";

/** A file to prepare, sent by the pool (the bytes' buffer is transferred). */
export interface WorkerTask {
  id: number;
  path: string;
  bytes: Uint8Array;
  options: PrepareOptions;
  /** The file's content hash, to assemble its records with (see `FileStages.records`). */
  fileHash?: string;
}

/** What the pool hands a worker when it starts (`workerData`). */
export interface WorkerStart {
  components?: WorkerComponents;
}

/** An error as plain data. */
export interface WorkerError {
  name: string;
  code?: string;
  message: string;
  details?: Record<string, unknown>;
  retryable?: boolean;
}

/**
 * The answer to a {@link WorkerTask}: the prepared file (the vectors' buffer transferred), or the error as plain data;
 * progress inside it; `ready` once the converters and components are loaded (with this worker's V8 heap and
 * external memory, for benchmarks), or not ready with why its components could not be built.
 * `cpuMs`: CPU time this worker thread has used so far (Linux), for benchmarks.
 */
export type WorkerReply =
  | { ready: true; heapMb: number; externalMb: number; cpuMs?: number }
  | { ready: false; error: WorkerError; cpuMs?: number }
  | { id: number; progress: FileStageProgress; cpuMs?: number }
  | { id: number; ok: true; value: Awaited<ReturnType<typeof PrepareFile>>; cpuMs?: number }
  | { id: number; ok: false; error: WorkerError; cpuMs?: number };

/** CPU milliseconds of this thread (utime + stime of /proc/thread-self/stat, 10 ms ticks), or undefined off Linux. */
function threadCpuMs(): number | undefined {
  try {
    const stat = readFileSync("/proc/thread-self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

function plainError(err: unknown): WorkerError {
  const e = err as { name?: string; code?: string; message?: string; details?: Record<string, unknown>; retryable?: boolean };
  return { name: e.name ?? "Error", code: e.code, message: e.message ?? String(err), details: e.details ? { ...e.details } : undefined, retryable: e.retryable };
}

// The converters and components load before the first task is accepted, so a task's time cap never counts the start-up.
const { prepareFile } = await import("./prepare-file.js");
let stages: FileStages | undefined;
try {
  const { buildFileStages } = await import("./worker-stages.js");
  stages = await buildFileStages((workerData as WorkerStart | undefined)?.components);
} catch (err) {
  parentPort?.postMessage({ ready: false, error: plainError(err), cpuMs: threadCpuMs() } satisfies WorkerReply);
}

/** Prepares one task and posts its reply (the error as plain data when it fails). */
async function handle(task: WorkerTask, fileStages: FileStages): Promise<void> {
  let reply: WorkerReply;
  const transfer: ArrayBuffer[] = [];
  try {
    const onProgress = (progress: FileStageProgress) => parentPort!.postMessage({ id: task.id, progress } satisfies WorkerReply);
    const value = await prepareFile(task.path, task.bytes, task.options, fileStages, onProgress, task.fileHash);
    if (value.vectors && value.vectors.buffer instanceof ArrayBuffer) transfer.push(value.vectors.buffer);
    if (value.analyzed) transfer.push(...analyzedBuffers(value.analyzed));
    reply = { id: task.id, ok: true, value };
  } catch (err) {
    reply = { id: task.id, ok: false, error: plainError(err) };
  }
  parentPort!.postMessage({ ...reply, cpuMs: threadCpuMs() }, transfer);
}

if (stages) {
  // The pool sends the next file before this one is done: files are prepared one at a time, in the order sent.
  let chain = Promise.resolve();
  const ready = stages;
  parentPort?.on("message", (task: WorkerTask) => {
    chain = chain.then(() => handle(task, ready));
  });
  const heap = getHeapStatistics();
  const mb = (bytes: number) => Math.round((bytes / 1e6) * 10) / 10;
  parentPort?.postMessage({
    ready: true,
    heapMb: mb(heap.used_heap_size),
    externalMb: mb(heap.external_memory),
    cpuMs: threadCpuMs(),
  } satisfies WorkerReply);
}
