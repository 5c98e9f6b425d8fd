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

/** One served tool and the reads running on it (a replaced tool is closed once they are done). */
interface ToolSlot {
  tool: ServedTool;
  users: number;
  idle?: () => void;
}

/**
 * Access to the served tool for every reader (HTTP routes and MCP tools): shared hold of the index lock
 * (ingests are exclusive) and the request timeout. The tool can be {@link replace}d (a reload after another
 * process changed the index): reads that started on the old tool finish on it, later reads get the new one.
 */
export class ReadGate {
  readonly lock = new ReadWriteLock();
  /** Results of {@link readShared}, dropped by every {@link write} and {@link replace}. */
  readonly shared = new SharedResults();
  private slot: ToolSlot;

  constructor(
    tool: ServedTool,
    private readonly timeoutMs: number,
  ) {
    this.slot = { tool, users: 0 };
  }

  /** The tool new reads and ingests use. */
  get tool(): ServedTool {
    return this.slot.tool;
  }

  /**
   * Runs a read against the tool.
   * @throws HttpError 503 E_TIMEOUT after the request timeout (including time spent waiting for an ingest).
   */
  read<T>(what: string, fn: (tool: ServedTool) => Promise<T> | T): Promise<T> {
    return withTimeout(
      this.lock.read(() => this.use(fn)),
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
    const work = this.shared.get(`${what}\u0000${key}`, () => this.lock.read(() => this.use(fn)));
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

  /**
   * Serves `next` from now on, at once (no read waits): shared answers are dropped; reads already running on
   * the old tool finish on it. Never call it while an ingest runs on the old tool (the `IndexWatcher` swaps only
   * from its own checks, which an ingest through the server waits for in `beforeWrite`).
   * @returns the old tool and a promise settled when no read uses it any more (then close it).
   */
  replace(next: ServedTool): { old: ServedTool; idle: Promise<void> } {
    const old = this.slot;
    this.slot = { tool: next, users: 0 };
    this.shared.clear();
    const idle = old.users === 0 ? Promise.resolve() : new Promise<void>((resolve) => (old.idle = resolve));
    return { old: old.tool, idle };
  }

  private async use<T>(fn: (tool: ServedTool) => Promise<T> | T): Promise<T> {
    const slot = this.slot;
    slot.users++;
    try {
      return await fn(slot.tool);
    } finally {
      if (--slot.users === 0) slot.idle?.();
    }
  }
}
