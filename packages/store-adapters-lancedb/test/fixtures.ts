import type { ChunkRecord, StoreRecord } from "@hierdoc/core";

/** A full chunk record with every field set (nested definitions and references included). */
export function record(id: string, sourcePath: string, content: string): ChunkRecord {
  return {
    id,
    sourcePath,
    chunkIndex: Number(id.split("_").pop()) || 0,
    content,
    start: 10,
    end: 10 + content.length,
    sectionId: "Article 17",
    sectionTitle: "Right to erasure (‘right to be forgotten’)",
    parentChain: ["Chapter III", "Section 3"],
    chunkType: "requirement",
    tokens: content.split(/\s+/).length,
    unitIds: ["17(1)", "17(1)(a)"],
    context: `Context for ${id}`,
    indexedText: `Context for ${id}\n\n${content}`,
    fileHash: "sha256:abc",
    fileType: "markdown",
    sectionAliases: ["Art. 17"],
    definitions: [
      { id: `${id}#d`, term: "erasure", termNormalized: "erasure", definitionText: "“erasure” means…", sourcePath, sourceSection: "Article 4", chunkId: id },
    ],
    crossReferences: [{ text: "Article 6(1)", fromSectionId: "Article 17", targetSectionId: "Article 6", targetChunkId: null, external: false }],
  };
}

/** A unit vector along `axis` with a small deterministic tilt, so nearest-neighbour order is known. */
export function axisVector(dimensions: number, axis: number, tilt = 0): Float32Array {
  const v = new Float32Array(dimensions);
  v[axis % dimensions] = 1;
  v[(axis + 1) % dimensions] = tilt;
  return v;
}

/** Deterministic pseudo-random vector (mulberry32). */
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

/** `n` store records spread over `sources` source paths. */
export function records(n: number, dimensions: number, sources = 3): StoreRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    record: record(`doc${i % sources}.md_chunk_${i}`, `doc${i % sources}.md`, `Paragraph ${i} about erasure and consent.`),
    vector: randomVector(dimensions, i + 1),
  }));
}
