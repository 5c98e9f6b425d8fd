import type { ChunkRecord, VectorStoreAdapter } from "@hierdoc/core";

/** Records read per macrotask turn: a dense answer arriving meanwhile waits for at most one batch. */
const BATCH = 4;

/**
 * Reads ahead the records of one leg's first hits while a slower leg of the same search runs (in a hybrid
 * search the keyword leg answers on this thread while the dense leg is still searching on the store's thread
 * or server), and hands each record to `warm` (e.g. to match its defined terms into a memo). It reads a few
 * records per macrotask turn and stops at {@link get}, so it only fills time the search would spend
 * waiting. {@link get} returns exactly what the store's `get` returns for the ids, read-ahead records
 * reused: results do not depend on how far the read-ahead got. A failed read ends the read-ahead
 * (its ids are read again by {@link get}).
 */
export class CandidatePrefetch {
  private readonly read = new Map<string, ChunkRecord>();
  private stopped = false;
  private started = false;
  /** Ids the read-ahead asked the store for (diagnostics and tests). */
  readonly asked: string[] = [];

  constructor(
    private readonly store: Pick<VectorStoreAdapter, "get">,
    private readonly warm: (record: ChunkRecord) => void = () => undefined,
  ) {}

  /** Starts reading `ids` ahead, in order (once per search: later calls are ignored). */
  start(ids: readonly string[]): void {
    if (this.started || this.stopped) return;
    this.started = true;
    void this.run([...ids]).catch(() => undefined);
  }

  private async run(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += BATCH) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.stopped) return;
      const batch = ids.slice(i, i + BATCH);
      this.asked.push(...batch);
      const got = await this.store.get(batch);
      if (this.stopped) return;
      for (const r of got) {
        this.read.set(r.id, r);
        this.warm(r);
      }
    }
  }

  /**
   * Stops the read-ahead and returns the records of `ids` in `ids` order (ids the store no longer holds are
   * left out, as the store's `get` leaves them out); read-ahead records are reused, the others read now.
   */
  async get(ids: readonly string[]): Promise<ChunkRecord[]> {
    this.stopped = true;
    const missing = ids.filter((id) => !this.read.has(id));
    const fetched = missing.length > 0 ? await this.store.get(missing) : [];
    const byId = new Map(this.read);
    for (const r of fetched) byId.set(r.id, r);
    const out: ChunkRecord[] = [];
    for (const id of ids) {
      const r = byId.get(id);
      if (r !== undefined) out.push(r);
    }
    return out;
  }
}
