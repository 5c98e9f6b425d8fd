import { open } from "node:fs/promises";

/** Bytes read from the start of a file to decide whether it is text. */
export const SNIFF_BYTES = 64 * 1024;

/**
 * True when the bytes look like text: no NUL byte and valid UTF-8 (a multi-byte character cut by the end of
 * `bytes` is allowed when `truncated` says the bytes are only the file's start). A UTF-8 BOM is fine.
 */
export function looksLikeText(bytes: Uint8Array, truncated = false): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: truncated });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads up to {@link SNIFF_BYTES} of a file and tells whether it is text (see {@link looksLikeText}).
 * An unreadable file is not text.
 */
export async function isTextFile(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, "r");
    const buf = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    const size = (await handle.stat()).size;
    return looksLikeText(buf.subarray(0, bytesRead), size > bytesRead);
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}
