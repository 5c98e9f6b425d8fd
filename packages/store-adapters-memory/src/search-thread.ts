import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { AnnIndexOptions } from "@hierdoc/ann";
import type { ResolvedMemoryAnn } from "./ann-leg.js";
import type { SnapshotManifest } from "./snapshot.js";

/**
 * Whether a store opened with its graph memory-mapped searches it on a worker thread: `"auto"` (the
 * default) from {@link SEARCH_THREAD_AUTO_ROWS} records on when the machine has two cores or more, `true`
 * at any size, `false` never.
 */
export type SearchThreadSetting = "auto" | boolean;

/**
 * `"auto"` starts the search thread from this many records on: at 100 000 × 100-d records a graph search
 * plus its exact re-score costs ≈ 2 ms of the main thread per hybrid query, against ≈ 0.15 ms for the
 * round trip to the thread (see the package README).
 */
export const SEARCH_THREAD_AUTO_ROWS = 50_000;

/** What the thread opens: the graph file to view, the vectors files and the rows' places in them. */
export interface SearchThreadInit {
  graphPath: string;
  indexOptions: AnnIndexOptions;
  ann: ResolvedMemoryAnn;
  rows: number;
  dir: string;
  manifest: SnapshotManifest;
  places: { seg: Uint32Array; vindex: Uint32Array };
}

/** One unfiltered top-k search sent to the thread. */
export interface SearchRequest {
  id: number;
  query: Float32Array;
  k: number;
  candidates: number;
}

/** Asks the thread to close its files and end once the searches sent before it are answered. */
export interface SearchStop {
  stop: true;
}

/**
 * How long {@link SearchThread.stop} waits for the thread to end by itself before terminating it. Searches take
 * milliseconds; terminating the thread inside one aborts the process, so this is only a last resort.
 */
const STOP_GRACE_MS = 5_000;

/** The thread's messages: ready or failed at start, then one answer per request. */
export type SearchReply = { ready: true } | { failed: string } | { id: number; rows: Int32Array; scores: Float64Array } | { id: number; error: string };

/** The rows and exact scores a search found, best first. */
export type ThreadHits = Array<{ index: number; score: number }>;

/** Why a search was not answered by the thread (the caller searches on its own thread instead). */
export class SearchThreadUnavailable extends Error {}

interface Pending {
  resolve: (hits: ThreadHits) => void;
  reject: (err: Error) => void;
}

/**
 * A worker thread that searches a memory-mapped HNSW graph and re-scores its candidates against the
 * vectors files, so the store's dense search runs beside the caller's other work (BM25, exact lookups)
 * instead of before it. The graph's pages are shared with the store's own map through the page cache.
 *
 * Use only while the files it opened describe the store (no write since open): {@link stop} it before
 * the first change. It keeps the process alive only while starting and while a search is in flight; a failure (the thread cannot start,
 * crashes or is terminated) makes {@link search} reject with {@link SearchThreadUnavailable} and is
 * reported once through `onFailure`.
 */
export class SearchThread {
  /** The worker (exposed for tests and diagnostics: terminating it is how a crash is simulated). */
  readonly worker: Worker;
  private ready = false;
  private stopped = false;
  private settle: (ready: boolean) => void = () => undefined;
  /** Resolves true once the thread is ready, false when it failed or was stopped first. */
  readonly started: Promise<boolean>;
  /** Why the thread failed, when it did. */
  failure: string | undefined;
  /** Searches the thread answered (diagnostics). */
  answered = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Resolves when the thread has ended (for any reason). */
  private readonly ended: Promise<void>;

  private constructor(init: SearchThreadInit, private readonly onFailure: (reason: string) => void) {
    this.started = new Promise((resolve) => (this.settle = resolve));
    // No inherited node flags: the script needs none, and some (e.g. --input-type) make a worker fail.
    this.worker = new Worker(workerScript(), { workerData: init, execArgv: [], stdout: false, stderr: false });
    this.worker.on("message", (m: SearchReply) => this.received(m));
    this.worker.on("error", (err) => this.fail(`the search thread failed: ${err.message}`));
    this.ended = new Promise((resolve) => this.worker.once("exit", () => resolve()));
    this.worker.on("exit", (code) => this.fail(`the search thread exited (code ${code})`));
    // Held until the thread is ready (awaiting `started` keeps the process alive), then only while searching.
  }

  /**
   * Starts the thread in the background; searches go to it once it has opened the files.
   * @throws HierdocError never: a thread that cannot start reports through `onFailure`.
   */
  static start(init: SearchThreadInit, onFailure: (reason: string) => void): SearchThread | undefined {
    try {
      return new SearchThread(init, onFailure);
    } catch (err) {
      onFailure(`the search thread cannot start: ${(err as Error).message}`);
      return undefined;
    }
  }

  /** True once the thread has opened the files and until it stops or fails. */
  get usable(): boolean {
    return this.ready && !this.stopped;
  }

  /** The thread's id (for tests and diagnostics). */
  get threadId(): number {
    return this.worker.threadId;
  }

  /**
   * The `k` best rows among the graph's candidates (at least `candidates`), re-scored exactly, best first.
   * Rejects with {@link SearchThreadUnavailable} when the thread is not ready, stops or fails first.
   */
  search(query: Float32Array, k: number, candidates: number): Promise<ThreadHits> {
    if (!this.usable) return Promise.reject(new SearchThreadUnavailable("the search thread is not ready"));
    const id = this.nextId++;
    return new Promise<ThreadHits>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Held while a search is in flight, so awaiting the answer keeps the process alive.
      if (this.pending.size === 1) this.worker.ref();
      const request: SearchRequest = { id, query: Float32Array.from(query), k, candidates };
      this.worker.postMessage(request);
    });
  }

  /**
   * Stops the thread (idempotent); searches in flight reject with {@link SearchThreadUnavailable} at once. The
   * thread is asked to end after the search it may be running (never terminated inside a native search, which
   * would abort the process); it is terminated only if it has not ended after {@link STOP_GRACE_MS}.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.settle(false);
    this.rejectAll("the search thread was stopped");
    const stop: SearchStop = { stop: true };
    // Held until it ends, so a caller awaiting close() is not left with an empty event loop.
    this.worker.ref();
    this.worker.postMessage(stop);
    const timer = setTimeout(() => void this.worker.terminate(), STOP_GRACE_MS);
    await this.ended;
    clearTimeout(timer);
  }

  private received(m: SearchReply): void {
    if (this.stopped) return;
    if ("ready" in m) {
      this.ready = true;
      if (this.pending.size === 0) this.worker.unref();
      this.settle(true);
      return;
    }
    if ("failed" in m) return this.fail(`the search thread cannot open the index: ${m.failed}`);
    const p = this.pending.get(m.id);
    if (p === undefined) return;
    this.pending.delete(m.id);
    if (this.pending.size === 0) this.worker.unref();
    if ("error" in m) return p.reject(new SearchThreadUnavailable(`the search thread failed a search: ${m.error}`));
    this.answered++;
    const hits: ThreadHits = [];
    for (let i = 0; i < m.rows.length; i++) hits.push({ index: m.rows[i], score: m.scores[i] });
    p.resolve(hits);
  }

  private fail(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.failure = reason;
    this.settle(false);
    this.rejectAll(reason);
    this.worker.unref();
    void this.worker.terminate();
    this.onFailure(reason);
  }

  private rejectAll(reason: string): void {
    for (const p of this.pending.values()) p.reject(new SearchThreadUnavailable(reason));
    this.pending.clear();
  }
}

/**
 * Whether `setting` starts a search thread for a store of `rows` records whose graph is memory-mapped, on a
 * machine with `cores` cores (`"auto"` needs two: on one core the searches cannot overlap anything).
 */
export function wantsSearchThread(setting: SearchThreadSetting, rows: number, cores = availableParallelism()): boolean {
  return setting === true || (setting === "auto" && rows >= SEARCH_THREAD_AUTO_ROWS && cores >= 2);
}

/**
 * `search-thread-worker.js` beside this module once built; from the TypeScript sources (tests), the
 * package's built copy in `dist/`, since a worker thread runs JavaScript.
 */
function workerScript(): URL {
  const here = new URL("./search-thread-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return new URL("../dist/search-thread-worker.js", import.meta.url);
}
