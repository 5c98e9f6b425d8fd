const EMPTY = -1;

/** 32-bit FNV-1a over the UTF-16 code units of `s`. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Record id → row, as an open-addressing hash table of row numbers (one Int32Array, no per-entry objects)
 * checked against the store's id column: a slot answers for `id` only while `ids[row] === id`. So a row
 * that was removed or refilled by a swap-remove stops answering by itself (nothing to delete), and the table
 * is rebuilt from the ids when stale slots fill it. Building it for a million ids costs a fraction of
 * filling a `Map` (no per-entry allocation).
 */
export class RowIndex {
  private slots = new Int32Array(16).fill(EMPTY);
  private used = 0;

  /** @param ids the store's id column (read, never changed here). */
  constructor(private ids: readonly string[]) {}

  /** Rebuilds the table for `ids`; returns the number of ids that appear more than once. */
  build(ids: readonly string[]): number {
    this.ids = ids;
    let capacity = 16;
    while (capacity < ids.length * 2.5) capacity *= 2;
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.used = 0;
    let duplicates = 0;
    for (let row = 0; row < ids.length; row++) if (!this.insert(ids[row], row)) duplicates++;
    return duplicates;
  }

  /** The row of `id`, or `undefined`. */
  get(id: string): number | undefined {
    const mask = this.slots.length - 1;
    for (let i = hash(id) & mask; ; i = (i + 1) & mask) {
      const row = this.slots[i];
      if (row === EMPTY) return undefined;
      if (row < this.ids.length && this.ids[row] === id) return row;
    }
  }

  /** Records that `id` is now at `row` (`ids[row]` must already be `id`). */
  set(id: string, row: number): void {
    this.insert(id, row);
    if (this.used * 5 > this.slots.length * 3) this.build(this.ids);
  }

  /** Adds a slot unless one already answers for `id`; false when `id` was already at another row. */
  private insert(id: string, row: number): boolean {
    const mask = this.slots.length - 1;
    let i = hash(id) & mask;
    for (; this.slots[i] !== EMPTY; i = (i + 1) & mask) {
      const at = this.slots[i];
      if (at === row) return true;
      if (at < this.ids.length && this.ids[at] === id) return false;
    }
    this.slots[i] = row;
    this.used++;
    return true;
  }
}
