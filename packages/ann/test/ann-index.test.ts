import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnnIndex } from "@hierdoc/ann";
import { HierdocError } from "@hierdoc/core";

/** Deterministic pseudo-random unit vectors (mulberry32). */
function vectors(n: number, d: number, seed = 7): Float32Array {
  let s = seed >>> 0;
  const rand = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  const out = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    let norm = 0;
    for (let j = 0; j < d; j++) norm += (out[i * d + j] = rand()) ** 2;
    for (let j = 0; j < d; j++) out[i * d + j] /= Math.sqrt(norm);
  }
  return out;
}

function exactTop(data: Float32Array, d: number, q: Float32Array, k: number, skip = new Set<number>()): number[] {
  const scores: Array<[number, number]> = [];
  for (let i = 0; i < data.length / d; i++) {
    if (skip.has(i)) continue;
    let s = 0;
    for (let j = 0; j < d; j++) s += data[i * d + j] * q[j];
    scores.push([i, s]);
  }
  return scores.sort((a, b) => b[1] - a[1]).slice(0, k).map(([i]) => i);
}

describe("AnnIndex (usearch HNSW)", () => {
  const d = 32;
  const n = 3000;
  const data = vectors(n, d);
  const queries = vectors(50, d, 99);
  const row = (i: number): Float32Array => data.subarray(i * d, i * d + d);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hierdoc-ann-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function recall(index: AnnIndex, skip = new Set<number>()): number {
    let hit = 0;
    for (let q = 0; q < 50; q++) {
      const query = queries.subarray(q * d, q * d + d);
      const truth = new Set(exactTop(data, d, query, 10, skip));
      for (const h of index.search(query, 10)) if (truth.has(h.key)) hit++;
    }
    return hit / 500;
  }

  it("finds the exact top-10 for most queries (recall@10 ≥ 0.95) and reports cosine distances", () => {
    const index = AnnIndex.create({ dimensions: d, threads: 1 });
    index.addBatch(Array.from({ length: n }, (_, i) => i), data);
    expect(index.size).toBe(n);
    expect(recall(index)).toBeGreaterThanOrEqual(0.95);
    const self = index.search(row(5), 1)[0];
    expect(self.key).toBe(5);
    expect(self.distance).toBeCloseTo(0, 4);
  });

  it("holds i8 vectors in a quarter of the bytes and, re-scored exactly, keeps the exact top-10 (recall@10 ≥ 0.95)", () => {
    const keys = Array.from({ length: n }, (_, i) => i);
    const files: Record<string, number> = {};
    let hit = 0;
    for (const quantization of ["f32", "i8"] as const) {
      const index = AnnIndex.create({ dimensions: d, quantization, threads: 1 });
      index.addBatch(keys, data);
      index.save(join(dir, `${quantization}-size.usearch`));
      files[quantization] = readFileSync(join(dir, `${quantization}-size.usearch`)).length;
      if (quantization !== "i8") continue;
      // The stores re-score the graph's candidates against their exact vectors: only the candidate set matters.
      for (let q = 0; q < 50; q++) {
        const query = queries.subarray(q * d, q * d + d);
        const candidates = index.search(query, 40).map((h) => h.key);
        const rescored = candidates.map((k) => [k, row(k).reduce((s, x, j) => s + x * query[j], 0)] as const).sort((a, b) => b[1] - a[1]);
        const truth = new Set(exactTop(data, d, query, 10));
        for (const [k] of rescored.slice(0, 10)) if (truth.has(k)) hit++;
      }
    }
    // 3 of the 4 bytes per component are saved; the links are the same size.
    expect(files.f32 - files.i8).toBeGreaterThan(2.5 * n * d);
    expect(hit / 500).toBeGreaterThanOrEqual(0.95);
  });

  it("replaces a key's vector on add and forgets removed keys", () => {
    const index = AnnIndex.create({ dimensions: d });
    for (let i = 0; i < 200; i++) index.add(i, row(i));
    index.add(3, row(500));
    expect(index.size).toBe(200);
    expect(index.search(row(500), 1)[0].key).toBe(3);
    expect(index.remove(7)).toBe(true);
    expect(index.remove(7)).toBe(false);
    expect(index.has(7)).toBe(false);
    expect(index.size).toBe(199);
    expect(index.search(row(7), 10).map((h) => h.key)).not.toContain(7);
  });

  it("keeps recall after deleting a third of the vectors", () => {
    const index = AnnIndex.create({ dimensions: d, threads: 1 });
    index.addBatch(Array.from({ length: n }, (_, i) => i), data);
    const removed = new Set<number>();
    for (let i = 0; i < n; i += 3) {
      index.remove(i);
      removed.add(i);
    }
    expect(index.size).toBe(n - removed.size);
    expect(recall(index, removed)).toBeGreaterThanOrEqual(0.95);
  });

  it("saves and loads the same graph (same answers), with f16 and i8 vectors too", () => {
    for (const quantization of ["f32", "f16", "i8"] as const) {
      const index = AnnIndex.create({ dimensions: d, quantization, threads: 1 });
      index.addBatch(Array.from({ length: 1000 }, (_, i) => i), data.subarray(0, 1000 * d));
      const file = join(dir, `${quantization}.usearch`);
      index.save(file);
      const loaded = AnnIndex.load(file, { dimensions: d, quantization });
      expect(loaded.size).toBe(1000);
      const q = queries.subarray(0, d);
      expect(loaded.search(q, 10).map((h) => h.key)).toEqual(index.search(q, 10).map((h) => h.key));
    }
  });

  it("views a saved graph (memory-mapped) with the loaded graph's answers, and loads it on the first change", () => {
    for (const quantization of ["f32", "f16"] as const) {
      const index = AnnIndex.create({ dimensions: d, quantization, threads: 1 });
      index.addBatch(Array.from({ length: 1000 }, (_, i) => i), data.subarray(0, 1000 * d));
      const file = join(dir, `${quantization}-view.usearch`);
      index.save(file);
      const loaded = AnnIndex.load(file, { dimensions: d, quantization });
      const viewed = AnnIndex.view(file, { dimensions: d, quantization });
      expect(viewed.viewed).toBe(true);
      expect(loaded.viewed).toBe(false);
      expect(viewed.size).toBe(1000);
      expect(viewed.has(999)).toBe(true);
      for (let q = 0; q < 20; q++) {
        const query = queries.subarray(q * d, q * d + d);
        expect(viewed.search(query, 10)).toEqual(loaded.search(query, 10));
      }
      // A change switches to an in-memory copy; the file itself is left as it was.
      const before = readFileSync(file);
      viewed.add(1000, row(1000));
      expect(viewed.viewed).toBe(false);
      expect(viewed.remove(3)).toBe(true);
      expect(viewed.size).toBe(1000);
      expect(viewed.search(row(1000), 1)[0].key).toBe(1000);
      expect(viewed.search(row(3), 10).map((h) => h.key)).not.toContain(3);
      expect(readFileSync(file).equals(before)).toBe(true);
    }
  });

  it("names the file when a viewed graph cannot be mapped or can no longer be loaded for a change", () => {
    const bad = join(dir, "bad-view.usearch");
    writeFileSync(bad, Buffer.alloc(100));
    expect(() => AnnIndex.view(bad, { dimensions: d })).toThrow(expect.objectContaining({ code: "E_INDEX_CORRUPT", message: expect.stringContaining("bad-view.usearch") }));
    const index = AnnIndex.create({ dimensions: d, threads: 1 });
    index.addBatch([0, 1, 2], data.subarray(0, 3 * d));
    const file = join(dir, "gone.usearch");
    index.save(file);
    const viewed = AnnIndex.view(file, { dimensions: d });
    rmSync(file);
    // The mapping outlives the unlinked file for searches; a change needs the file and says so.
    expect(viewed.search(row(1), 1)[0].key).toBe(1);
    expect(() => viewed.add(5, row(5))).toThrow(expect.objectContaining({ code: "E_INDEX_CORRUPT", message: expect.stringContaining("gone.usearch") }));
  });

  it("rejects a damaged file, a file of other dimensions, wrong vector lengths and bad settings with typed errors", () => {
    const bad = join(dir, "bad.usearch");
    writeFileSync(bad, Buffer.alloc(100));
    expect(() => AnnIndex.load(bad, { dimensions: d })).toThrow(expect.objectContaining({ code: "E_INDEX_CORRUPT" }));
    const whole = AnnIndex.create({ dimensions: d });
    for (let i = 0; i < 100; i++) whole.add(i, row(i));
    whole.save(join(dir, "whole.usearch"));
    const bytes = readFileSync(join(dir, "whole.usearch"));
    writeFileSync(join(dir, "cut.usearch"), bytes.subarray(0, bytes.length >> 1));
    expect(() => AnnIndex.load(join(dir, "cut.usearch"), { dimensions: d })).toThrow(/cut.usearch cannot be read/);
    const other = AnnIndex.create({ dimensions: 8 });
    other.add(1, new Float32Array(8).fill(1));
    other.save(join(dir, "d8.usearch"));
    expect(() => AnnIndex.load(join(dir, "d8.usearch"), { dimensions: d })).toThrow(/8-dimension vectors, expected 32/);
    const index = AnnIndex.create({ dimensions: d });
    expect(() => index.add(1, new Float32Array(3))).toThrow(expect.objectContaining({ code: "E_DIMENSION_MISMATCH" }));
    expect(() => AnnIndex.create({ dimensions: d, connectivity: 0 })).toThrow(HierdocError);
    expect(() => AnnIndex.create({ dimensions: d, quantization: "u8" as never })).toThrow(/f32, f16, bf16 or i8, got u8/);
  });
});
