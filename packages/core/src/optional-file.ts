import { readFile, stat } from "node:fs/promises";
import { HierdocError } from "./errors.js";

/**
 * Reads an index file that may be missing (a state file written on demand): its UTF-8 text, or null when it
 * does not exist. Use it for files whose absence is normal and whose presence must be readable.
 * @throws HierdocError E_INDEX_CORRUPT naming the file (`details.file`, the fs error as `cause`) when it exists
 * but cannot be read (a folder in its place, no permission, an I/O error).
 */
export async function readTextIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new HierdocError("E_INDEX_CORRUPT", `cannot read ${file}: ${(err as Error).message}`, { cause: err, details: { file } });
  }
}

/**
 * A file's identity: inode, size and modification time in ns (`"ino:size:mtimeNs"`), which a rewrite or a
 * rename over it changes; null when it does not exist. Other stat errors are thrown.
 */
export async function fileIdentity(file: string): Promise<string | null> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}
