import { open } from "node:fs/promises";

/** Writes `bytes` to `path` (created or truncated) and fsyncs it before returning. */
export async function writeDurable(path: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(path, "w");
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Fsyncs a file written by someone else (e.g. a native library's save). */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Fsyncs a folder, so the renames into it survive a crash. File-backed stores call it after renaming their
 * temp files into place.
 * @throws the fs error when the folder cannot be opened or synced (callers that tolerate it catch).
 */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
