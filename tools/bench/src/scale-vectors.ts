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
  return (v) => {
    const out = new Float32Array(to);
    for (let i = 0; i < from; i++) {
      const x = v[i];
      if (x === 0) continue;
      const row = i * to;
      for (let j = 0; j < to; j++) out[j] += x * m[row + j];
    }
    return unit(out);
  };
}

/**
 * Record `i` of a scaled pool made from `base` (real records with their real vectors): copy 0 is the record
 * itself, copy k > 0 gets a distinct id (`id#rK`) and source path (`rK/path`) and its vector plus Gaussian
 * noise of total norm ≈ `noise` (unit vectors, so cosine ≈ 1 − noise²/2 to the original); then the vector
 * is projected to the target dimensions. Deterministic in `i` (noise seeded by `seed + i`).
 */
export function scaleRecord(base: readonly StoreRecord[], i: number, project: (v: Float32Array) => Float32Array, noise = 0.25, seed = 16): StoreRecord {
  const k = Math.floor(i / base.length);
  const src = base[i % base.length];
  const v = unit(Float32Array.from(src.vector));
  if (k > 0) {
    const g = gaussian(seed + i);
    const sigma = noise / Math.sqrt(v.length);
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
