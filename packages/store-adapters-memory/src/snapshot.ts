import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, readdir, readFile, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { HierdocError, processAlive } from "@hierdoc/core";

/** Name of the manifest file; it is written last, so its presence means a complete snapshot. */
export const MANIFEST_FILE = "manifest.json";
export const FORMAT = "hierdoc-memory-store";
/**
 * Format version written. Version 3 keeps records in append-only segments read on demand through a rows
 * file (offset table); versions 1 and 2 (one records file, parsed whole at open) are still read and are
 * converted to version 3 by the first flush, without rewriting their records file.
 */
export const VERSION = 3;
const READABLE_VERSIONS: readonly number[] = [1, 2, 3];
/** Data files: `KIND-GENERATION-PID.EXT`. */
export const DATA_FILE = /^(records|vectors|ann|rows|columns)-(\d+)-(\d+)\.(jsonl|f32|usearch|bin|json)$/;
const TEMP_FILE = /\.(\d+)\.tmp$/;

/** What the manifest says about checksums (version 3). */
export const CHECKS =
  "crc32 of the rows, columns, vectors and graph files is verified at open; records files are verified whole at open while their total is at most verifyBytesAtOpen (default 64 MiB), else each record line is verified against its crc32 in the rows file when it is read";

/** One data file listed in the manifest: `sha256` in versions 1-2 (and, besides `crc32`, for the graph), `crc32` in version 3. */
export interface SnapshotFileEntry {
  name: string;
  bytes: number;
  sha256?: string;
  crc32?: number;
}

/** One append-only segment (version 3): a records file and the vectors of its lines, in line order. */
export interface SnapshotSegmentEntry {
  records: SnapshotFileEntry;
  vectors: SnapshotFileEntry;
  /** Lines (and vectors) in the segment, live or not. */
  count: number;
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
  /**
   * Version 3: `rows` (per row: offset, segment, vector index, length, CRC-32, source index) and `columns`
   * (JSON ids and source table); versions 1-2: `records` and `vectors`. `ann` in both.
   */
  files: { records?: SnapshotFileEntry; vectors?: SnapshotFileEntry; rows?: SnapshotFileEntry; columns?: SnapshotFileEntry; ann?: SnapshotFileEntry };
  /** Version 3: the segments the rows point into. */
  segments?: SnapshotSegmentEntry[];
  /** Version 3: which checksums are verified when (see {@link CHECKS}). */
  checks?: string;
}

/** The graph's settings recorded in the manifest (a graph built with other ones is rebuilt on open). */
export interface SnapshotAnnEntry {
  library: "usearch";
  m: number;
  ef_construction: number;
  quantization: string;
  /**
   * Rows the graph file covers (keys `0..rows-1`; absent: all `count`). Fewer when flushes appended rows
   * after the graph was last written (see the store's GRAPH_SAVE_GROWTH): the open adds the rest.
   */
  rows?: number;
}

/** An `E_INDEX_CORRUPT` error naming `file` (inside `dir`). */
export function corrupt(dir: string, file: string, reason: string, cause?: unknown, operation = "open"): HierdocError {
  return new HierdocError("E_INDEX_CORRUPT", `memory store index is corrupt: ${file}: ${reason}`, {
    cause,
    details: { adapter: "memory", operation, file: join(dir, file) },
  });
}

/**
 * Opens a data file the manifest lists and checks its size against the entry.
 * @throws HierdocError E_INDEX_CORRUPT naming the file when it cannot be opened or its size differs (the handle is closed).
 */
export async function openListedFile(dir: string, entry: { name: string; bytes: number }): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(join(dir, entry.name), "r");
  } catch (err) {
    throw corrupt(dir, entry.name, "file listed in the manifest cannot be read", err);
  }
  const size = (await handle.stat()).size;
  if (size !== entry.bytes) {
    await handle.close();
    throw corrupt(dir, entry.name, `expected ${entry.bytes} bytes, found ${size}`);
  }
  return handle;
}

/** Every data file the manifest lists. */
export function manifestFiles(m: SnapshotManifest): string[] {
  const f = m.files;
  const names = [f.records?.name, f.vectors?.name, f.rows?.name, f.columns?.name, f.ann?.name];
  for (const s of m.segments ?? []) names.push(s.records.name, s.vectors.name);
  return names.filter((n): n is string => typeof n === "string");
}

const isEntry = (e: unknown): e is SnapshotFileEntry =>
  typeof e === "object" && e !== null && typeof (e as SnapshotFileEntry).name === "string" && Number.isInteger((e as SnapshotFileEntry).bytes);

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
    typeof m.files === "object" &&
    m.files !== null;
  if (!ok) throw corrupt(dir, MANIFEST_FILE, "missing or invalid fields");
  if (!READABLE_VERSIONS.includes(m.version)) throw corrupt(dir, MANIFEST_FILE, `unsupported format version ${m.version}`);
  const filesOk =
    m.version < 3
      ? isEntry(m.files.records) && isEntry(m.files.vectors)
      : isEntry(m.files.rows) &&
        isEntry(m.files.columns) &&
        Array.isArray(m.segments) &&
        m.segments.every((s) => isEntry(s?.records) && isEntry(s?.vectors) && Number.isInteger(s.count) && s.count >= 0);
  if (!filesOk) throw corrupt(dir, MANIFEST_FILE, "missing or invalid fields");
  return m;
}

/** Size, SHA-256 and CRC-32 of a file, streamed once (`sha256: false` skips the slower SHA-256). */
export async function hashFile(path: string, sha256 = true): Promise<{ bytes: number; sha256: string; crc32: number }> {
  const hash = sha256 ? createHash("sha256") : undefined;
  let bytes = 0;
  let crc = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 22 })) {
    hash?.update(chunk as Buffer);
    crc = crc32(chunk as Buffer, crc);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash?.digest("hex") ?? "", crc32: crc };
}

/**
 * The path of the manifest's HNSW graph file when it is listed and intact (size and CRC-32 match, or the
 * SHA-256 for a manifest written before version 3), else `undefined` (the graph is derived data: the caller
 * rebuilds it from the vectors).
 */
export async function checkedAnnFile(dir: string, manifest: SnapshotManifest): Promise<string | undefined> {
  const entry = manifest.files.ann;
  if (entry === undefined || typeof entry.name !== "string" || !DATA_FILE.test(entry.name)) return undefined;
  const path = join(dir, entry.name);
  try {
    const byCrc = typeof entry.crc32 === "number";
    const found = await hashFile(path, !byCrc);
    return found.bytes === entry.bytes && (byCrc ? found.crc32 === entry.crc32 : found.sha256 === entry.sha256) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes leftovers: temp files of processes that are gone, and data files the current manifest does not
 * list that belong to processes that are gone, or to this process when `ownToo` (except the names in
 * `stillUsed`: segments this process's rows still point into). Files of other live processes are never
 * touched: they may be a snapshot being written.
 */
export async function removeStale(dir: string, ownToo = false, stillUsed: ReadonlySet<string> = new Set()): Promise<void> {
  let names: string[];
  let manifest: SnapshotManifest | undefined;
  try {
    names = await readdir(dir);
    manifest = await readManifest(dir);
  } catch {
    return;
  }
  const keep = new Set(manifest === undefined ? [] : manifestFiles(manifest));
  const doomed = names.filter((name) => {
    const t = TEMP_FILE.exec(name);
    if (t) return !processAlive(Number(t[1]));
    const d = DATA_FILE.exec(name);
    if (!d || keep.has(name) || stillUsed.has(name)) return false;
    const pid = Number(d[3]);
    return (ownToo && pid === process.pid) || !processAlive(pid);
  });
  await Promise.all(doomed.map((name) => rm(join(dir, name), { force: true })));
}
