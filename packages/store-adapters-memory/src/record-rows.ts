import { closeSync, fstatSync, readSync } from "node:fs";
import { crc32 } from "node:zlib";
import { PENDING, RowColumns } from "./row-columns.js";
import { RowIndex } from "./row-index.js";
import { corrupt, type SnapshotSegmentEntry } from "./snapshot.js";
import type { SegmentVectors } from "./segment-vectors.js";
import type { VectorMatrix } from "./vector-matrix.js";

/** A segment of the open snapshot, with a read descriptor on its records file (kept open, so a writer deleting the file does not break reads). */
export interface Segment extends SnapshotSegmentEntry {
  fd: number;
}

/** What a snapshot reader hands the store: rows (in row order), their segments and the row-ordered vectors (or their open files). */
export interface LoadedRows {
  ids: string[];
  sources: string[];
  columns: RowColumns;
  segments: Segment[];
  /** The vectors in row order, unless the reader was asked to leave them in `vectorFiles`. */
  vectors?: Float32Array;
  vectorFiles?: SegmentVectors;
}

/** When a flush rewrites segments (see the README's "Compaction"). */
export interface CompactionPolicy {
  /** A segment is rewritten (its live lines copied into the new one) once more than this share of its bytes is dead. */
  deadShare: number;
  /** At most this many segments: beyond it the smallest are merged into the new one. */
  maxSegments: number;
}

/** The next generation, prepared synchronously by {@link RecordRows.planFlush}; written by the snapshot writer. */
export interface FlushPlan {
  /** Old segment numbers kept, in their new order (the new segment, if any, comes after them). */
  keep: number[];
  /** Old segment numbers dropped (rewritten or without live rows). */
  dropped: number[];
  /** Rows copied into the new segment: id and old location (segment, offset or pending key), in line order. */
  written: Array<{ id: string; seg: number; offset: number }>;
  /** The new segment's records file, its line offsets, lengths and CRC-32s, and its vectors; `undefined` when nothing is written. */
  segment?: { records: Buffer; offsets: Float64Array; lengths: Uint32Array; crcs: Uint32Array; vectors: Float32Array };
  rows: Buffer;
  columns: Buffer;
  count: number;
}

/**
 * The store's rows apart from their vectors: ids and source paths (for lookups, filters and deletes),
 * where each record line lives (a {@link RowColumns} offset table into append-only segment files, or
 * an unflushed line held in memory), kept row-aligned with the vector matrix (same appends and
 * swap-removes). Record lines are read from disk when asked for and checked against their CRC-32.
 */
export class RecordRows {
  ids: string[] = [];
  sources: string[] = [];
  cols = new RowColumns();
  rowById = new RowIndex(this.ids);
  /** Records per source path (decides between the graph and an exact scan for filtered searches). */
  sourceCounts = new Map<string, number>();
  segments: Segment[] = [];
  private pending = new Map<number, Buffer>();
  private nextPending = 0;
  private paths = new Map<string, string>();
  private scans = 0;
  private retired: number[] = [];

  /** @param dir folder named in errors. */
  constructor(private readonly dir: string) {}

  /** Number of rows. */
  get size(): number {
    return this.ids.length;
  }

  /** Takes over a loaded snapshot (its segments' descriptors included); returns how many ids appear more than once. */
  adopt(loaded: LoadedRows): number {
    this.ids = loaded.ids;
    this.sources = loaded.sources.map((s) => this.path(s));
    this.cols = loaded.columns;
    this.segments = loaded.segments;
    const duplicates = this.rowById.build(this.ids);
    for (const s of this.sources) this.count(s, 1);
    return duplicates;
  }

  /** Appends a row for a new record (its line pending until the next flush); returns the row. */
  add(id: string, source: string, line: Buffer): number {
    const key = this.nextPending++;
    this.pending.set(key, line);
    const row = this.cols.push(PENDING, 0, key, line.length, 0);
    this.ids.push(id);
    this.sources.push(this.path(source));
    this.rowById.set(id, row);
    this.count(source, 1);
    return row;
  }

  /** Replaces row `row`'s record (pending until the next flush). */
  replace(row: number, source: string, line: Buffer): void {
    this.dropPending(row);
    const key = this.nextPending++;
    this.pending.set(key, line);
    this.cols.set(row, PENDING, 0, key, line.length, 0);
    this.count(this.sources[row], -1);
    this.count(source, 1);
    this.sources[row] = this.path(source);
  }

  /** Removes row `row` by moving the last row into its place (as {@link VectorMatrix.swapRemove} does). */
  swapRemove(row: number): void {
    this.dropPending(row);
    this.count(this.sources[row], -1);
    this.cols.swapRemove(row);
    const lastId = this.ids.pop() as string;
    const lastSource = this.sources.pop() as string;
    if (row < this.ids.length) {
      this.ids[row] = lastId;
      this.sources[row] = lastSource;
      this.rowById.set(lastId, row);
    }
  }

  /**
   * Row `row`'s record line (UTF-8 JSON), read from its segment when flushed.
   * @throws HierdocError E_INDEX_CORRUPT naming the records file when the line read does not match its CRC-32.
   */
  line(row: number, operation = "get"): Buffer {
    const seg = this.cols.seg[row];
    if (seg === PENDING) return this.pending.get(this.cols.offset[row]) as Buffer;
    const length = this.cols.length[row];
    const offset = this.cols.offset[row];
    const segment = this.segments[seg];
    const out = Buffer.allocUnsafe(length);
    const read = length === 0 ? 0 : readSync(segment.fd, out, 0, length, offset);
    return this.checked(out.subarray(0, read), { id: this.ids[row], length, offset, crc: this.cols.crc[row] }, segment, operation);
  }

  /** Every row's line as of the call, in row order; segments stay readable until the iteration ends. */
  *lines(): Generator<Buffer> {
    const n = this.size;
    const held = new Map<number, Buffer>();
    for (let r = 0; r < n; r++) if (this.cols.seg[r] === PENDING) held.set(r, this.line(r));
    const loc = { seg: this.cols.seg.slice(0, n), offset: this.cols.offset.slice(0, n), length: this.cols.length.slice(0, n), crc: this.cols.crc.slice(0, n) };
    const ids = this.ids.slice();
    const segments = this.segments.slice();
    const blocks = new Map<number, { start: number; bytes: Buffer }>();
    this.scans++;
    try {
      for (let r = 0; r < n; r++) {
        const pending = held.get(r);
        if (pending !== undefined) {
          yield pending;
          continue;
        }
        const segment = segments[loc.seg[r]];
        const start = loc.offset[r];
        const length = loc.length[r];
        let block = blocks.get(loc.seg[r]);
        if (block === undefined || start < block.start || start + length > block.start + block.bytes.length) {
          const size = Math.min(Math.max(4 << 20, length), Math.max(length, segment.records.bytes - start));
          const bytes = Buffer.allocUnsafe(size);
          const read = size === 0 ? 0 : readSync(segment.fd, bytes, 0, size, start);
          block = { start, bytes: bytes.subarray(0, read) };
          blocks.set(loc.seg[r], block);
        }
        const line = block.bytes.subarray(start - block.start, start - block.start + length);
        yield this.checked(line, { id: ids[r], length, offset: start, crc: loc.crc[r] }, segment, "scan");
      }
    } finally {
      if (--this.scans === 0) this.closeRetired();
    }
  }

  /**
   * Prepares the next generation (synchronously, so it is one consistent state): pending lines and the
   * live lines of segments to rewrite go into one new segment with their vectors; the rows and columns
   * files describe every row. Segments to rewrite: those whose file was deleted by another writer (read
   * through the open descriptor), those with more than `policy.deadShare` dead bytes, and the smallest
   * beyond `policy.maxSegments`; segments without live rows are dropped.
   */
  planFlush(matrix: VectorMatrix, policy: CompactionPolicy): FlushPlan {
    const n = this.size;
    const live = new Float64Array(this.segments.length);
    const liveRows = new Uint32Array(this.segments.length);
    for (let r = 0; r < n; r++) {
      const s = this.cols.seg[r];
      if (s === PENDING) continue;
      live[s] += this.cols.length[r] + 1;
      liveRows[s]++;
    }
    const rewrite = new Set<number>();
    const keep: number[] = [];
    this.segments.forEach((segment, s) => {
      if (liveRows[s] === 0) rewrite.add(s);
      else if (fstatSync(segment.fd).nlink === 0 || segment.records.bytes - live[s] > policy.deadShare * segment.records.bytes) rewrite.add(s);
      else keep.push(s);
    });
    keep.sort((a, b) => live[b] - live[a]);
    while (keep.length >= policy.maxSegments) rewrite.add(keep.pop() as number);
    keep.sort((a, b) => a - b);
    const remap = new Int32Array(this.segments.length).fill(-1);
    keep.forEach((s, i) => (remap[s] = i));
    const written: FlushPlan["written"] = [];
    const lines: Buffer[] = [];
    const crcs: number[] = [];
    const next = new RowColumns(n);
    let at = 0;
    for (let r = 0; r < n; r++) {
      const s = this.cols.seg[r];
      if (s !== PENDING && remap[s] >= 0) {
        next.push(remap[s], this.cols.vindex[r], this.cols.offset[r], this.cols.length[r], this.cols.crc[r]);
        continue;
      }
      const line = this.line(r, "flush");
      const crc = crc32(line);
      written.push({ id: this.ids[r], seg: s, offset: this.cols.offset[r] });
      lines.push(line);
      crcs.push(crc);
      next.push(keep.length, lines.length - 1, at, line.length, crc);
      at += line.length + 1;
    }
    const dropped = [...rewrite].sort((a, b) => a - b);
    const sources = new Map<string, number>();
    const sourceIndex = new Uint32Array(n);
    this.sources.forEach((s, r) => {
      if (!sources.has(s)) sources.set(s, sources.size);
      sourceIndex[r] = sources.get(s) as number;
    });
    const plan: FlushPlan = { keep, dropped, written, rows: next.toBytes(sourceIndex), columns: Buffer.from(JSON.stringify({ sources: [...sources.keys()], ids: this.ids }), "utf8"), count: n };
    if (lines.length > 0) plan.segment = packSegment(lines, crcs, written.map((w) => this.rowById.get(w.id) as number), matrix);
    return plan;
  }

  /** Switches to the generation `plan` described once it is durable; `segment` is the new segment (opened), if any. */
  applyFlush(plan: FlushPlan, segment: Segment | undefined): void {
    const remap = new Int32Array(this.segments.length).fill(-1);
    plan.keep.forEach((s, i) => (remap[s] = i));
    for (let r = 0; r < this.size; r++) {
      const s = this.cols.seg[r];
      if (s !== PENDING && remap[s] >= 0) this.cols.seg[r] = remap[s];
    }
    const p = plan.segment;
    if (segment !== undefined && p !== undefined) {
      plan.written.forEach((w, i) => {
        const row = this.rowById.get(w.id);
        // Rows changed since the plan (replaced: pending again) keep their newer line.
        if (row === undefined || this.cols.seg[row] !== w.seg || this.cols.offset[row] !== w.offset) return;
        if (w.seg === PENDING) this.pending.delete(w.offset);
        this.cols.set(row, plan.keep.length, i, p.offsets[i], p.lengths[i], p.crcs[i]);
      });
    }
    const old = this.segments;
    this.segments = plan.keep.map((s) => old[s]);
    if (segment !== undefined) this.segments.push(segment);
    for (const s of plan.dropped) this.retire(old[s].fd);
  }

  /** Closes every segment descriptor and forgets the rows. */
  clear(): void {
    for (const s of this.segments) this.retire(s.fd);
    this.segments = [];
    this.ids = [];
    this.sources = [];
    this.cols = new RowColumns();
    this.rowById = new RowIndex(this.ids);
    this.sourceCounts = new Map();
    this.pending = new Map();
    this.paths = new Map();
  }

  /**
   * `line` when it has the expected length and CRC-32.
   * @throws HierdocError E_INDEX_CORRUPT naming the segment's records file and the record otherwise.
   */
  private checked(line: Buffer, expected: { id: string; length: number; offset: number; crc: number }, segment: Segment, operation: string): Buffer {
    if (line.length !== expected.length || crc32(line) !== expected.crc) {
      const where = `record ${expected.id} (${expected.length} bytes at byte ${expected.offset})`;
      throw corrupt(this.dir, segment.records.name, `${where} does not match its crc32`, undefined, operation);
    }
    return line;
  }

  private dropPending(row: number): void {
    if (this.cols.seg[row] === PENDING) this.pending.delete(this.cols.offset[row]);
  }

  private retire(fd: number): void {
    if (this.scans > 0) this.retired.push(fd);
    else closeSync(fd);
  }

  private closeRetired(): void {
    for (const fd of this.retired.splice(0)) closeSync(fd);
  }

  private path(source: string): string {
    const known = this.paths.get(source);
    if (known !== undefined) return known;
    this.paths.set(source, source);
    return source;
  }

  private count(source: string, delta: number): void {
    const n = (this.sourceCounts.get(source) ?? 0) + delta;
    if (n > 0) this.sourceCounts.set(source, n);
    else this.sourceCounts.delete(source);
  }
}

/** The new segment's bytes: lines joined by newlines (with offsets, lengths and the lines' CRC-32s `crcs`) and the rows' vectors. */
function packSegment(lines: Buffer[], crcs: number[], rows: number[], matrix: VectorMatrix): NonNullable<FlushPlan["segment"]> {
  const offsets = new Float64Array(lines.length);
  const lengths = new Uint32Array(lines.length);
  let total = 0;
  for (const line of lines) total += line.length + 1;
  const records = Buffer.allocUnsafe(total);
  let at = 0;
  lines.forEach((line, i) => {
    offsets[i] = at;
    lengths[i] = line.length;
    records.set(line, at);
    at += line.length;
    records[at++] = 0x0a;
  });
  const d = matrix.dimensions;
  const vectors = new Float32Array(lines.length * d);
  rows.forEach((row, i) => vectors.set(matrix.view(row), i * d));
  return { records, offsets, lengths, crcs: Uint32Array.from(crcs), vectors };
}
