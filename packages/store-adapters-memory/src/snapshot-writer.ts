import { openSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { syncDir, syncFile, writeDurable } from "@hierdoc/core";
import type { FlushPlan, Segment } from "./record-rows.js";
import { CHECKS, FORMAT, hashFile, MANIFEST_FILE, manifestFiles, readManifest, removeStale, VERSION, type SnapshotAnnEntry, type SnapshotFileEntry, type SnapshotManifest, type SnapshotSegmentEntry } from "./snapshot.js";

/** The graph of a generation: a new file written to `tempPath`, or the file the previous manifest lists (`kept`, not rewritten). */
export type GraphWrite = { tempPath: string; settings: SnapshotAnnEntry } | { kept: SnapshotFileEntry; settings: SnapshotAnnEntry };

/** The manifest's header fields a writer provides. */
export interface GenerationHeader {
  embedderId: string;
  dimensions: number;
  generation: number;
}

/**
 * Writes the generation `plan` describes: the new segment (records + vectors) when there is one, the rows
 * and columns files and the graph, each to `NAME.PID.tmp`, fsynced and renamed; then the manifest the same
 * way (last); then this process's data files the manifest no longer lists are removed. Kept segments are
 * not rewritten, nor is a kept graph. A crash at any point leaves the previous manifest pointing at complete files, or the new
 * one. Returns the manifest and the new segment (with a read descriptor on its records file).
 */
export async function writeGeneration(
  dir: string,
  header: GenerationHeader,
  plan: FlushPlan,
  kept: readonly SnapshotSegmentEntry[],
  ann?: GraphWrite,
): Promise<{ manifest: SnapshotManifest; segment?: Segment }> {
  await mkdir(dir, { recursive: true });
  const onDisk = await readManifest(dir).catch(() => undefined);
  const gen = Math.max(header.generation, (onDisk?.generation ?? 0) + 1);
  const name = (kind: string, ext: string): string => `${kind}-${gen}-${process.pid}.${ext}`;
  const put = async (file: string, bytes: Uint8Array): Promise<SnapshotFileEntry> => {
    const tmp = join(dir, `${file}.${process.pid}.tmp`);
    await writeDurable(tmp, bytes);
    await rename(tmp, join(dir, file));
    return { name: file, bytes: bytes.byteLength, crc32: crc32(bytes) };
  };
  const segments = kept.map(({ records, vectors, count }) => ({ records, vectors, count }));
  let added: SnapshotSegmentEntry | undefined;
  if (plan.segment !== undefined) {
    const v = plan.segment.vectors;
    const [records, vectors] = await Promise.all([
      put(name("records", "jsonl"), plan.segment.records),
      put(name("vectors", "f32"), new Uint8Array(v.buffer, v.byteOffset, v.byteLength)),
    ]);
    added = { records, vectors, count: plan.segment.offsets.length };
    segments.push(added);
  }
  const [rows, columns] = await Promise.all([put(name("rows", "bin"), plan.rows), put(name("columns", "json"), plan.columns)]);
  const annEntry = ann === undefined ? undefined : await placeGraph(dir, name("ann", "usearch"), ann);
  await syncDir(dir);
  const manifest: SnapshotManifest = {
    format: FORMAT,
    version: VERSION,
    embedderId: header.embedderId,
    dimensions: header.dimensions,
    count: plan.count,
    generation: gen,
    writtenAt: new Date().toISOString(),
    files: { rows, columns, ...(annEntry ? { ann: annEntry } : {}) },
    segments,
    checks: CHECKS,
    ...(annEntry && ann ? { ann: ann.settings } : {}),
  };
  const tmp = join(dir, `${MANIFEST_FILE}.${process.pid}.tmp`);
  await writeDurable(tmp, Buffer.from(JSON.stringify(manifest, null, 2) + "\n", "utf8"));
  await rename(tmp, join(dir, MANIFEST_FILE));
  await syncDir(dir);
  const segment = added === undefined ? undefined : { ...added, fd: openSync(join(dir, added.records.name), "r") };
  await removeStale(dir, true, new Set(manifestFiles(manifest)));
  return { manifest, segment };
}

/** Renames a new graph file into place (fsynced) and returns its entry, or returns the kept file's entry. */
async function placeGraph(dir: string, annName: string, ann: GraphWrite): Promise<SnapshotFileEntry> {
  if ("kept" in ann) return ann.kept;
  await syncFile(ann.tempPath);
  await rename(ann.tempPath, join(dir, annName));
  return { name: annName, ...(await hashFile(join(dir, annName))) };
}

/**
 * Replaces only the graph of the generation on disk (a close writing a graph whose saving flushes
 * deferred): the graph file, then the manifest with the same generation and records, so state derived
 * from the records (stamped by generation) stays current. Does nothing and returns false when the folder
 * holds another generation than `generation` (another writer flushed since): the graph is derived data.
 */
export async function replaceGraph(dir: string, generation: number, ann: { tempPath: string; settings: SnapshotAnnEntry }): Promise<boolean> {
  const onDisk = await readManifest(dir);
  // Free: a generation this process wrote with a new graph file does not lag, so it is never replaced.
  const annName = `ann-${generation}-${process.pid}.usearch`;
  if (onDisk === undefined || onDisk.generation !== generation || onDisk.files.ann?.name === annName) {
    await rm(ann.tempPath, { force: true });
    return false;
  }
  const entry = await placeGraph(dir, annName, ann);
  await syncDir(dir);
  const manifest: SnapshotManifest = { ...onDisk, writtenAt: new Date().toISOString(), files: { ...onDisk.files, ann: entry }, ann: ann.settings };
  const tmp = join(dir, `${MANIFEST_FILE}.${process.pid}.tmp`);
  await writeDurable(tmp, Buffer.from(JSON.stringify(manifest, null, 2) + "\n", "utf8"));
  await rename(tmp, join(dir, MANIFEST_FILE));
  await syncDir(dir);
  await removeStale(dir, true, new Set(manifestFiles(manifest)));
  return true;
}
