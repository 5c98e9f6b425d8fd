// Entry of an ingest worker thread: converts and parses the files the pool sends, one at a time.
import { readFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import type { PrepareOptions, prepareFile as PrepareFile } from "./prepare-file.js";

/** A file to prepare, sent by the pool (the bytes' buffer is transferred). */
export interface WorkerTask {
  id: number;
  path: string;
  bytes: Uint8Array;
  options: PrepareOptions;
}

/**
 * The answer to a {@link WorkerTask}: the prepared file, or the error as plain data; `ready` once the converters are loaded.
 * `cpuMs`: CPU time this worker thread has used so far (Linux), for benchmarks.
 */
export type WorkerReply =
  | { ready: true; cpuMs?: number }
  | { id: number; ok: true; value: Awaited<ReturnType<typeof PrepareFile>>; cpuMs?: number }
  | { id: number; ok: false; error: { name: string; code?: string; message: string; details?: Record<string, unknown>; retryable?: boolean }; cpuMs?: number };

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

// The converters load before the first task is accepted, so a task's time cap never counts the start-up.
const { prepareFile } = await import("./prepare-file.js");

parentPort?.on("message", async (task: WorkerTask) => {
  let reply: WorkerReply;
  try {
    reply = { id: task.id, ok: true, value: await prepareFile(task.path, task.bytes, task.options) };
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string; details?: Record<string, unknown>; retryable?: boolean };
    reply = {
      id: task.id,
      ok: false,
      error: { name: e.name ?? "Error", code: e.code, message: e.message ?? String(err), details: e.details ? { ...e.details } : undefined, retryable: e.retryable },
    };
  }
  parentPort!.postMessage({ ...reply, cpuMs: threadCpuMs() });
});

parentPort?.postMessage({ ready: true, cpuMs: threadCpuMs() } satisfies WorkerReply);
