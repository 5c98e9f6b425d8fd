/** Segment number of a row whose record line is still in memory (written by the next flush). */
export const PENDING = 0xffffffff;

/** Bytes per row in the rows file: offset (f64) + segment, vector index, length, CRC-32, source (u32 each). */
export const ROW_BYTES = 28;

/**
 * Where each row's record lives, as typed columns grown by doubling (a few bytes per row, no objects):
 * the record file segment, the row's vector index in that segment's vectors file, the line's byte offset
 * and length, and the line's CRC-32. A pending row (segment {@link PENDING}) keeps in `offset` the index
 * of its line in the store's list of unflushed lines.
 *
 * Use as the in-memory form of the snapshot's rows file; {@link toBytes} / {@link fromBytes} convert.
 */
export class RowColumns {
  seg: Uint32Array;
  vindex: Uint32Array;
  offset: Float64Array;
  length: Uint32Array;
  crc: Uint32Array;
  private rows = 0;

  /** @param capacity rows reserved. */
  constructor(capacity = 1024) {
    const c = Math.max(16, capacity);
    this.seg = new Uint32Array(c);
    this.vindex = new Uint32Array(c);
    this.offset = new Float64Array(c);
    this.length = new Uint32Array(c);
    this.crc = new Uint32Array(c);
  }

  /** Number of rows. */
  get size(): number {
    return this.rows;
  }

  /** Appends a row and returns its number. */
  push(seg: number, vindex: number, offset: number, length: number, crc: number): number {
    if (this.rows === this.seg.length) this.grow(this.rows * 2);
    this.set(this.rows, seg, vindex, offset, length, crc);
    return this.rows++;
  }

  /** Overwrites row `row`. */
  set(row: number, seg: number, vindex: number, offset: number, length: number, crc: number): void {
    this.seg[row] = seg;
    this.vindex[row] = vindex;
    this.offset[row] = offset;
    this.length[row] = length;
    this.crc[row] = crc;
  }

  /** Removes row `row` by moving the last row into its place (as the vector matrix does). */
  swapRemove(row: number): void {
    const last = --this.rows;
    if (row === last) return;
    this.set(row, this.seg[last], this.vindex[last], this.offset[last], this.length[last], this.crc[last]);
  }

  /** Drops every row. */
  clear(): void {
    this.rows = 0;
  }

  /** The rows file: the columns packed (offsets first, so every column is aligned), then each row's source index. */
  toBytes(sourceIndex: Uint32Array): Buffer {
    const n = this.rows;
    const out = Buffer.alloc(n * ROW_BYTES);
    const f64 = new Float64Array(out.buffer, out.byteOffset, n);
    f64.set(this.offset.subarray(0, n));
    const u32 = new Uint32Array(out.buffer, out.byteOffset + n * 8, n * 5);
    u32.set(this.seg.subarray(0, n), 0);
    u32.set(this.vindex.subarray(0, n), n);
    u32.set(this.length.subarray(0, n), 2 * n);
    u32.set(this.crc.subarray(0, n), 3 * n);
    u32.set(sourceIndex.subarray(0, n), 4 * n);
    return out;
  }

  /** Columns and source indexes of `rows` rows read from a rows file's bytes (`bytes.length === rows * ROW_BYTES`). */
  static fromBytes(bytes: Uint8Array, rows: number): { columns: RowColumns; sourceIndex: Uint32Array } {
    const aligned = bytes.byteOffset % 8 === 0 ? bytes : Uint8Array.from(bytes);
    const columns = new RowColumns(rows);
    columns.offset.set(new Float64Array(aligned.buffer, aligned.byteOffset, rows));
    const u32 = new Uint32Array(aligned.buffer, aligned.byteOffset + rows * 8, rows * 5);
    columns.seg.set(u32.subarray(0, rows));
    columns.vindex.set(u32.subarray(rows, 2 * rows));
    columns.length.set(u32.subarray(2 * rows, 3 * rows));
    columns.crc.set(u32.subarray(3 * rows, 4 * rows));
    columns.rows = rows;
    return { columns, sourceIndex: u32.slice(4 * rows, 5 * rows) };
  }

  private grow(capacity: number): void {
    const grown = <T extends Uint32Array | Float64Array>(a: T): T => {
      const next = new (a.constructor as new (n: number) => T)(capacity);
      next.set(a);
      return next;
    };
    this.seg = grown(this.seg);
    this.vindex = grown(this.vindex);
    this.offset = grown(this.offset);
    this.length = grown(this.length);
    this.crc = grown(this.crc);
  }
}
