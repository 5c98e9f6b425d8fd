import { HierdocError } from "@hierdoc/core";
import { TopK } from "./top-k.js";

/**
 * Row-major contiguous Float32 storage for fixed-size vectors, grown by doubling, with swap-remove
 * deletes and brute-force dot-product top-k search.
 *
 * Use as the dense index of an in-process store. Rows are L2-normalised on write, so the dot product is
 * the cosine similarity.
 */
export class VectorMatrix {
  private data: Float32Array;
  private rows = 0;

  /** @param dimensions length of every vector; @param capacity initial rows reserved. */
  constructor(
    readonly dimensions: number,
    capacity = 1024,
  ) {
    this.data = new Float32Array(Math.max(1, capacity) * dimensions);
  }

  /** Number of rows stored. */
  get length(): number {
    return this.rows;
  }

  /** Replaces the whole contents with `rows` rows taken from `values` (already normalised). */
  load(values: Float32Array, rows: number): void {
    const capacity = Math.max(1024, rows);
    this.data = new Float32Array(capacity * this.dimensions);
    this.data.set(values.subarray(0, rows * this.dimensions));
    this.rows = rows;
  }

  /**
   * Replaces the whole contents with the `rows` rows of `values` (already normalised, exactly
   * `rows * dimensions` floats), taking ownership of the array instead of copying it: the caller must not
   * use `values` afterwards.
   * @throws HierdocError E_INVALID_ARGUMENT when `values` does not hold exactly `rows` rows.
   */
  adopt(values: Float32Array, rows: number): void {
    if (!Number.isInteger(rows) || rows < 0 || values.length !== rows * this.dimensions) {
      throw new HierdocError("E_INVALID_ARGUMENT", `expected ${rows} rows of ${this.dimensions} floats, got ${values.length} floats`);
    }
    this.data = values;
    this.rows = rows;
  }

  /** Appends a row (normalised copy of `vector`) and returns its row index. */
  append(vector: Float32Array): number {
    if ((this.rows + 1) * this.dimensions > this.data.length) {
      const next = new Float32Array(Math.max(this.data.length * 2, 1024 * this.dimensions));
      next.set(this.data);
      this.data = next;
    }
    this.write(this.rows, vector);
    return this.rows++;
  }

  /** Overwrites row `row` with a normalised copy of `vector`. */
  write(row: number, vector: Float32Array): void {
    const d = this.dimensions;
    const norm = vectorNorm(vector);
    const inv = norm > 0 ? 1 / norm : 0;
    const off = row * d;
    for (let j = 0; j < d; j++) this.data[off + j] = vector[j] * inv;
  }

  /** Removes row `row` by moving the last row into its place; returns the index of the moved row (or -1). */
  swapRemove(row: number): number {
    const last = this.rows - 1;
    const d = this.dimensions;
    if (row !== last) this.data.copyWithin(row * d, last * d, last * d + d);
    this.rows = last;
    return row !== last ? last : -1;
  }

  /** A copy of row `row`. */
  row(row: number): Float32Array {
    const d = this.dimensions;
    return this.data.slice(row * d, row * d + d);
  }

  /** Row `row` without copying (valid until the next write, append or remove). */
  view(row: number): Float32Array {
    const d = this.dimensions;
    return this.data.subarray(row * d, row * d + d);
  }

  /** All rows, packed, without copying (valid until the next write, append or remove). */
  packedView(): Float32Array {
    return this.data.subarray(0, this.rows * this.dimensions);
  }

  /** Exact scores (dot product with the normalised `query`) of the given rows, in the order given. */
  scoreRows(query: Float32Array, rows: readonly number[]): number[] {
    const q = normalisedQuery(query, this.dimensions);
    return rows.map((row) => dotAt(this.data, row * this.dimensions, q, this.dimensions));
  }

  /** A copy of all rows, packed (`length * dimensions` floats). */
  snapshot(): Float32Array {
    return this.data.slice(0, this.rows * this.dimensions);
  }

  /**
   * The `k` rows with the highest dot product with `query` (normalised here), best first.
   * `accept(row)` restricts the candidates when given.
   */
  search(query: Float32Array, k: number, accept?: (row: number) => boolean): Array<{ index: number; score: number }> {
    const q = normalisedQuery(query, this.dimensions);
    const top = new TopK(k);
    if (accept === undefined) this.scanPairs(q, top);
    else this.scanFiltered(q, top, accept);
    return top.sorted();
  }

  /** Scores every row, two rows per pass so each query component is loaded once for both. */
  private scanPairs(q: Float64Array, top: TopK): void {
    const v = this.data;
    const d = this.dimensions;
    const n = this.rows;
    const d2 = d - (d % 2);
    let i = 0;
    let off = 0;
    for (; i + 1 < n; i += 2, off += 2 * d) {
      const off2 = off + d;
      let a0 = 0;
      let a1 = 0;
      let b0 = 0;
      let b1 = 0;
      let j = 0;
      for (; j < d2; j += 2) {
        const q0 = q[j];
        const q1 = q[j + 1];
        a0 += v[off + j] * q0;
        a1 += v[off + j + 1] * q1;
        b0 += v[off2 + j] * q0;
        b1 += v[off2 + j + 1] * q1;
      }
      if (j < d) {
        a0 += v[off + j] * q[j];
        b0 += v[off2 + j] * q[j];
      }
      const sa = a0 + a1;
      const sb = b0 + b1;
      if (sa > top.threshold) top.push(i, sa);
      if (sb > top.threshold) top.push(i + 1, sb);
    }
    if (i < n) top.push(i, this.dot(q, off));
  }

  /** Scores the rows `accept` lets through. */
  private scanFiltered(q: Float64Array, top: TopK, accept: (row: number) => boolean): void {
    const d = this.dimensions;
    for (let i = 0, off = 0; i < this.rows; i++, off += d) {
      if (!accept(i)) continue;
      const s = this.dot(q, off);
      if (s > top.threshold) top.push(i, s);
    }
  }

  private dot(q: Float64Array, off: number): number {
    return dotAt(this.data, off, q, this.dimensions);
  }
}

/** Something that scores rows exactly against a query: the in-memory matrix, or vectors read from files. */
export interface RowScorer {
  /** Exact scores (dot product with the normalised `query`) of the given rows, in the order given. */
  scoreRows(query: Float32Array, rows: readonly number[]): number[];
}

/** `query` scaled to unit length in float64 (zero stays zero): the query form every exact score uses. */
export function normalisedQuery(query: Float32Array, d: number): Float64Array {
  const norm = vectorNorm(query);
  const q = new Float64Array(d);
  if (norm > 0) for (let j = 0; j < d; j++) q[j] = query[j] / norm;
  return q;
}

/** Dot product of `v[off..off+d)` with `q` (four accumulators: the same arithmetic for every exact score). */
export function dotAt(v: Float32Array, off: number, q: Float64Array, d: number): number {
  const d4 = d - (d % 4);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j < d4; j += 4) {
    const o = off + j;
    s0 += v[o] * q[j];
    s1 += v[o + 1] * q[j + 1];
    s2 += v[o + 2] * q[j + 2];
    s3 += v[o + 3] * q[j + 3];
  }
  for (; j < d; j++) s0 += v[off + j] * q[j];
  return s0 + s1 + s2 + s3;
}

/**
 * Euclidean norm of a vector.
 * @throws HierdocError E_INVALID_ARGUMENT when a component is NaN or infinite.
 */
export function vectorNorm(vector: Float32Array): number {
  let sum = 0;
  for (let j = 0; j < vector.length; j++) sum += vector[j] * vector[j];
  if (!Number.isFinite(sum)) {
    throw new HierdocError("E_INVALID_ARGUMENT", "vector contains NaN or infinite values", {
      details: { adapter: "memory" },
    });
  }
  return Math.sqrt(sum);
}
