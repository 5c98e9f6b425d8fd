import { mkdir, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { HierdocError } from "@hierdoc/core";

/**
 * Writes `parts` to `dir/name` atomically: a temp file in the same folder, fsync, rename over the target,
 * then fsync of the folder. Readers see the old file or the new one, never a partial one.
 * @throws HierdocError E_INTERNAL naming the file when any step fails (the temp file is removed).
 */
export async function writeFileAtomic(dir: string, name: string, parts: Uint8Array[]): Promise<void> {
  const target = join(dir, name);
  const temp = join(dir, `.${name}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    const fh = await open(temp, "w");
    try {
      for (const part of parts) await fh.write(part);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(temp, target);
    await syncDir(dir);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new HierdocError("E_INTERNAL", `could not write ${target}: ${(err as Error).message}`, {
      cause: err,
      details: { file: target, operation: "save" },
    });
  }
}

async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, "r");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename itself is still atomic.
  }
}
