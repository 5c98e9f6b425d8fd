import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { MANIFEST, readIndexFolderState, type IndexFolderState } from "@hierdoc/tool";
import type { ReadGate } from "./read-gate.js";
import type { LogEntry, ServedTool } from "./types.js";

/** Default {@link ReloadOptions.intervalMs}: how often the index folder is checked. */
export const DEFAULT_RELOAD_INTERVAL_MS = 1_000;

/** How a server notices and loads an ingest made by another process into its index folder. */
export interface ReloadOptions {
  /** The index folder the served tool was opened over. */
  indexDir: string;
  /** Opens a new tool over that folder, the way the served one was opened. */
  open: () => Promise<ServedTool>;
  /** How often the folder is checked (two small file reads), in ms. Default 1,000. */
  intervalMs?: number;
  /**
   * The folder's state sampled before the served tool was opened (so an ingest finishing during that open is
   * not missed); default: sampled when the watcher starts.
   */
  since?: IndexFolderState;
}

/** What `/health` reports of the served index state. */
export interface IndexStatus {
  /** The server reloads the index when another process changes it. */
  watching: boolean;
  /** When the served tool was opened (ISO time). */
  loadedAt: string;
  /** `updatedAt` of the `hierdoc.json` the served tool was opened after (the last ingest it includes), if known. */
  updatedAt: string | null;
  /** Reloads since the server started. */
  reloads: number;
  /** A new tool is being opened (the old one answers meanwhile). */
  reloading: boolean;
  /** The pid holding the index lock while a change waits for it to be released (0: pid not written yet); else null. */
  waitingForLock: number | null;
  /** The last reload: when, why, how long the open took, chunks before and after. */
  lastReload: { at: string; reason: string; ms: number; chunksBefore: number; chunksAfter: number } | null;
  /** Why the last reload failed, until a reload succeeds (the old tool is still served). */
  lastError: string | null;
}

/** What the watcher does besides swapping the gate's tool. */
export interface IndexWatcherHooks {
  log: (entry: LogEntry) => void;
  /** After a swap, before the reload is logged (drop caches derived from the old tool). */
  onSwap?: () => void;
  /** Closes a replaced tool once no read uses it. Default: `tool.close()`. */
  closeOld?: (tool: ServedTool) => Promise<void>;
}

/**
 * Reloads the served index when another process (a `hierdoc ingest` in another terminal) changed it: polls
 * the folder's {@link IndexFolderState} every `intervalMs`; when `hierdoc.json` changed and the index lock is
 * free (an ingest holds it until after its last write), opens a new tool in the background while the old one
 * answers, then swaps it into the {@link ReadGate} (reads already running finish on the old tool, which is
 * closed after them) and logs one line saying why. A change seen while the lock is held waits for its release;
 * a change or lock seen again after the open discards the new tool and retries. Ingests made through the
 * server call {@link beforeWrite} and {@link afterWrite}, so they are not loaded twice.
 */
export class IndexWatcher {
  private baseline: IndexFolderState = { manifest: null, lockedBy: null };
  /** Reload once the lock is free even if the manifest did not change (the index was opened while being written). */
  private dirty: string | null = null;
  /** Manifest identity whose reload failed: not retried until it changes again. */
  private failedFor: string | null | undefined;
  /** Bumped by every ingest made through the server: a check that began before it is void. */
  private epoch = 0;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly retiring = new Set<Promise<void>>();
  private readonly state: Omit<IndexStatus, "watching">;

  constructor(
    private readonly gate: ReadGate,
    private readonly options: ReloadOptions,
    private readonly hooks: IndexWatcherHooks,
  ) {
    this.state = { loadedAt: new Date().toISOString(), updatedAt: null, reloads: 0, reloading: false, waitingForLock: null, lastReload: null, lastError: null };
  }

  /** Samples the folder (unless `since` was given) and starts polling. */
  async start(): Promise<void> {
    const since = this.options.since ?? (await readIndexFolderState(this.options.indexDir));
    this.baseline = since;
    if (since.lockedBy !== null) this.dirty = `the index was being written (process ${since.lockedBy}) when it was opened`;
    this.state.updatedAt = await this.manifestUpdatedAt();
    this.timer = setInterval(() => this.tick(), this.options.intervalMs ?? DEFAULT_RELOAD_INTERVAL_MS);
    this.timer.unref();
  }

  /** The served index state (for `/health`). */
  status(): IndexStatus {
    return { watching: !this.closed, ...this.state, lastReload: this.state.lastReload && { ...this.state.lastReload } };
  }

  /**
   * Call under the gate's write hold before an ingest through the server: finishes a reload in flight, and loads
   * a change another process made since (so the ingest does not write over it from an old view).
   */
  async beforeWrite(): Promise<void> {
    await this.running;
    if (this.closed) return;
    const work = this.check("before an ingest through this server").catch((err: Error) => this.hooks.log({ level: "warn", msg: "index check failed", error: err.message }));
    this.running = work;
    await work.finally(() => {
      if (this.running === work) this.running = undefined;
    });
  }

  /** Call under the gate's write hold after an ingest through the server: its own change is not reloaded. */
  async afterWrite(succeeded: boolean): Promise<void> {
    this.epoch++;
    // A failed ingest may have written part of its files (checkpoints): the next check reloads what is on disk.
    if (succeeded) this.baseline = await readIndexFolderState(this.options.indexDir);
    this.state.updatedAt = await this.manifestUpdatedAt();
  }

  /** Stops polling; waits for a reload in flight and for replaced tools to close. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running?.catch(() => {});
    await Promise.allSettled([...this.retiring]);
  }

  private tick(): void {
    if (this.closed || this.running || this.gate.lock.writing) return;
    const work: Promise<void> = this.check()
      .catch((err: Error) => this.hooks.log({ level: "warn", msg: "index check failed", error: err.message }))
      .finally(() => {
        if (this.running === work) this.running = undefined;
      });
    this.running = work;
  }

  private async check(context?: string): Promise<void> {
    const epoch = this.epoch;
    const seen = await readIndexFolderState(this.options.indexDir);
    if (epoch !== this.epoch || this.closed) return;
    const changed = seen.manifest !== this.baseline.manifest;
    if (!changed && !this.dirty) {
      this.state.waitingForLock = null;
      return;
    }
    if (changed && seen.manifest === this.failedFor) return;
    if (seen.lockedBy !== null) {
      if (this.state.waitingForLock !== seen.lockedBy) {
        this.hooks.log({ level: "debug", msg: "index changed; waiting for the index lock", pid: seen.lockedBy });
      }
      this.state.waitingForLock = seen.lockedBy;
      return;
    }
    const waited = this.state.waitingForLock;
    this.state.waitingForLock = null;
    const why = changed ? `${MANIFEST} changed (an ingest by another process finished${waited ? `; waited for process ${waited} to release the index lock` : ""})` : this.dirty!;
    await this.reload(seen, epoch, context ? `${why}, ${context}` : why);
  }

  private async reload(seen: IndexFolderState, epoch: number, reason: string): Promise<void> {
    const t0 = performance.now();
    this.state.reloading = true;
    let next: ServedTool;
    try {
      next = await this.options.open();
    } catch (err) {
      this.failedFor = seen.manifest;
      this.state.lastError = (err as Error).message;
      this.hooks.log({ level: "warn", msg: "index reload failed; still serving the previous state", reason, code: (err as { code?: string }).code ?? "E_INTERNAL", error: (err as Error).message });
      return;
    } finally {
      this.state.reloading = false;
    }
    const after = await readIndexFolderState(this.options.indexDir).catch(() => null);
    if (this.closed || epoch !== this.epoch || !after || after.manifest !== seen.manifest || after.lockedBy !== null) {
      // Another write began (or finished) while opening: this view may be half of it. Retry on the next check.
      await next.close().catch(() => {});
      this.hooks.log({ level: "debug", msg: "index changed again while reloading; retrying" });
      return;
    }
    const updatedAt = await this.manifestUpdatedAt();
    if (this.closed) {
      await next.close().catch(() => {});
      return;
    }
    const ms = Math.round(performance.now() - t0);
    const chunksBefore = this.gate.tool.chunkCount;
    const { old, idle } = this.gate.replace(next);
    this.baseline = seen;
    this.dirty = null;
    this.failedFor = undefined;
    const at = new Date().toISOString();
    Object.assign(this.state, { loadedAt: at, updatedAt, reloads: this.state.reloads + 1, lastError: null, lastReload: { at, reason, ms, chunksBefore, chunksAfter: next.chunkCount } });
    this.hooks.onSwap?.();
    this.hooks.log({ level: "info", msg: "index reloaded", reason, ms, chunks_before: chunksBefore, chunks_after: next.chunkCount });
    const close = this.hooks.closeOld ?? ((t: ServedTool) => t.close());
    const retired: Promise<void> = idle
      .then(() => close(old))
      .catch((err: Error) => this.hooks.log({ level: "warn", msg: "closing the replaced index failed", error: err.message }))
      .finally(() => this.retiring.delete(retired));
    this.retiring.add(retired);
  }

  private async manifestUpdatedAt(): Promise<string | null> {
    try {
      const m = JSON.parse(await readFile(join(this.options.indexDir, MANIFEST), "utf8")) as { updatedAt?: unknown };
      return typeof m.updatedAt === "string" ? m.updatedAt : null;
    } catch {
      return null;
    }
  }
}
