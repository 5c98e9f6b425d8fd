import { mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { HierdocError, processAlive, syncDir } from "@hierdoc/core";

/**
 * Writes `parts` to `dir/name` atomically: a temp file in the same folder, fsync, rename over the target,
 * then fsync of the folder. Readers see the old file or the new one, never a partial one. Temp files of the
 * same name left by processes that died mid-write (SIGKILL, power loss) are removed after the rename.
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
    // Some platforms cannot fsync a directory; the rename itself is still atomic.
    await syncDir(dir).catch(() => undefined);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new HierdocError("E_INTERNAL", `could not write ${target}: ${(err as Error).message}`, {
      cause: err,
      details: { file: target, operation: "save" },
    });
  }
  await removeDeadWritersTemps(dir, name);
}

/** Removes `.NAME.PID.*.tmp` files whose writer process no longer exists (a live writer's file stays). */
async function removeDeadWritersTemps(dir: string, name: string): Promise<void> {
  const prefix = `.${name}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  const dead = names.filter((n) => {
    if (!n.startsWith(prefix) || !n.endsWith(".tmp")) return false;
    const pid = Number(n.slice(prefix.length).split(".")[0]);
    return Number.isInteger(pid) && pid > 0 && !processAlive(pid);
  });
  await Promise.all(dead.map((n) => rm(join(dir, n), { force: true }).catch(() => undefined)));
}

