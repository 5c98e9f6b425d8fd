import { createHash } from "node:crypto";
import type { ChunkRecord, ChunkType } from "@hierdoc/core";

/** What the tool keeps in memory about every stored chunk (no text, no vector). */
export interface CatalogEntry {
  id: string;
  sourcePath: string;
  chunkIndex: number;
  sectionId: string;
  sectionTitle: string;
  sectionAliases: string[];
  unitIds: string[];
  parentChain: string[];
  chunkType: ChunkType;
  fileHash: string;
  fileChunkCount: number;
  start: number;
  end: number;
}

/** State of one ingested file as the store holds it. */
export interface FileState {
  sourcePath: string;
  fileHash: string;
  chunkIds: string[];
  /** False when fewer records are stored than the file produced (an interrupted write). */
  complete: boolean;
}

/**
 * In-memory catalog of the stored chunks, rebuilt from the store on open: the source of file states
 * (for incremental ingestion), filters, section lookups and the index fingerprint.
 */
export class Catalog {
  private readonly entries = new Map<string, CatalogEntry>();
  private readonly bySource = new Map<string, Set<string>>();

  /** Adds or replaces the entry of a record. */
  put(record: ChunkRecord): void {
    this.delete(record.id);
    const entry: CatalogEntry = {
      id: record.id,
      sourcePath: record.sourcePath,
      chunkIndex: record.chunkIndex,
      sectionId: record.sectionId,
      sectionTitle: record.sectionTitle,
      sectionAliases: record.sectionAliases ?? [],
      unitIds: record.unitIds ?? [],
      parentChain: record.parentChain,
      chunkType: record.chunkType,
      fileHash: record.fileHash,
      fileChunkCount: record.fileChunkCount ?? 0,
      start: record.start,
      end: record.end,
    };
    this.entries.set(entry.id, entry);
    let set = this.bySource.get(entry.sourcePath);
    if (!set) this.bySource.set(entry.sourcePath, (set = new Set()));
    set.add(entry.id);
  }

  delete(id: string): void {
    const old = this.entries.get(id);
    if (!old) return;
    this.entries.delete(id);
    const set = this.bySource.get(old.sourcePath);
    set?.delete(id);
    if (set && set.size === 0) this.bySource.delete(old.sourcePath);
  }

  get(id: string): CatalogEntry | undefined {
    return this.entries.get(id);
  }

  get size(): number {
    return this.entries.size;
  }

  all(): IterableIterator<CatalogEntry> {
    return this.entries.values();
  }

  sources(): string[] {
    return [...this.bySource.keys()].sort();
  }

  idsOf(sourcePath: string): string[] {
    return [...(this.bySource.get(sourcePath) ?? [])];
  }

  /** The stored state of a file, or undefined when none of its chunks is stored. */
  fileState(sourcePath: string): FileState | undefined {
    const ids = this.idsOf(sourcePath);
    if (ids.length === 0) return undefined;
    const first = this.entries.get(ids[0])!;
    const hashes = new Set(ids.map((id) => this.entries.get(id)!.fileHash));
    return {
      sourcePath,
      fileHash: first.fileHash,
      chunkIds: ids,
      complete: hashes.size === 1 && ids.length === first.fileChunkCount,
    };
  }

  /**
   * A digest of (chunk id, file hash) over every entry: a persisted derived index built for another
   * digest is stale and is rebuilt from the store.
   */
  fingerprint(): string {
    const h = createHash("sha256");
    const ids = [...this.entries.keys()].sort();
    for (const id of ids) h.update(`${id}\u0000${this.entries.get(id)!.fileHash}\n`);
    return `${ids.length}:${h.digest("hex").slice(0, 32)}`;
  }
}
