/**
 * A writer-preferring read/write lock: searches and lookups share it, an ingest holds it alone (so no read
 * sees an index half-way through an update). Readers that arrive while a writer waits queue behind it.
 */
export class ReadWriteLock {
  private readers = 0;
  private writer = false;
  private readonly waitingWriters: Array<() => void> = [];
  private waitingReaders: Array<() => void> = [];

  /** True while a writer holds or waits for the lock. */
  get writing(): boolean {
    return this.writer || this.waitingWriters.length > 0;
  }

  /** Runs `fn` under a shared (read) hold. */
  async read<T>(fn: () => Promise<T> | T): Promise<T> {
    if (this.writer || this.waitingWriters.length > 0) await new Promise<void>((r) => this.waitingReaders.push(r));
    else this.readers++;
    try {
      return await fn();
    } finally {
      this.readers--;
      this.wake();
    }
  }

  /** Runs `fn` under an exclusive (write) hold. */
  async write<T>(fn: () => Promise<T> | T): Promise<T> {
    if (this.writer || this.readers > 0) await new Promise<void>((r) => this.waitingWriters.push(r));
    else this.writer = true;
    try {
      return await fn();
    } finally {
      this.writer = false;
      this.wake();
    }
  }

  private wake(): void {
    if (this.writer || this.readers > 0) return;
    const w = this.waitingWriters.shift();
    if (w) {
      this.writer = true;
      w();
      return;
    }
    const rs = this.waitingReaders;
    this.waitingReaders = [];
    this.readers += rs.length;
    for (const r of rs) r();
  }
}
