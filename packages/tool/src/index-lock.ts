import { open, readFile, rm, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { HierdocError, isHierdocError, processAlive } from "@hierdoc/core";

/** The lock file in an index folder: it holds the pid of the process writing the index. */
export const INDEX_LOCK_FILE = "lock";

/** An exclusive write lock on an index folder; stale locks of dead processes are taken over. */
export interface IndexLock {
  release(): Promise<void>;
}

/**
 * Takes the write lock of `indexDir` (a `lock` file holding the owner's pid).
 * @throws HierdocError E_INDEX_LOCKED when a live process holds it.
 */
export async function acquireIndexLock(indexDir: string): Promise<IndexLock> {
  await mkdir(indexDir, { recursive: true });
  const path = join(indexDir, INDEX_LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(path, "wx");
      await fh.writeFile(String(process.pid));
      await fh.close();
      return { release: () => rm(path, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number((await readFile(path, "utf8").catch(() => "")).trim());
      if (owner && owner !== process.pid && processAlive(owner)) {
        throw new HierdocError("E_INDEX_LOCKED", `${indexDir} is being written by process ${owner}; wait for it to finish`, {
          retryable: true,
          details: { file: path },
        });
      }
      await rm(path, { force: true });
    }
  }
  throw new HierdocError("E_INDEX_LOCKED", `could not lock ${indexDir}`, { retryable: true, details: { file: path } });
}


/**
 * Takes the write lock of `indexDir` for a write a reader makes in passing (an open saving what it rebuilt or
 * converted), as {@link acquireIndexLock} does (a stale lock of a dead process is taken over), but returns the
 * E_INDEX_LOCKED error instead of throwing it when a live process holds the lock, this process included
 * (an ingest of another tool over the same folder).
 * @throws what {@link acquireIndexLock} throws besides E_INDEX_LOCKED (the folder cannot be written).
 */
export async function tryIndexLock(indexDir: string): Promise<IndexLock | HierdocError> {
  const path = join(indexDir, INDEX_LOCK_FILE);
  const owner = Number((await readFile(path, "utf8").catch(() => "")).trim());
  if (owner === process.pid) {
    return new HierdocError("E_INDEX_LOCKED", `${indexDir} is being written by this process (${owner}); wait for it to finish`, { retryable: true, details: { file: path } });
  }
  try {
    return await acquireIndexLock(indexDir);
  } catch (err) {
    if (isHierdocError(err, "E_INDEX_LOCKED")) return err;
    throw err;
  }
}
