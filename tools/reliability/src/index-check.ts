import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChunkRecord } from "@hierdoc/core";
import { Bm25Index } from "@hierdoc/keyword-search";
import { MemoryStore } from "@hierdoc/store-adapters-memory";

/** What {@link checkIndexFolder} found in an index folder written by `hierdoc ingest` (memory store). */
export interface IndexCheck {
  /** Chunks in the store. */
  chunks: number;
  /** Source files in the store. */
  files: number;
  /** Problems found; empty when the index is consistent. */
  problems: string[];
  /** Records by id (for further checks). */
  records: Map<string, ChunkRecord>;
  /** Whether a persisted keyword index exists and matches the store exactly. */
  keywordMatches: boolean | null;
}

/** Options of {@link checkIndexFolder}. */
export interface IndexCheckOptions {
  /** When given, every stored source must be one of these files, with this content hash (sha256 hex). */
  expectedFiles?: Map<string, string>;
  /** Require the persisted keyword index to hold exactly the stored chunk ids. */
  requireKeyword?: boolean;
}

/**
 * Opens an index folder's memory store directly (no CLI) and checks it: it opens at all (no torn
 * snapshot), no duplicate ids, every source's chunk count equals its records' `fileChunkCount` and
 * chunk indexes are 0…n-1, every chunk belongs to an expected file with its current hash, and the
 * persisted BM25 index (when present) holds exactly the stored ids.
 * @throws whatever the store throws when the folder cannot be opened (that is a failed check).
 */
export async function checkIndexFolder(indexDir: string, options: IndexCheckOptions = {}): Promise<IndexCheck> {
  // The store's own manifest names the embedder; with no store manifest yet (killed before the first
  // flush) the folder is an empty index.
  const storeManifest = join(indexDir, "store", "manifest.json");
  if (!existsSync(storeManifest)) return { chunks: 0, files: 0, problems: [], records: new Map(), keywordMatches: null };
  const manifest = JSON.parse(readFileSync(storeManifest, "utf8")) as { embedderId: string; dimensions: number };
  const store = new MemoryStore({ dir: join(indexDir, "store") });
  await store.open({ embedderId: manifest.embedderId, dimensions: manifest.dimensions });
  const problems: string[] = [];
  const records = new Map<string, ChunkRecord>();
  try {
    for await (const r of store.scan()) {
      if (records.has(r.id)) problems.push(`duplicate chunk id ${r.id}`);
      records.set(r.id, r);
    }
    const count = await store.count();
    if (count !== records.size) problems.push(`store count ${count} but scan returned ${records.size}`);
  } finally {
    await store.close();
  }
  const bySource = new Map<string, ChunkRecord[]>();
  for (const r of records.values()) bySource.set(r.sourcePath, [...(bySource.get(r.sourcePath) ?? []), r]);
  for (const [source, list] of bySource) {
    const expectedCount = list[0].fileChunkCount;
    if (list.some((r) => r.fileChunkCount !== expectedCount)) problems.push(`${source}: records disagree on fileChunkCount`);
    if (list.length !== expectedCount) problems.push(`${source}: ${list.length} chunks stored, fileChunkCount says ${expectedCount}`);
    const indexes = list.map((r) => r.chunkIndex).sort((a, b) => a - b);
    if (indexes.some((v, i) => v !== i)) problems.push(`${source}: chunk indexes are not 0…${list.length - 1}`);
    if (new Set(list.map((r) => r.fileHash)).size !== 1) problems.push(`${source}: chunks from different versions of the file`);
    if (options.expectedFiles) {
      const hash = options.expectedFiles.get(source);
      if (hash === undefined) problems.push(`${source}: orphan (not in the corpus)`);
      else if (list[0].fileHash !== hash) problems.push(`${source}: stored hash ${list[0].fileHash.slice(0, 12)} is not the file's ${hash.slice(0, 12)}`);
    }
  }
  if (options.expectedFiles) {
    for (const f of options.expectedFiles.keys()) if (!bySource.has(f)) problems.push(`${f}: in the corpus but not in the store`);
  }
  let keywordMatches: boolean | null = null;
  const keywordDir = join(indexDir, "keyword");
  if (existsSync(join(keywordDir, "bm25.bin"))) {
    const bm25 = await Bm25Index.load(keywordDir);
    keywordMatches = !!bm25 && bm25.documentCount === records.size && [...records.keys()].every((id) => bm25.has(id));
  }
  if (options.requireKeyword && keywordMatches !== true) problems.push(`keyword index does not hold exactly the ${records.size} stored chunks`);
  return { chunks: records.size, files: bySource.size, problems, records, keywordMatches };
}

/** sha256 hex of a file's bytes (the hash the ingest stores per file). */
export function fileHash(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}
