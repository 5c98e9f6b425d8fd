import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ErrorCodes, HierdocError, type ErrorCode } from "@hierdoc/core";
import type { WorkerReply, WorkerStart, WorkerTask } from "./convert-worker.js";
import type { FileStageProgress } from "./file-stages.js";
import type { PrepareOptions, PreparedFile } from "./prepare-file.js";
import type { WorkerComponents } from "./worker-stages.js";

/** Options of a {@link ConvertPool}. */
export interface ConvertPoolOptions extends PrepareOptions {
  /** Most worker threads running at once (started on demand). */
  size: number;
  /** The worker entry; default `convert-worker.js` next to this module (or the package's built `dist/` one). */
  script?: string | URL;
  /**
   * Context writer and embedder each worker builds once when it starts (see `workerComponents`): files then come
   * back with their contexts and vectors. Default none: convert, parse, definitions and references only.
   */
  components?: WorkerComponents;
}

/**
 * How a worker started: milliseconds from spawning to ready (wall time) and the CPU its thread used for it (Linux),
 * its V8 heap and external memory (MB) then.
 */
export interface WorkerStartInfo {
  startMs: number;
  startCpuMs?: number;
  heapMb: number;
  externalMb: number;
}

interface Job {
  id: number;
  path: string;
  bytes: Uint8Array;
  fileHash?: string;
  resolve: (value: PreparedFile) => void;
  reject: (err: HierdocError) => void;
  onProgress?: (progress: FileStageProgress) => void;
}

interface Slot {
  worker: Worker;
  /** Set when the worker has loaded the converters. */
  ready: boolean;
  /** Files sent to the worker, the one it is preparing first (it prepares them one at a time, in order). */
  jobs: Job[];
  /** The time cap of `jobs[0]`. */
  timer?: NodeJS.Timeout;
  /** CPU milliseconds the worker thread reported last (cumulative). */
  cpuMs: number;
  /** performance.now() when the worker was started. */
  spawnedAt: number;
}

/** Files sent to one worker at a time once every worker has started: the one it prepares and the next. */
const DEPTH = 2;

/**
 * Worker threads that convert and parse files in parallel, each file under a time cap (`limits.timeout_seconds`:
 * the worker is terminated and replaced) and a heap cap (`limits.max_memory_mb`, the worker's `resourceLimits`):
 * a file that spins or balloons fails with one error naming it and the cap, and the next file goes on.
 * Workers start when work arrives, up to `size`; once all have started each is sent its next file before it finishes
 * the current one ({@link DEPTH}), so it never waits for this thread (busy indexing) to hand it work; a file's time
 * cap starts when this thread sees the previous one finished. {@link ConvertPool.close} stops them.
 */
export class ConvertPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** CPU milliseconds of workers no longer running; undefined once a worker could not tell (not Linux). */
  private stoppedCpuMs: number | undefined = 0;
  private readonly script: URL;
  /** Set when a worker could not build its components: every file fails with it (another worker would too). */
  private startError: HierdocError | undefined;
  /** How each worker started, in start order (benchmarks; README sizing). */
  readonly starts: WorkerStartInfo[] = [];

  constructor(private readonly options: ConvertPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new HierdocError("E_INVALID_ARGUMENT", `a convert pool needs at least one worker (got ${options.size})`);
    this.script = options.script ? new URL(options.script, import.meta.url) : defaultWorkerScript();
  }

  /** Workers running now. */
  get running(): number {
    return this.slots.size;
  }

  /**
   * CPU milliseconds the worker threads have used so far (start-up included; as of each worker's last reply), for
   * benchmarks; undefined where a thread's CPU time cannot be read (only Linux's /proc is read).
   */
  get workerCpuMs(): number | undefined {
    let sum = this.stoppedCpuMs;
    for (const slot of this.slots) sum = sum === undefined || Number.isNaN(slot.cpuMs) ? undefined : sum + slot.cpuMs;
    return sum;
  }

  private retire(slot: Slot): void {
    this.slots.delete(slot);
    if (this.stoppedCpuMs !== undefined) this.stoppedCpuMs = Number.isNaN(slot.cpuMs) ? undefined : this.stoppedCpuMs + slot.cpuMs;
  }

  /**
   * Converts and parses one file in a worker; the bytes' buffer is handed to the worker (not copied). With
   * `fileHash` (the file's content hash) and components that assemble records, the file comes back as its records.
   * @throws HierdocError naming the file: what the converter threw, E_TIMEOUT over the time cap,
   *   E_INPUT_TOO_LARGE over the memory cap, E_INTERNAL when the worker died, E_CANCELLED after close.
   */
  run(path: string, bytes: Uint8Array, onProgress?: (progress: FileStageProgress) => void, fileHash?: string): Promise<PreparedFile> {
    if (this.closed) return Promise.reject(new HierdocError("E_CANCELLED", `${path}: the ingest workers were stopped`, { details: { file: path } }));
    if (this.startError) return Promise.reject(startFailed(path, this.startError));
    return new Promise<PreparedFile>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, path, bytes, fileHash, resolve, reject, onProgress });
      this.dispatch();
    });
  }

  /** Stops every worker; queued and running files fail with E_CANCELLED. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(cancelled(job.path));
    await Promise.all(
      [...this.slots].map((slot) => {
        for (const job of slot.jobs.splice(0)) job.reject(cancelled(job.path));
        clearTimeout(slot.timer);
        this.retire(slot);
        return slot.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = [...this.slots].find((s) => s.ready && s.jobs.length === 0);
      if (idle) {
        this.assign(idle, this.queue.shift()!);
        continue;
      }
      // Workers still starting take the queue when ready; start more only for files no starting worker will take.
      const starting = [...this.slots].filter((s) => !s.ready).length;
      if (this.slots.size < this.options.size && starting < this.queue.length) {
        this.spawn();
        continue;
      }
      if (this.slots.size < this.options.size) return;
      // Every worker started: a busy one gets its next file now (the least loaded first).
      const next = [...this.slots].filter((s) => s.ready && s.jobs.length < DEPTH).sort((a, b) => a.jobs.length - b.jobs.length)[0];
      if (!next) return;
      this.assign(next, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const { limits } = this.options;
    const worker = new Worker(this.script, {
      resourceLimits: { maxOldGenerationSizeMb: limits.max_memory_mb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(limits.max_memory_mb / 16))) },
      stdout: false,
      stderr: false,
      workerData: { components: this.options.components } satisfies WorkerStart,
    });
    const slot: Slot = { worker, ready: false, jobs: [], cpuMs: 0, spawnedAt: performance.now() };
    worker.on("message", (reply: WorkerReply) => {
      // A worker being stopped (pool closed, or failed) can still deliver a message it sent before: it must neither
      // take work nor unref itself — an unref'd worker whose terminate() is pending lets the process exit (code 0,
      // mid-command) before close() resolves; that was the ingest that left no index under load.
      if (!this.slots.has(slot)) return;
      slot.cpuMs = reply.cpuMs ?? Number.NaN;
      if ("ready" in reply && !reply.ready) {
        // Its context writer or embedder cannot be built (or differs from this thread's): the queue fails with why.
        const e = reply.error;
        this.startError = new HierdocError(isErrorCode(e.code) ? e.code : "E_INTERNAL", e.message, { details: e.details });
        for (const queued of this.queue.splice(0)) queued.reject(startFailed(queued.path, this.startError));
        this.retire(slot);
        void worker.terminate();
        return;
      }
      if ("ready" in reply) {
        slot.ready = true;
        this.starts.push({ startMs: Math.round(performance.now() - slot.spawnedAt), startCpuMs: reply.cpuMs, heapMb: reply.heapMb, externalMb: reply.externalMb });
        worker.unref();
        return this.dispatch();
      }
      const job = slot.jobs.find((j) => j.id === reply.id);
      if (!job) return;
      if ("progress" in reply) return job.onProgress?.(reply.progress);
      // Replies come in the order the files were sent: this one is the head; the next file's time cap starts.
      clearTimeout(slot.timer);
      slot.jobs.splice(slot.jobs.indexOf(job), 1);
      if (slot.jobs.length > 0) this.startTimer(slot);
      else worker.unref();
      if (reply.ok) job.resolve(reply.value);
      else job.reject(fromReply(job.path, reply.error));
      this.dispatch();
    });
    worker.on("error", (err: Error & { code?: string }) => this.fail(slot, err.code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : err));
    worker.on("exit", (code) => this.fail(slot, code === 0 ? "exit" : new Error(`the worker exited with code ${code}`)));
    this.slots.add(slot);
    return slot;
  }

  private startTimer(slot: Slot): void {
    slot.timer = setTimeout(() => this.fail(slot, "timeout"), this.options.limits.timeout_seconds * 1000);
  }

  private assign(slot: Slot, job: Job): void {
    slot.jobs.push(job);
    slot.worker.ref();
    if (slot.jobs.length === 1) this.startTimer(slot);
    const { size: _size, script: _script, ...options } = this.options;
    const task: WorkerTask = { id: job.id, path: job.path, bytes: job.bytes, options, fileHash: job.fileHash };
    const buffer = job.bytes.buffer;
    // The file the worker starts now hands its bytes over; a file sent ahead is copied, so it can go back to the queue
    // (and to another worker) if this worker fails before reaching it.
    const transferable = slot.jobs.length === 1 && buffer instanceof ArrayBuffer && job.bytes.byteOffset === 0 && job.bytes.byteLength === buffer.byteLength;
    slot.worker.postMessage(task, transferable ? [buffer] : []);
  }

  /**
   * Ends a worker that timed out, ran out of memory or died: its current file fails with one error, the file sent
   * after it goes back to the head of the queue, and a new worker takes the queue.
   */
  private fail(slot: Slot, why: "timeout" | "memory" | "exit" | Error): void {
    if (!this.slots.has(slot)) return;
    this.retire(slot);
    clearTimeout(slot.timer);
    const [job, ...sentAfter] = slot.jobs.splice(0);
    this.queue.unshift(...sentAfter);
    void slot.worker.terminate();
    if (job) {
      const { limits } = this.options;
      const file = job.path;
      if (why === "timeout") {
        job.reject(new HierdocError("E_TIMEOUT", `${file}: converting took longer than ${limits.timeout_seconds} s (limits.timeout_seconds); stopped`, { details: { file, limit: "timeout_seconds" } }));
      } else if (why === "memory") {
        job.reject(new HierdocError("E_INPUT_TOO_LARGE", `${file}: converting needed more than ${limits.max_memory_mb} MB of memory (limits.max_memory_mb); stopped`, { details: { file, limit: "max_memory_mb" } }));
      } else {
        const message = why === "exit" ? "the worker exited" : why.message;
        job.reject(new HierdocError("E_INTERNAL", `${file}: the ingest worker failed: ${message}`, { cause: why === "exit" ? undefined : why, details: { file } }));
      }
    }
    if (!slot.ready && !job) {
      // A worker that cannot even start would fail the same way again: the queued files fail instead.
      const message = typeof why === "object" ? why.message : why === "memory" ? `out of memory (limits.max_memory_mb ${this.options.limits.max_memory_mb})` : "it exited";
      for (const queued of this.queue.splice(0)) {
        queued.reject(new HierdocError("E_INTERNAL", `${queued.path}: the ingest worker could not start: ${message}`, { details: { file: queued.path } }));
      }
      return;
    }
    if (!this.closed) this.dispatch();
  }
}

function cancelled(path: string): HierdocError {
  return new HierdocError("E_CANCELLED", `${path}: the ingest workers were stopped`, { details: { file: path } });
}

/** A file's error when the workers could not start: the start error's code, naming the file. */
function startFailed(path: string, err: HierdocError): HierdocError {
  return new HierdocError(err.code, `${path}: the ingest worker could not start: ${err.message}`, { details: { ...err.details, file: path } });
}

function isErrorCode(code: string | undefined): code is ErrorCode {
  return (ErrorCodes as readonly string[]).includes(code ?? "");
}

function fromReply(path: string, e: Extract<WorkerReply, { ok: false }>["error"]): HierdocError {
  const code = isErrorCode(e.code) ? e.code : "E_PARSE";
  const message = e.name === "HierdocError" ? e.message : `${path}: ${e.message}`;
  return new HierdocError(code, message, { details: { ...e.details, file: path }, retryable: e.retryable });
}

/**
 * `convert-worker.js` beside this module once built; from the TypeScript sources (tests), the package's built copy
 * in `dist/`, since a worker thread runs JavaScript.
 */
function defaultWorkerScript(): URL {
  const here = new URL("./convert-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const built = new URL("../dist/convert-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new HierdocError("E_INTERNAL", `the ingest worker script is missing (${fileURLToPath(here)}); build @hierdoc/tool, or set ingest.workers: 0`);
}
