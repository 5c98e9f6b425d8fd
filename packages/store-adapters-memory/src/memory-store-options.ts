import type { MemoryAnnConfig } from "./ann-leg.js";
import type { CompactionPolicy } from "./record-rows.js";

/** Options of the memory store (`MemoryStore`). */
export interface MemoryStoreOptions {
  /** Folder the index is persisted to on `flush()`; without it the store lives only in memory. */
  dir?: string;
  /**
   * Approximate nearest-neighbour search (HNSW) from `threshold` records on (default: on, threshold 20 000);
   * `false` keeps every search exact. Persisted with the snapshot. See {@link MemoryAnnConfig}.
   */
  ann?: MemoryAnnConfig | false;
  /**
   * Records files up to this many bytes in all are checksummed whole at open (default 64 MiB); past it
   * each record line is checked against its CRC-32 when it is read, so opening a large index does not
   * read every record.
   */
  verifyBytesAtOpen?: number;
  /** When a flush rewrites record segments instead of only appending one (default `{ deadShare: 0.5, maxSegments: 16 }`). */
  compaction?: Partial<CompactionPolicy>;
}

/** The default {@link MemoryStoreOptions.compaction}. */
export const DEFAULT_COMPACTION: Readonly<CompactionPolicy> = Object.freeze({ deadShare: 0.5, maxSegments: 16 });
