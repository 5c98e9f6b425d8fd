import type { ChunkRecord } from "../document.js";
import type { StoreRecord } from "../interfaces.js";
import { makeRecord } from "./fixtures.js";

/**
 * A full chunk record (nested definitions and references, non-ASCII text) built on the core fixture, with
 * the given id, source and content, section "Article 17" and a context of its own. The chunk index is the
 * number after the id's last `_` (0 when there is none).
 */
export function chunkRecordFor(id: string, sourcePath: string, content: string): ChunkRecord {
  return makeRecord(Number(id.split("_").pop()) || 0, {
    id,
    sourcePath,
    content,
    start: 0,
    end: content.length,
    sectionId: "Article 17",
    sectionTitle: "Right to erasure (‘right to be forgotten’)",
    context: `Context for ${id}`,
    indexedText: `Context for ${id}\n\n${content}`,
  });
}

/** A unit vector along `axis` with a small deterministic tilt, so nearest-neighbour order is known. */
export function axisVector(dimensions: number, axis: number, tilt = 0): Float32Array {
  const v = new Float32Array(dimensions);
  v[axis % dimensions] = 1;
  v[(axis + 1) % dimensions] = tilt;
  return v;
}

/** A deterministic pseudo-random vector (mulberry32 seeded by `seed`), components in [-0.5, 0.5), not normalised. */
export function randomVector(dimensions: number, seed: number): Float32Array {
  let a = seed >>> 0;
  const v = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    v[i] = ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  }
  return v;
}

/**
 * `n` store records `doc{i % sources}.md_chunk_{i}` (built by {@link chunkRecordFor}) spread over `sources`
 * source paths, with {@link randomVector} vectors seeded `i + 1`.
 */
export function paragraphRecords(n: number, dimensions: number, sources = 3): StoreRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    record: chunkRecordFor(`doc${i % sources}.md_chunk_${i}`, `doc${i % sources}.md`, `Paragraph ${i} about erasure and consent.`),
    vector: randomVector(dimensions, i + 1),
  }));
}
