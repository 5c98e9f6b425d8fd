import type { ChunkRecord } from "../document.js";
import type { StoreRecord } from "../interfaces.js";

/** Default vector size of the conformance fixtures. */
export const FIXTURE_DIMENSIONS = 16;

/** Embedder id the conformance suite opens stores with. */
export const FIXTURE_EMBEDDER_ID = "conformance/hash-embedder@1";

function hashSeed(seed: string | number): number {
  const s = String(seed);
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** A small deterministic PRNG (mulberry32) returning floats in [0, 1). */
export function seededRandom(seed: string | number): () => number {
  let a = hashSeed(seed);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Returns `v` scaled to unit length (a zero vector stays zero). */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  const n = Math.sqrt(sum);
  const out = new Float32Array(v.length);
  if (n > 0) for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}

/** Cosine similarity of two vectors of the same length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** A deterministic L2-normalised vector for `seed` (same seed and size → same vector). */
export function makeVector(seed: string | number, dimensions = FIXTURE_DIMENSIONS): Float32Array {
  const rnd = seededRandom(`vec:${seed}`);
  const v = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) v[i] = rnd() * 2 - 1;
  return normalize(v);
}

/**
 * A unit vector whose cosine similarity with `target` is exactly `similarity` (up to float rounding):
 * `similarity·t + sqrt(1-similarity²)·r⊥`, where r⊥ is a seeded direction orthogonal to `target`.
 * Use to build search fixtures with a known ranking.
 */
export function vectorWithSimilarity(target: Float32Array, similarity: number, seed: string | number): Float32Array {
  const t = normalize(target);
  const r = makeVector(`orth:${seed}`, t.length);
  let dot = 0;
  for (let i = 0; i < t.length; i++) dot += r[i] * t[i];
  const orth = new Float32Array(t.length);
  for (let i = 0; i < t.length; i++) orth[i] = r[i] - dot * t[i];
  const o = normalize(orth);
  const s = Math.sqrt(Math.max(0, 1 - similarity * similarity));
  const out = new Float32Array(t.length);
  for (let i = 0; i < t.length; i++) out[i] = similarity * t[i] + s * o[i];
  return normalize(out);
}

/**
 * A complete, deterministic {@link ChunkRecord}: id `{sourcePath}_chunk_{index}`, content mentioning the
 * index, one definition and two cross-references (one unresolved, with `null`), so round-trips through a
 * store exercise nested objects, nulls and non-ASCII text.
 */
export function makeRecord(index: number, overrides: Partial<ChunkRecord> = {}): ChunkRecord {
  const sourcePath = overrides.sourcePath ?? "docs/alpha.md";
  const id = overrides.id ?? `${sourcePath}_chunk_${index}`;
  const content = overrides.content ?? `Section ${index}. Rule number ${index} applies to the operator — naïve café §${index}.`;
  const context = overrides.context ?? `Part of Chapter ${Math.floor(index / 10) + 1}`;
  return {
    id,
    sourcePath,
    chunkIndex: index,
    content,
    start: index * 100,
    end: index * 100 + content.length,
    sectionId: `Section ${index}`,
    sectionTitle: `Rule ${index}`,
    parentChain: ["Title I", `Chapter ${Math.floor(index / 10) + 1}`],
    chunkType: "content",
    tokens: 12 + (index % 7),
    unitIds: [`${index}(a)`, `${index}(b)`],
    context,
    indexedText: context ? `${context}\n\n${content}` : content,
    fileHash: `sha256:${sourcePath.length}${index}`,
    fileChunkCount: index + 1,
    fileType: "markdown",
    sectionAliases: [`Sec. ${index}`, `§ ${index}`],
    definitions: [
      {
        id: `${id}_def_0`,
        term: `term ${index}`,
        termNormalized: `term ${index}`,
        definitionText: `"Term ${index}" means the thing numbered ${index}.`,
        sourcePath,
        sourceSection: `Section ${index}`,
        chunkId: id,
      },
    ],
    crossReferences: [
      { text: `Section ${index + 1}`, fromSectionId: `Section ${index}`, targetSectionId: `Section ${index + 1}`, targetChunkId: null, external: false },
      { text: "RFC 9110", fromSectionId: `Section ${index}`, targetSectionId: null, external: true, citedDocument: "RFC 9110" },
    ],
    ...overrides,
  };
}

/** A {@link StoreRecord}: {@link makeRecord} plus a deterministic vector seeded by the record id. */
export function makeStoreRecord(
  index: number,
  options: { dimensions?: number; vector?: Float32Array; record?: Partial<ChunkRecord> } = {},
): StoreRecord {
  const record = makeRecord(index, options.record);
  return { record, vector: options.vector ?? makeVector(record.id, options.dimensions ?? FIXTURE_DIMENSIONS) };
}

/** `count` store records with indexes `0..count-1`, cycling through `sourcePaths`. */
export function makeStoreRecords(
  count: number,
  options: { dimensions?: number; sourcePaths?: string[] } = {},
): StoreRecord[] {
  const paths = options.sourcePaths ?? ["docs/alpha.md", "docs/beta.md"];
  return Array.from({ length: count }, (_, i) =>
    makeStoreRecord(i, { dimensions: options.dimensions, record: { sourcePath: paths[i % paths.length] } }),
  );
}
