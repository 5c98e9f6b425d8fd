import type { Hash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";

/** Bytes read per block when streaming a snapshot file. */
const BLOCK_BYTES = 4 * 1024 * 1024;

/**
 * Reads `bytes` bytes of an open file into `target` from the start, feeding them to `hash`.
 * Returns how many bytes were read (fewer when the file is shorter).
 */
export async function readInto(handle: FileHandle, target: Uint8Array, hash: Hash): Promise<number> {
  let at = 0;
  while (at < target.length) {
    const { bytesRead } = await handle.read(target, at, Math.min(BLOCK_BYTES, target.length - at), at);
    if (bytesRead === 0) break;
    hash.update(target.subarray(at, at + bytesRead));
    at += bytesRead;
  }
  return at;
}

/**
 * Streams an open file in blocks, feeding every byte to `hash` and calling `onLine` for each line (without
 * its newline; empty lines included) with its 1-based number. The line is a view into a reused block
 * buffer, valid only during the call: copy it to keep it. Returns the number of bytes read, so the whole
 * file is never held at once.
 */
export async function forEachLine(handle: FileHandle, hash: Hash, onLine: (line: Buffer, lineNo: number) => void): Promise<number> {
  const block = Buffer.allocUnsafe(BLOCK_BYTES);
  let carry: Buffer[] = [];
  let lineNo = 0;
  let total = 0;
  for (;;) {
    const { bytesRead } = await handle.read(block, 0, block.length, null);
    if (bytesRead === 0) break;
    total += bytesRead;
    const data = block.subarray(0, bytesRead);
    hash.update(data);
    let start = 0;
    for (let nl = data.indexOf(0x0a, start); nl !== -1; nl = data.indexOf(0x0a, start)) {
      const piece = data.subarray(start, nl);
      onLine(carry.length === 0 ? piece : Buffer.concat([...carry, piece]), ++lineNo);
      carry = [];
      start = nl + 1;
    }
    if (start < data.length) carry.push(Buffer.from(data.subarray(start)));
  }
  if (carry.length > 0) onLine(Buffer.concat(carry), ++lineNo);
  return total;
}
