// Vectors of the scale benchmark: real records repeated to 100k / 1M chunks need distinct vectors (an
// HNSW graph over exact duplicates measures nothing), and 1,536-d vectors are made from the real 100-d ones.
import type { ChunkRecord, Embedder, StoreRecord } from "@hierdoc/core";

/** A seeded uniform generator in [0, 1) (mulberry32). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded standard normal generator (Box–Muller). */
export function gaussian(seed: number): () => number {
  const u = seeded(seed);
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** `v` scaled to unit length (a zero vector stays zero). */
export function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let i = 0; i < v.length; i++) v[i] *= inv;
  return v;
}

/**
 * A fixed Gaussian random projection from `from` to `to` dimensions (Johnson–Lindenstrauss: cosines of the
 * real vectors are kept up to a small distortion), so 1,536-d vectors carry the real 100-d neighbourhoods.
 */
export function projection(from: number, to: number, seed = 1536): (v: Float32Array) => Float32Array {
  if (to === from) return (v) => v;
  const g = gaussian(seed);
  const m = new Float32Array(from * to);
  for (let i = 0; i < m.length; i++) m[i] = g();
  // Four input components per pass over the output (float64 sums): a 1M × 1,536-d build spent a third of
  // its CPU here with one component per pass.
  const acc = new Float64Array(to);
  return (v) => {
    acc.fill(0);
    let i = 0;
    for (; i + 3 < from; i += 4) {
      const [x0, x1, x2, x3] = [v[i], v[i + 1], v[i + 2], v[i + 3]];
      const r0 = i * to;
      const r1 = r0 + to;
      const r2 = r1 + to;
      const r3 = r2 + to;
      for (let j = 0; j < to; j++) acc[j] += x0 * m[r0 + j] + x1 * m[r1 + j] + x2 * m[r2 + j] + x3 * m[r3 + j];
    }
    for (; i < from; i++) {
      const x = v[i];
      const row = i * to;
      for (let j = 0; j < to; j++) acc[j] += x * m[row + j];
    }
    return unit(Float32Array.from(acc));
  };
}

/**
 * How the copies of a scaled pool differ from their real record. `noise`: norm of the Gaussian noise added
 * to the unit vector; `mix`: weight of another real record's unit vector (chosen per copy) added before the
 * noise, so copies are spread towards unrelated records instead of forming tight clusters.
 */
export interface CopyShape {
  noise: number;
  mix: number;
}

/**
 * The shapes the benchmark has used. `tight` (until 2026-12-03): noise 0.25, no mix, cosine ≈ 0.97 to the
 * source, so each real vector becomes a cluster of near-duplicates (an unrealistically hard and unfair
 * recall test: the exact top 10 are near-ties). `spread`: 0.5 of another real record, then noise 0.5: cosine
 * ≈ 0.88 to the source and ≈ 0.79 between two copies of one record (two random real GloVe chunk vectors:
 * ≈ 0.84), closer to distinct chunks on related topics. The build prints the measured cosine.
 */
export const COPY_SHAPES: Readonly<Record<string, CopyShape>> = Object.freeze({
  tight: { noise: 0.25, mix: 0 },
  spread: { noise: 0.5, mix: 0.5 },
});

/**
 * Record `i` of a scaled pool made from `base` (real records with their real vectors): copy 0 is the record
 * itself, copy k > 0 gets a distinct id (`id#rK`) and source path (`rK/path`) and its vector changed by
 * `shape` (see {@link CopyShape}); then the vector is projected to the target dimensions. Deterministic in
 * `i` (noise and the mixed record seeded by `seed + i`).
 */
export function scaleRecord(base: readonly StoreRecord[], i: number, project: (v: Float32Array) => Float32Array, shape: CopyShape = COPY_SHAPES.tight, seed = 16): StoreRecord {
  const k = Math.floor(i / base.length);
  const src = base[i % base.length];
  const v = unit(Float32Array.from(src.vector));
  if (k > 0) {
    const g = gaussian(seed + i);
    if (shape.mix > 0) {
      const other = unit(Float32Array.from(base[Math.floor(seeded(seed + i)() * base.length)].vector));
      for (let j = 0; j < v.length; j++) v[j] += shape.mix * other[j];
      unit(v);
    }
    const sigma = shape.noise / Math.sqrt(v.length);
    for (let j = 0; j < v.length; j++) v[j] += sigma * g();
  }
  const record: ChunkRecord = k === 0 ? src.record : { ...src.record, id: `${src.record.id}#r${k}`, sourcePath: `r${k}/${src.record.sourcePath}` };
  return { record, vector: project(unit(v)) };
}

/** An embedder whose vectors are another's, projected (the query side of {@link scaleRecords}). */
export function projectedEmbedder(inner: Embedder, dimensions: number): Embedder {
  if (dimensions === inner.dimensions) return inner;
  const project = projection(inner.dimensions, dimensions);
  return {
    id: `${inner.id}+projected-${dimensions}@bench`,
    dimensions,
    embedDocuments: async (texts) => (await inner.embedDocuments(texts)).map(project),
    embedQuery: async (text) => project(await inner.embedQuery(text)),
  };
}
