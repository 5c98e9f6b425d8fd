import { inflateRawSync } from "node:zlib";
import { fileError } from "./errors.js";

/** One entry of a zip archive's central directory. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Reads a zip's central directory, or returns null when the bytes are not a readable zip. */
export function readZipEntries(bytes: Uint8Array): ZipEntry[] | null {
  if (bytes.length < 22) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1) return null;
  const count = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== CENTRAL) return null;
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    if (p + 46 + nameLength > bytes.length) return null;
    entries.push({
      name: decoder.decode(bytes.subarray(p + 46, p + 46 + nameLength)),
      method: view.getUint16(p + 10, true),
      compressedSize: view.getUint32(p + 20, true),
      uncompressedSize: view.getUint32(p + 24, true),
      localHeaderOffset: view.getUint32(p + 42, true),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Limits of {@link checkZipBomb}. */
export interface ZipLimits {
  /** Largest total uncompressed size of all entries, measured by actually inflating them. */
  maxUncompressedBytes: number;
  /** Most entries accepted (default 10,000). */
  maxEntries?: number;
}

/**
 * Refuses zip bombs before a zip library expands the archive: checks the declared sizes, then inflates every
 * entry with a hard output cap (declared sizes can lie), so no more than `maxUncompressedBytes` is ever
 * produced.
 *
 * @throws HierdocError E_INPUT_TOO_LARGE when the archive expands beyond the limit, E_PARSE when it is corrupt.
 */
export function checkZipBomb(path: string, bytes: Uint8Array, entries: ZipEntry[], limits: ZipLimits): void {
  const maxEntries = limits.maxEntries ?? 10_000;
  const limit = limits.maxUncompressedBytes;
  if (entries.length > maxEntries) {
    throw fileError("E_INPUT_TOO_LARGE", path, `archive has ${entries.length} entries; the limit is ${maxEntries}`);
  }
  const tooLarge = (size: number) =>
    fileError("E_INPUT_TOO_LARGE", path, `archive expands to more than ${limit} bytes (maxUncompressedBytes); refusing a possible zip bomb`, {
      details: { limit, size },
    });
  const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (declared > limit || entries.some((e) => e.uncompressedSize === 0xffffffff)) throw tooLarge(declared);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (const e of entries) {
    const h = e.localHeaderOffset;
    if (h + 30 > bytes.length || view.getUint32(h, true) !== LOCAL) {
      throw fileError("E_PARSE", path, `corrupt zip archive: bad local header for ${e.name}`);
    }
    const start = h + 30 + view.getUint16(h + 26, true) + view.getUint16(h + 28, true);
    const data = bytes.subarray(start, Math.min(bytes.length, start + e.compressedSize));
    let size: number;
    if (e.method === 0) size = data.length;
    else if (e.method === 8) {
      try {
        size = inflateRawSync(data, { maxOutputLength: Math.max(1, limit - total + 1) }).length;
      } catch (cause) {
        if (cause instanceof RangeError || (cause as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(total + limit);
        throw fileError("E_PARSE", path, `corrupt zip archive: cannot inflate ${e.name}`, { cause });
      }
    } else {
      throw fileError("E_PARSE", path, `zip entry ${e.name} uses unsupported compression method ${e.method}`);
    }
    total += size;
    if (total > limit) throw tooLarge(total);
  }
}

/**
 * Inflates one entry of an archive already passed through {@link checkZipBomb}, with a hard output cap.
 *
 * @throws HierdocError E_INPUT_TOO_LARGE when the entry inflates beyond `maxBytes`, E_PARSE when it is corrupt.
 */
export function readZipEntry(path: string, bytes: Uint8Array, entry: ZipEntry, maxBytes: number): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const h = entry.localHeaderOffset;
  if (h + 30 > bytes.length || view.getUint32(h, true) !== LOCAL) {
    throw fileError("E_PARSE", path, `corrupt zip archive: bad local header for ${entry.name}`);
  }
  const start = h + 30 + view.getUint16(h + 26, true) + view.getUint16(h + 28, true);
  const data = bytes.subarray(start, Math.min(bytes.length, start + entry.compressedSize));
  if (entry.method === 0) return data;
  if (entry.method !== 8) throw fileError("E_PARSE", path, `zip entry ${entry.name} uses unsupported compression method ${entry.method}`);
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, maxBytes) });
  } catch (cause) {
    if (cause instanceof RangeError || (cause as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw fileError("E_INPUT_TOO_LARGE", path, `${entry.name} expands to more than ${maxBytes} bytes; refusing a possible zip bomb`, {
        details: { limit: maxBytes, entry: entry.name },
      });
    }
    throw fileError("E_PARSE", path, `corrupt zip archive: cannot inflate ${entry.name}`, { cause });
  }
}
