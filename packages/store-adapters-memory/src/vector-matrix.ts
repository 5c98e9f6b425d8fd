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

  /** Appends a row (normalised copy of `vector`) and returns its row index. */
  append(vector: Float32Array): number {
    if ((this.rows + 1) * this.dimensions > this.data.length) {
      const next = new Float32Array(this.data.length * 2);
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

  /** A copy of all rows, packed (`length * dimensions` floats). */
  snapshot(): Float32Array {
    return this.data.slice(0, this.rows * this.dimensions);
  }

  /**
   * The `k` rows with the highest dot product with `query` (normalised here), best first.
   * `accept(row)` restricts the candidates when given.
   */
  search(query: Float32Array, k: number, accept?: (row: number) => boolean): Array<{ index: number; score: number }> {
    const d = this.dimensions;
    const norm = vectorNorm(query);
    const q = new Float64Array(d);
    if (norm > 0) for (let j = 0; j < d; j++) q[j] = query[j] / norm;
    const top = new TopK(k);
    const v = this.data;
    const n = this.rows;
    const d4 = d - (d % 4);
    for (let i = 0, off = 0; i < n; i++, off += d) {
      if (accept !== undefined && !accept(i)) continue;
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
      const s = s0 + s1 + s2 + s3;
      if (s > top.threshold) top.push(i, s);
    }
    return top.sorted();
  }
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
