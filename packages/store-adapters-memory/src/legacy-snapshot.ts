import { createHash, type Hash } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import type { ChunkRecord } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";
import { forEachLine, readInto } from "./file-blocks.js";
import type { LoadedRows } from "./record-rows.js";
import { RowColumns } from "./row-columns.js";
import { corrupt, openListedFile, type SnapshotFileEntry, type SnapshotManifest } from "./snapshot.js";

/**
 * Opens a file the manifest lists, checks its size, streams it through `read` while hashing it, then
 * checks the SHA-256. An error `read` reports as `deferred` is thrown only when the checksum matches
 * (damage is reported as a checksum mismatch, as when the file was checked before parsing).
 */
async function readChecked<T>(
  dir: string,
  entry: SnapshotFileEntry,
  read: (handle: FileHandle, hash: Hash) => Promise<{ value: T; deferred?: HierdocError }>,
): Promise<T> {
  const handle = await openListedFile(dir, entry);
  try {
    const hash = createHash("sha256");
    let result: { value: T; deferred?: HierdocError };
    try {
      result = await read(handle, hash);
    } catch (err) {
      if (err instanceof HierdocError) throw err;
      throw corrupt(dir, entry.name, "file listed in the manifest cannot be read", err);
    }
    if (hash.digest("hex") !== entry.sha256) throw corrupt(dir, entry.name, "checksum mismatch");
    if (result.deferred) throw result.deferred;
    return result.value;
  } finally {
    await handle.close();
  }
}

/**
 * The records file of a version 1-2 snapshot, streamed once: each line parsed (validated, id and source
 * path taken) and located (offset, length, CRC-32); the lines stay on disk.
 */
async function readRecords(dir: string, manifest: SnapshotManifest): Promise<Pick<LoadedRows, "columns" | "ids" | "sources">> {
  const entry = manifest.files.records as SnapshotFileEntry;
  const name = entry.name;
  const value = await readChecked(dir, entry, async (handle, hash) => {
    const out = { columns: new RowColumns(manifest.count), ids: [] as string[], sources: [] as string[] };
    let deferred: HierdocError | undefined;
    let offset = 0;
    await forEachLine(handle, hash, (line, lineNo) => {
      const at = offset;
      offset += line.length + 1;
      if (deferred || line.length === 0) return;
      let record: ChunkRecord;
      try {
        record = JSON.parse(line.toString("utf8")) as ChunkRecord;
      } catch (err) {
        deferred = corrupt(dir, name, `line ${lineNo} is not valid JSON`, err);
        return;
      }
      if (record === null || typeof record !== "object" || typeof record.id !== "string") {
        deferred = corrupt(dir, name, `line ${lineNo} is not a record with a string id`);
        return;
      }
      out.columns.push(0, out.ids.length, at, line.length, crc32(line));
      out.ids.push(record.id);
      out.sources.push(record.sourcePath);
    });
    return { value: out, deferred };
  });
  if (value.ids.length !== manifest.count) throw corrupt(dir, name, `expected ${manifest.count} records, found ${value.ids.length}`);
  return value;
}

/** The vectors file of a version 1-2 snapshot, read straight into the array the store keeps. */
async function readVectors(dir: string, manifest: SnapshotManifest): Promise<Float32Array> {
  const entry = manifest.files.vectors as SnapshotFileEntry;
  const expectedFloats = manifest.count * manifest.dimensions;
  if (entry.bytes !== expectedFloats * 4) throw corrupt(dir, entry.name, `expected ${expectedFloats} floats for ${manifest.count} records`);
  return readChecked(dir, entry, async (handle, hash) => {
    const vectors = new Float32Array(expectedFloats);
    const read = await readInto(handle, new Uint8Array(vectors.buffer), hash);
    return { value: vectors, deferred: read === vectors.byteLength ? undefined : corrupt(dir, entry.name, `expected ${entry.bytes} bytes, found ${read}`) };
  });
}

/**
 * Loads a version 1 or 2 snapshot (one records file, one vectors file): both streamed and checked
 * (sizes, SHA-256, every line parsed once), the records file becoming the one segment rows point into.
 * The next flush writes a version-3 manifest over the same files (no record is rewritten).
 * @throws HierdocError E_INDEX_CORRUPT naming the bad file (and line).
 */
export async function readLegacySnapshot(dir: string, manifest: SnapshotManifest): Promise<LoadedRows> {
  const records = manifest.files.records as SnapshotFileEntry;
  const vectorsEntry = manifest.files.vectors as SnapshotFileEntry;
  const [rows, vectors] = await Promise.all([readRecords(dir, manifest), readVectors(dir, manifest)]);
  let fd: number;
  try {
    fd = openSync(join(dir, records.name), "r");
  } catch (err) {
    throw corrupt(dir, records.name, "file listed in the manifest cannot be read", err);
  }
  // Version 3 entries carry CRC-32s: computed here so the converted manifest can list these files.
  try {
    const recordsCrc = await fileCrc(dir, records);
    const vectorsCrc = crc32(new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength));
    const segment = {
      records: { name: records.name, bytes: records.bytes, crc32: recordsCrc },
      vectors: { name: vectorsEntry.name, bytes: vectorsEntry.bytes, crc32: vectorsCrc },
      count: manifest.count,
      fd,
    };
    return { ...rows, segments: [segment], vectors };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

async function fileCrc(dir: string, entry: SnapshotFileEntry): Promise<number> {
  const handle = await open(join(dir, entry.name), "r");
  try {
    let crc = 0;
    const block = Buffer.allocUnsafe(4 << 20);
    for (let at = 0; ; ) {
      const { bytesRead } = await handle.read(block, 0, block.length, at);
      if (bytesRead === 0) return crc;
      crc = crc32(block.subarray(0, bytesRead), crc);
      at += bytesRead;
    }
  } finally {
    await handle.close();
  }
}
