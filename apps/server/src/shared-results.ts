/**
 * Results of slow reads shared by key until the index changes: the first request for a key starts the work,
 * later requests (while it runs and after it finished) get the same promise, and {@link clear} drops them
 * all when an ingest changes the index. Failed work is not kept. Holds at most `max` keys, least recently
 * used first out.
 */
export class SharedResults {
  private readonly entries = new Map<string, Promise<unknown>>();

  constructor(readonly max = 256) {}

  /** The shared result of `key`, starting `work` when there is none. */
  get<T>(key: string, work: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key) as Promise<T> | undefined;
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const started = work();
    this.entries.set(key, started);
    started.catch(() => {
      if (this.entries.get(key) === started) this.entries.delete(key);
    });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    return started;
  }

  /** Number of keys held. */
  get size(): number {
    return this.entries.size;
  }

  /** Drops every result (the index changed). */
  clear(): void {
    this.entries.clear();
  }
}
