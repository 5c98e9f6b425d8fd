import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChunkRecord, Embedder, StoreRecord, ToolConfig } from "@hierdoc/core";
import { ToolConfigSchema } from "@hierdoc/core";
import { cacheDirOf } from "@hierdoc/runtime";
import { createEmbedder } from "@hierdoc/embeddings";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import type { PoolChunk } from "./peers.js";

/** The index manifest file of a hierdoc index folder. */
export const MANIFEST_FILE = "hierdoc.json";

/** The environment lookup the runtime expects. */
export const env = (name: string): string | undefined => process.env[name];

/** The tool config recorded in an index folder's manifest. */
export function manifestConfig(indexDir: string): ToolConfig {
  const raw = JSON.parse(readFileSync(join(indexDir, MANIFEST_FILE), "utf8")) as { config?: unknown };
  return ToolConfigSchema.parse(raw.config ?? { name: "default", type: "hierarchical_document", source: "." });
}

/** Copies the manifest (config) of one index folder to another, so the CLI can open the copy. */
export function copyManifest(fromDir: string, toDir: string): void {
  if (existsSync(join(fromDir, MANIFEST_FILE))) copyFileSync(join(fromDir, MANIFEST_FILE), join(toDir, MANIFEST_FILE));
}

/** The GloVe embedder as the CLI creates it (binary cache under HIERDOC_CACHE_DIR / ~/.cache/hierdoc). */
export async function loadEmbedder(config: ToolConfig): Promise<Embedder> {
  return createEmbedder(config.embedding, { cacheDir: cacheDirOf(env) });
}

/** Every record of a persisted memory-store index with its vector, in store order. */
export async function readIndexRecords(indexDir: string, embedder: Embedder): Promise<StoreRecord[]> {
  const store = new MemoryStore({ dir: join(indexDir, "store") });
  await store.open({ embedderId: embedder.id, dimensions: embedder.dimensions });
  const ids: string[] = [];
  for await (const r of store.scan()) ids.push(r.id);
  const out = await store.getWithVectors(ids);
  await store.close();
  return out;
}

/**
 * `size` records made from `base`, repeated with distinct ids (`id#rK`) and source paths (`rK/path`) for
 * every round after the first.
 */
export function replicate(base: readonly StoreRecord[], size: number): StoreRecord[] {
  const out: StoreRecord[] = [];
  for (let i = 0; i < size; i++) {
    const k = Math.floor(i / base.length);
    const src = base[i % base.length];
    if (k === 0) out.push(src);
    else {
      const record: ChunkRecord = { ...src.record, id: `${src.record.id}#r${k}`, sourcePath: `r${k}/${src.record.sourcePath}` };
      out.push({ record, vector: src.vector });
    }
  }
  return out;
}

/** Pool chunks (id, indexed text, vector) for the peers. */
export function toPoolChunks(records: readonly StoreRecord[]): PoolChunk[] {
  return records.map((r) => ({ id: r.record.id, text: r.record.indexedText, vector: r.vector }));
}

/** Queries (`{"id","query"}` JSON lines) from a file. */
export function readQueries(path: string): Array<{ id: string; query: string }> {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { id: string; query: string });
}

/** Peak resident set size of this process so far, in MB (process.resourceUsage().maxRSS is in KiB). */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/**
 * Resident memory now, in MB, split as Linux counts it (`/proc/self/status`): `anon` (heap, native
 * allocations: what memory pressure cannot reclaim) and `file` (memory-mapped files such as a viewed HNSW
 * graph: page cache the kernel may drop and re-read). Undefined where `/proc` is absent.
 */
export function rssSplitMb(): { anon: number; file: number } | undefined {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
    return { anon: kb("RssAnon") / 1024, file: kb("RssFile") / 1024 };
  } catch {
    return undefined;
  }
}

/** Current resident set size in MB. */
export function rssMb(): number {
  return process.memoryUsage.rss() / 2 ** 20;
}
