// Entry of an ingest worker thread: converts and parses the files the pool sends, one at a time.
import { parentPort } from "node:worker_threads";
import type { PrepareOptions, prepareFile as PrepareFile } from "./prepare-file.js";

/** A file to prepare, sent by the pool (the bytes' buffer is transferred). */
export interface WorkerTask {
  id: number;
  path: string;
  bytes: Uint8Array;
  options: PrepareOptions;
}

/** The answer to a {@link WorkerTask}: the prepared file, or the error as plain data; `ready` once the converters are loaded. */
export type WorkerReply =
  | { ready: true }
  | { id: number; ok: true; value: Awaited<ReturnType<typeof PrepareFile>> }
  | { id: number; ok: false; error: { name: string; code?: string; message: string; details?: Record<string, unknown>; retryable?: boolean } };

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
  parentPort!.postMessage(reply);
});

parentPort?.postMessage({ ready: true } satisfies WorkerReply);
