import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import type { ChunkRecord } from "@hierdoc/core";
import { HierdocError, processAlive, syncDir, syncFile, writeDurable } from "@hierdoc/core";
import { forEachLine, readInto } from "./file-blocks.js";
import { LineArena } from "./line-arena.js";
import { recordJson } from "./record-codec.js";

/** Name of the manifest file; it is written last, so its presence means a complete snapshot. */
export const MANIFEST_FILE = "manifest.json";
const FORMAT = "hierdoc-memory-store";
/**
 * Format version written. Version 2 lines leave out `indexedText` when it is the default one; version 1
 * (every line carries it) is still read. A reader that knows only version 1 rejects a version 2 folder
 * rather than serving records without their indexed text.
 */
const VERSION = 2;
const READABLE_VERSIONS: readonly number[] = [1, 2];
const DATA_FILE = /^(records|vectors|ann)-(\d+)-(\d+)\.(jsonl|f32|usearch)$/;
const TEMP_FILE = /\.(\d+)\.tmp$/;

/** One data file listed in the manifest. */
export interface SnapshotFileEntry {
  name: string;
  bytes: number;
  sha256: string;
}

/** The manifest: which embedder and vector size the index is for, and its files with checksums. */
export interface SnapshotManifest {
  format: typeof FORMAT;
  version: number;
  embedderId: string;
  dimensions: number;
  count: number;
  generation: number;
  writtenAt: string;
  /**
   * The HNSW graph over the vectors (keys = row numbers), when the store held one: optional, ignored by
   * readers that do not use it, and rebuilt from the vectors when missing, damaged or built with other settings.
   */
  ann?: SnapshotAnnEntry;
  files: { records: SnapshotFileEntry; vectors: SnapshotFileEntry; ann?: SnapshotFileEntry };
}

/** The graph's settings recorded in the manifest (a graph built with other ones is rebuilt on open). */
export interface SnapshotAnnEntry {
  library: "usearch";
  m: number;
  ef_construction: number;
  quantization: string;
}

/**
 * A loaded snapshot: per row (in order) the record's compact JSON line, its id and source path, and the
 * packed, normalised vectors. Lines are views into a few large buffers; lines written by an earlier
 * version with a default `indexedText` are re-encoded without it.
 */
export interface Snapshot {
  manifest: SnapshotManifest;
  /** Each record's UTF-8 JSON (no newline), as {@link encodeRecord} writes it. */
  lines: Buffer[];
  ids: string[];
  /** Each record's `sourcePath` (one string instance per distinct path). */
  sources: string[];
  vectors: Float32Array;
}

function corrupt(dir: string, file: string, reason: string, cause?: unknown): HierdocError {
  return new HierdocError("E_INDEX_CORRUPT", `memory store index is corrupt: ${file}: ${reason}`, {
    cause,
    details: { adapter: "memory", operation: "open", file: join(dir, file) },
  });
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}


/** Reads and validates the manifest; `undefined` when the folder holds no snapshot yet. */
export async function readManifest(dir: string): Promise<SnapshotManifest | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  let m: SnapshotManifest;
  try {
    m = JSON.parse(text) as SnapshotManifest;
  } catch (err) {
    throw corrupt(dir, MANIFEST_FILE, "not valid JSON", err);
  }
  const ok =
    m !== null &&
    typeof m === "object" &&
    m.format === FORMAT &&
    typeof m.embedderId === "string" &&
    Number.isInteger(m.dimensions) &&
    m.dimensions > 0 &&
    Number.isInteger(m.count) &&
    m.count >= 0 &&
    Number.isInteger(m.generation) &&
    typeof m.files?.records?.name === "string" &&
    typeof m.files?.vectors?.name === "string";
  if (!ok) throw corrupt(dir, MANIFEST_FILE, "missing or invalid fields");
  if (!READABLE_VERSIONS.includes(m.version)) throw corrupt(dir, MANIFEST_FILE, `unsupported format version ${m.version}`);
  return m;
}

/**
 * Opens a file the manifest lists, checks its size, streams it through `read` while hashing it, then
 * checks the checksum. An error `read` reports as `deferred` is thrown only when the checksum matches
 * (damage is reported as a checksum mismatch, as when the file was checked before parsing).
 */
async function readChecked<T>(
  dir: string,
  entry: SnapshotFileEntry,
  read: (handle: FileHandle, hash: Hash) => Promise<{ value: T; deferred?: HierdocError }>,
): Promise<T> {
  let handle: FileHandle;
  try {
    handle = await open(join(dir, entry.name), "r");
  } catch (err) {
    throw corrupt(dir, entry.name, "file listed in the manifest cannot be read", err);
  }
  try {
    const size = (await handle.stat()).size;
    if (size !== entry.bytes) throw corrupt(dir, entry.name, `expected ${entry.bytes} bytes, found ${size}`);
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

/** The records file, streamed: each line parsed once (validated, id and source path taken) and copied compactly. */
async function readRecords(dir: string, manifest: SnapshotManifest): Promise<Pick<Snapshot, "lines" | "ids" | "sources">> {
  const name = manifest.files.records.name;
  const { lines, ids, sources } = await readChecked(dir, manifest.files.records, async (handle, hash) => {
    const value = { lines: [] as Buffer[], ids: [] as string[], sources: [] as string[] };
    const paths = new Map<string, string>();
    const arena = new LineArena();
    let deferred: HierdocError | undefined;
    await forEachLine(handle, hash, (line, lineNo) => {
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
      // Lines of earlier versions carry indexedText: re-encode them, which drops it when it is the
      // default one (derived again on read). Other lines are copied as they are.
      value.lines.push(record.indexedText === undefined ? arena.addBytes(line) : arena.add(recordJson(record)));
      value.ids.push(record.id);
      const source = record.sourcePath;
      if (typeof source === "string" && !paths.has(source)) paths.set(source, source);
      value.sources.push(paths.get(source) ?? source);
    });
    return { value, deferred };
  });
  if (lines.length !== manifest.count) throw corrupt(dir, name, `expected ${manifest.count} records, found ${lines.length}`);
  return { lines, ids, sources };
}

/** The vectors file, read straight into the array the store keeps. */
async function readVectors(dir: string, manifest: SnapshotManifest): Promise<Float32Array> {
  const entry = manifest.files.vectors;
  const expectedFloats = manifest.count * manifest.dimensions;
  if (entry.bytes !== expectedFloats * 4) throw corrupt(dir, entry.name, `expected ${expectedFloats} floats for ${manifest.count} records`);
  return readChecked(dir, entry, async (handle, hash) => {
    const vectors = new Float32Array(expectedFloats);
    const read = await readInto(handle, new Uint8Array(vectors.buffer), hash);
    return { value: vectors, deferred: read === vectors.byteLength ? undefined : corrupt(dir, entry.name, `expected ${entry.bytes} bytes, found ${read}`) };
  });
}

/**
 * Loads the snapshot the manifest names and verifies sizes, checksums and counts. Both files are streamed
 * (neither is held whole besides the vectors array itself).
 * @throws HierdocError E_INDEX_CORRUPT naming the bad file.
 */
export async function readSnapshot(dir: string, manifest: SnapshotManifest): Promise<Snapshot> {
  const [records, vectors] = await Promise.all([readRecords(dir, manifest), readVectors(dir, manifest)]);
  return { manifest, ...records, vectors };
}

/**
 * Writes a new snapshot generation: data files named by generation and process id, written to temp files,
 * fsynced and renamed; then the manifest the same way (last); then this process's unreferenced data files
 * are removed. A crash at any point leaves the previous manifest pointing at complete files, or the new
 * one; two processes flushing at once never touch each other's files (the last manifest wins).
 * `lines` are the records' UTF-8 JSON texts (no newline), in row order. Returns the manifest written.
 */
export async function writeSnapshot(
  dir: string,
  header: { embedderId: string; dimensions: number; generation: number },
  lines: readonly Uint8Array[],
  vectors: Float32Array,
  ann?: { tempPath: string; settings: SnapshotAnnEntry },
): Promise<SnapshotManifest> {
  await mkdir(dir, { recursive: true });
  const onDisk = await readManifest(dir).catch(() => undefined);
  const gen = Math.max(header.generation, (onDisk?.generation ?? 0) + 1);
  const recordsName = `records-${gen}-${process.pid}.jsonl`;
  const vectorsName = `vectors-${gen}-${process.pid}.f32`;
  const recordBytes = joinLines(lines);
  const vectorBytes = new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength);
  const tmp = (name: string): string => join(dir, `${name}.${process.pid}.tmp`);
  await Promise.all([writeDurable(tmp(recordsName), recordBytes), writeDurable(tmp(vectorsName), vectorBytes)]);
  await rename(tmp(recordsName), join(dir, recordsName));
  await rename(tmp(vectorsName), join(dir, vectorsName));
  let annEntry: SnapshotFileEntry | undefined;
  if (ann !== undefined) {
    const annName = `ann-${gen}-${process.pid}.usearch`;
    await syncFile(ann.tempPath);
    await rename(ann.tempPath, join(dir, annName));
    annEntry = { name: annName, ...(await hashFile(join(dir, annName))) };
  }
  await syncDir(dir);
  const manifest: SnapshotManifest = {
    format: FORMAT,
    version: VERSION,
    embedderId: header.embedderId,
    dimensions: header.dimensions,
    count: lines.length,
    generation: gen,
    writtenAt: new Date().toISOString(),
    files: {
      records: { name: recordsName, bytes: recordBytes.length, sha256: sha256(recordBytes) },
      vectors: { name: vectorsName, bytes: vectorBytes.length, sha256: sha256(vectorBytes) },
      ...(annEntry ? { ann: annEntry } : {}),
    },
    ...(annEntry && ann ? { ann: ann.settings } : {}),
  };
  await writeDurable(tmp(MANIFEST_FILE), Buffer.from(JSON.stringify(manifest, null, 2) + "\n", "utf8"));
  await rename(tmp(MANIFEST_FILE), join(dir, MANIFEST_FILE));
  await syncDir(dir);
  await removeStale(dir, true);
  return manifest;
}

/** Size and SHA-256 of a file, streamed. */
async function hashFile(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 22 })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest("hex") };
}


/**
 * The path of the manifest's HNSW graph file when it is listed and intact (size and SHA-256 match), else
 * `undefined` (the graph is derived data: the caller rebuilds it from the vectors).
 */
export async function checkedAnnFile(dir: string, manifest: SnapshotManifest): Promise<string | undefined> {
  const entry = manifest.files.ann;
  if (entry === undefined || typeof entry.name !== "string" || !DATA_FILE.test(entry.name)) return undefined;
  const path = join(dir, entry.name);
  try {
    const found = await hashFile(path);
    return found.bytes === entry.bytes && found.sha256 === entry.sha256 ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The lines, each followed by a newline, as one buffer. */
function joinLines(lines: readonly Uint8Array[]): Buffer {
  let total = 0;
  for (const line of lines) total += line.byteLength + 1;
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (const line of lines) {
    out.set(line, at);
    at += line.byteLength;
    out[at++] = 0x0a;
  }
  return out;
}

/**
 * Removes leftovers: temp files of processes that are gone, and data files the current manifest does not
 * list that belong to processes that are gone (or to this process when `ownToo`). Files of other live
 * processes are never touched: they may be a snapshot being written.
 */
export async function removeStale(dir: string, ownToo = false): Promise<void> {
  let names: string[];
  let manifest: SnapshotManifest | undefined;
  try {
    names = await readdir(dir);
    manifest = await readManifest(dir);
  } catch {
    return;
  }
  const keep = new Set(manifest === undefined ? [] : [manifest.files.records.name, manifest.files.vectors.name, manifest.files.ann?.name]);
  const doomed = names.filter((name) => {
    const t = TEMP_FILE.exec(name);
    if (t) return !processAlive(Number(t[1]));
    const d = DATA_FILE.exec(name);
    if (!d || keep.has(name)) return false;
    const pid = Number(d[3]);
    return (ownToo && pid === process.pid) || !processAlive(pid);
  });
  await Promise.all(doomed.map((name) => rm(join(dir, name), { force: true })));
}
