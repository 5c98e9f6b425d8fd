import { readLegacySnapshot } from "./legacy-snapshot.js";
import type { LoadedRows } from "./record-rows.js";
import { readSegmented } from "./segment-snapshot.js";
import { readManifest, removeStale, type SnapshotManifest } from "./snapshot.js";

/** How {@link loadLatestSnapshot} reads a snapshot. */
export interface SnapshotLoadOptions {
  /** Throws (typed) when a manifest does not fit the opening store (embedder, dimensions). */
  check: (manifest: SnapshotManifest) => void;
  /** Records files up to this many bytes are checksummed whole (see `verifyBytesAtOpen`). */
  verifyBytesAtOpen: number;
  /** `open`: keep a version 3 snapshot's vectors in their files (a graph will serve searches); `read`: load them. */
  vectors: (manifest: SnapshotManifest) => "read" | "open";
}

/**
 * Reads the latest snapshot in `dir` (after removing stale temp files): its manifest and rows, from a
 * version 3 folder or an older one. A writer in another process may replace the snapshot between the
 * manifest and its files: the read is then retried with the new manifest (up to 5 times).
 * `undefined` when the folder holds no snapshot.
 * @throws the typed error of `check`; the read's error when the snapshot stays unreadable.
 */
export async function loadLatestSnapshot(dir: string, options: SnapshotLoadOptions): Promise<{ manifest: SnapshotManifest; loaded: LoadedRows } | undefined> {
  let manifest = await readManifest(dir);
  await removeStale(dir);
  for (let attempt = 1; manifest !== undefined; attempt++) {
    options.check(manifest);
    try {
      const m = manifest;
      const loaded = await (m.version < 3 ? readLegacySnapshot(dir, m) : readSegmented(dir, m, options.verifyBytesAtOpen, options.vectors(m)));
      return { manifest: m, loaded };
    } catch (err) {
      const latest = attempt < 5 ? await readManifest(dir) : undefined;
      if (latest === undefined || latest.generation === manifest.generation) throw err;
      manifest = latest;
    }
  }
  return undefined;
}
