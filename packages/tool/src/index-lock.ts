import { open, readFile, rm, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { HierdocError, processAlive } from "@hierdoc/core";

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
  const path = join(indexDir, "lock");
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

