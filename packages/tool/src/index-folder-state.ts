import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileIdentity, processAlive } from "@hierdoc/core";
import { MANIFEST } from "./index-manifest.js";
import { INDEX_LOCK_FILE } from "./index-lock.js";

/** A lock file without a pid yet is being taken (created, then written): held for this long, then taken for a leftover. */
const UNWRITTEN_LOCK_MS = 10_000;

/**
 * What a process serving an index folder polls to notice that another process changed it: the identity of
 * the manifest file and the holder of the index's write lock.
 */
export interface IndexFolderState {
  /**
   * Identity of `hierdoc.json` (inode, size, modification time in ns), null when the folder has none. An
   * ingest rewrites the manifest (temp file + rename) after each checkpoint and at its end, so it changes
   * whenever an ingest changed the index; an ingest where every file was unchanged leaves it as it was.
   */
  manifest: string | null;
  /**
   * The pid of the live process holding the index's write lock (an ingest, or an open saving what it
   * rebuilt); 0 for a lock file being taken (no pid written yet); null when the lock is free or its owner
   * is dead (a stale lock, taken over by the next ingest). This process's own pid counts as a holder.
   */
  lockedBy: number | null;
}

/**
 * Reads the {@link IndexFolderState} of `indexDir`: two small file reads, no parsing of the index. An ingest
 * holds the lock until after its last write, so "manifest changed and lock free" means an ingest finished.
 */
export async function readIndexFolderState(indexDir: string): Promise<IndexFolderState> {
  const [manifest, lockedBy] = await Promise.all([fileIdentity(join(indexDir, MANIFEST)), lockOwner(join(indexDir, INDEX_LOCK_FILE))]);
  return { manifest, lockedBy };
}

async function lockOwner(file: string): Promise<number | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  const pid = Number(text.trim());
  if (Number.isInteger(pid) && pid > 0) return processAlive(pid) ? pid : null;
  // Created but not written yet (acquireIndexLock opens it, then writes the pid): held, unless it is old.
  const age = await stat(file).then((s) => Date.now() - s.mtimeMs, () => Infinity);
  return age < UNWRITTEN_LOCK_MS ? 0 : null;
}
