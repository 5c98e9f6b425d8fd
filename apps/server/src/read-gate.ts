import { HttpError } from "./http-errors.js";
import { ReadWriteLock } from "./rw-lock.js";
import { SharedResults } from "./shared-results.js";
import type { ServedTool } from "./types.js";

/**
 * Rejects with 503 E_TIMEOUT when `promise` takes longer than `ms`. The work itself is not cancelled (a
 * search cannot be); its result is dropped.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new HttpError(503, "E_TIMEOUT", `${what} took longer than ${ms} ms`, { headers: { "retry-after": "1" }, retryable: true })),
      ms,
    );
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Access to the served tool for every reader (HTTP routes and MCP tools): shared hold of the index lock
 * (ingests are exclusive) and the request timeout.
 */
export class ReadGate {
  readonly lock = new ReadWriteLock();
  /** Results of {@link readShared}, dropped by every {@link write}. */
  readonly shared = new SharedResults();

  constructor(
    readonly tool: ServedTool,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Runs a read against the tool.
   * @throws HttpError 503 E_TIMEOUT after the request timeout (including time spent waiting for an ingest).
   */
  read<T>(what: string, fn: (tool: ServedTool) => Promise<T> | T): Promise<T> {
    return withTimeout(
      this.lock.read(() => fn(this.tool)),
      this.timeoutMs,
      what,
    );
  }

  /**
   * Like {@link read}, but the answer is kept per `key` until the next {@link write}: a repeated request is
   * answered from it, and requests arriving while it is computed wait for the same work. A request that times
   * out (503) does not stop the work, whose answer serves the next request.
   * @throws HttpError 503 E_TIMEOUT as {@link read}.
   */
  readShared<T>(what: string, key: string, fn: (tool: ServedTool) => Promise<T> | T): Promise<T> {
    const work = this.shared.get(`${what}\u0000${key}`, () => this.lock.read(() => fn(this.tool)));
    return withTimeout(work, this.timeoutMs, what);
  }

  /** Runs `fn` (an ingest) under the exclusive hold; shared answers are dropped before the hold ends. */
  write<T>(fn: () => Promise<T> | T): Promise<T> {
    return this.lock.write(async () => {
      try {
        return await fn();
      } finally {
        this.shared.clear();
      }
    });
  }
}
