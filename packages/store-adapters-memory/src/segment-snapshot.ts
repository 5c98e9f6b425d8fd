import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import type { LoadedRows, Segment } from "./record-rows.js";
import { RowColumns, ROW_BYTES } from "./row-columns.js";
import { SegmentVectors } from "./segment-vectors.js";
import { corrupt, type SnapshotFileEntry, type SnapshotManifest } from "./snapshot.js";

/** Records files up to this many bytes in all are checksummed whole at open (default of `verifyBytesAtOpen`). */
export const DEFAULT_VERIFY_BYTES_AT_OPEN = 64 * 1024 * 1024;
const BLOCK_BYTES = 4 * 1024 * 1024;

/** A small file read whole, its size and CRC-32 checked. */
async function readSmall(dir: string, entry: SnapshotFileEntry): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, entry.name));
  } catch (err) {
    throw corrupt(dir, entry.name, "file listed in the manifest cannot be read", err);
  }
  if (bytes.length !== entry.bytes) throw corrupt(dir, entry.name, `expected ${entry.bytes} bytes, found ${bytes.length}`);
  if (crc32(bytes) !== entry.crc32) throw corrupt(dir, entry.name, "checksum mismatch");
  return bytes;
}

/**
 * Loads a version-3 snapshot without parsing record lines: the columns (ids, source table) and rows
 * (offset table) files, a read descriptor per records segment (sizes checked; contents checksummed whole
 * only while their total is at most `verifyBytesAtOpen`, else line by line as they are read), and the
 * vectors of every segment placed in row order; with `vectors: "open"`, the vectors files opened instead
 * (sizes checked; read later by {@link SegmentVectors}).
 * @throws HierdocError E_INDEX_CORRUPT naming the bad file (a file missing, of the wrong size, with a
 *   checksum mismatch, or rows pointing outside their segment).
 */
export async function readSegmented(dir: string, manifest: SnapshotManifest, verifyBytesAtOpen = DEFAULT_VERIFY_BYTES_AT_OPEN, vectors: "read" | "open" = "read"): Promise<LoadedRows> {
  const n = manifest.count;
  const files = manifest.files as Required<Pick<SnapshotManifest["files"], "rows" | "columns">>;
  const entries = manifest.segments ?? [];
  const [columnsBytes, rowsBytes] = await Promise.all([readSmall(dir, files.columns), readSmall(dir, files.rows)]);
  let parsed: { ids?: unknown; sources?: unknown };
  try {
    parsed = JSON.parse(columnsBytes.toString("utf8")) as typeof parsed;
  } catch (err) {
    throw corrupt(dir, files.columns.name, "not valid JSON", err);
  }
  const ids = parsed.ids as string[];
  const table = parsed.sources as string[];
  if (!Array.isArray(ids) || !Array.isArray(table) || ids.length !== n) throw corrupt(dir, files.columns.name, `expected ${n} ids and a source table`);
  if (rowsBytes.length !== n * ROW_BYTES) throw corrupt(dir, files.rows.name, `expected ${n * ROW_BYTES} bytes for ${n} rows`);
  const { columns, sourceIndex } = RowColumns.fromBytes(rowsBytes, n);
  for (let r = 0; r < n; r++) {
    const s = entries[columns.seg[r]];
    if (s === undefined || columns.vindex[r] >= s.count || columns.offset[r] + columns.length[r] > s.records.bytes || sourceIndex[r] >= table.length) {
      throw corrupt(dir, files.rows.name, `row ${r} points outside its segment`);
    }
  }
  const sources = Array.from(sourceIndex, (i) => table[i]);
  const segments: Segment[] = [];
  let vectorFiles: SegmentVectors | undefined;
  try {
    for (const entry of entries) segments.push({ ...entry, fd: openRecords(dir, entry.records) });
    const total = entries.reduce((sum, e) => sum + e.records.bytes, 0);
    if (total <= verifyBytesAtOpen) for (const s of segments) verifyWhole(dir, s);
    vectorFiles = SegmentVectors.open(dir, manifest, columns);
    if (vectors === "open") return { ids, sources, columns, segments, vectorFiles };
    const read = vectorFiles.readAll();
    vectorFiles.close();
    return { ids, sources, columns, segments, vectors: read };
  } catch (err) {
    for (const s of segments) closeSync(s.fd);
    vectorFiles?.close();
    throw err;
  }
}

function openRecords(dir: string, entry: SnapshotFileEntry): number {
  let fd: number;
  try {
    fd = openSync(join(dir, entry.name), "r");
  } catch (err) {
    throw corrupt(dir, entry.name, "file listed in the manifest cannot be read", err);
  }
  const size = fstatSync(fd).size;
  if (size !== entry.bytes) {
    closeSync(fd);
    throw corrupt(dir, entry.name, `expected ${entry.bytes} bytes, found ${size}`);
  }
  return fd;
}

function verifyWhole(dir: string, s: Segment): void {
  const block = Buffer.allocUnsafe(Math.min(BLOCK_BYTES, Math.max(1, s.records.bytes)));
  let crc = 0;
  for (let at = 0; at < s.records.bytes; ) {
    const read = readSync(s.fd, block, 0, Math.min(block.length, s.records.bytes - at), at);
    if (read === 0) break;
    crc = crc32(block.subarray(0, read), crc);
    at += read;
  }
  if (crc !== s.records.crc32) throw corrupt(dir, s.records.name, "checksum mismatch");
}
