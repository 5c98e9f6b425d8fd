import { debuglog } from "node:util";
import { overFetch } from "./ann-leg.js";
import { SearchThread, SearchThreadUnavailable, type SearchThreadInit, type ThreadHits } from "./search-thread.js";

/** Debug messages (`NODE_DEBUG=hierdoc`): the search thread's start, failures and fallbacks. */
const debug = debuglog("hierdoc");

/**
 * The memory store's side of its {@link SearchThread}: starts the thread over the files a store opened,
 * stops it before the store's first change, and sends it unfiltered top-k searches whose answers count
 * only when nothing changed while the thread searched. `dir` only names the store in debug messages.
 */
export class ThreadSearches {
  private thread: SearchThread | undefined;
  /** Advanced by every stop (a change, a close): an answer is used only when no stop came in between. */
  private epoch = 0;

  constructor(private readonly dir: string | undefined) {}

  /** The running thread, if any (diagnostics and tests). */
  get current(): SearchThread | undefined {
    return this.thread;
  }

  /** True while a thread is ready to take searches. */
  get usable(): boolean {
    return this.thread?.usable === true;
  }

  /** Starts a thread in the background (a thread that cannot start or later fails only leaves searches here). */
  start(init: SearchThreadInit): void {
    this.thread = SearchThread.start(init, (reason) => {
      debug(`memory store ${this.dir}: dense searches stay on the main thread: ${reason}`);
      // The current thread failed (or, called during start(), none is set yet).
      if (this.thread?.failure !== undefined) this.thread = undefined;
    });
  }

  /** Stops the thread (before a change, or at close) and invalidates answers still in flight. */
  stop(): Promise<void> {
    this.epoch++;
    const thread = this.thread;
    this.thread = undefined;
    return thread?.stop() ?? Promise.resolve();
  }

  /**
   * The thread's `k` best rows with exact scores (the same candidates as the store's own graph search:
   * {@link overFetch}), or `undefined` when the caller must search itself: no usable thread, the thread
   * became unavailable, it gave fewer than `k` rows, or the store changed meanwhile.
   * @throws the thread's search error (other than {@link SearchThreadUnavailable}).
   */
  async search(vector: Float32Array, k: number): Promise<ThreadHits | undefined> {
    const thread = this.thread;
    if (thread === undefined || !thread.usable) return undefined;
    const epoch = this.epoch;
    try {
      const hits = await thread.search(vector, k, overFetch(k));
      if (epoch === this.epoch && hits.length === k) return hits;
    } catch (err) {
      if (!(err instanceof SearchThreadUnavailable)) throw err;
      debug(`memory store ${this.dir}: dense search on the main thread: ${err.message}`);
    }
    return undefined;
  }
}
