import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { AnnIndex } from "@hierdoc/ann";
import type { AnnLeg } from "./ann-leg.js";
import { checkedAnnFile, readManifest, type SnapshotAnnEntry, type SnapshotManifest } from "./snapshot.js";
import { replaceGraph, type GraphWrite } from "./snapshot-writer.js";
import type { VectorMatrix } from "./vector-matrix.js";

/**
 * How the store got its HNSW graph at open: `viewed` (the saved graph memory-mapped, nothing copied),
 * `extended` (the saved graph lacked rows appended after it was written, e.g. by a killed ingest: loaded
 * and the rows added), `none` (exact search: below the threshold, `ann: false`, or no usable graph; see
 * `reason`; the next write or `buildAnnIndex()` builds one).
 */
export interface MemoryOpenInfo {
  graph: "viewed" | "extended" | "none";
  /** Why the graph was extended or not used. */
  reason?: string;
}

/** True when the manifest lists a graph that covers all its rows (the store can open it memory-mapped). */
export function graphCoversAll(manifest: SnapshotManifest): boolean {
  return manifest.files.ann !== undefined && manifest.ann !== undefined && (manifest.ann.rows ?? manifest.count) === manifest.count;
}

/**
 * Opens the manifest's graph for `leg` when it is intact and built with the leg's settings: memory-mapped
 * when it covers all `count` rows, else loaded and extended with the rows appended since it was saved
 * (taken from `matrix`, which then holds every row; it may be empty when the graph covers all rows). Never
 * throws: a graph is derived data, so a missing or damaged one only leaves searches exact (`reason` says why).
 */
export async function openSavedGraph(dir: string, manifest: SnapshotManifest, leg: AnnLeg, matrix: VectorMatrix, count: number): Promise<MemoryOpenInfo> {
  const s = manifest.ann;
  const entry = manifest.files.ann;
  if (s === undefined || entry === undefined) return { graph: "none", reason: "no graph saved" };
  const c = leg.config;
  if (s.m !== c.m || s.ef_construction !== c.ef_construction || s.quantization !== c.quantization) {
    return { graph: "none", reason: `graph saved with other settings (m ${s.m}, ef_construction ${s.ef_construction}, ${s.quantization})` };
  }
  const rows = s.rows ?? manifest.count;
  if (!Number.isInteger(rows) || rows < 0 || rows > count) return { graph: "none", reason: `graph covers ${rows} rows, the store has ${count}` };
  const path = await checkedAnnFile(dir, manifest);
  if (path === undefined) return { graph: "none", reason: `graph file ${entry.name} is missing or damaged` };
  try {
    const index = rows === count ? AnnIndex.view(path, leg.indexOptions()) : AnnIndex.load(path, leg.indexOptions());
    if (index.size !== rows) return { graph: "none", reason: `graph file ${entry.name} holds ${index.size} vectors, expected ${rows}` };
    const added = leg.adopt(index, entry, matrix);
    if (added === 0) return { graph: "viewed" };
    return { graph: "extended", reason: `graph file ${entry.name} covers ${rows} of ${count} rows (rows appended after it was saved, e.g. by a killed ingest): ${added} added` };
  } catch (err) {
    return { graph: "none", reason: `graph file ${entry.name} cannot be read: ${(err as Error).message}` };
  }
}

/** Writes `leg`'s graph to a temp file in `dir` (synchronously, so it matches the rows at this instant). */
export function saveGraphTemp(dir: string, leg: AnnLeg, rows: number): { tempPath: string; settings: SnapshotAnnEntry } {
  mkdirSync(dir, { recursive: true });
  const tempPath = join(dir, `ann-next.usearch.${process.pid}.tmp`);
  try {
    leg.save(tempPath);
  } catch (err) {
    rmSync(tempPath, { force: true });
    throw err;
  }
  return { tempPath, settings: graphSettings(leg, rows) };
}

/** The manifest's `ann` entry for `leg`'s graph covering rows `0..rows-1`. */
export function graphSettings(leg: AnnLeg, rows: number): SnapshotAnnEntry {
  const { m, ef_construction, quantization } = leg.config;
  return { library: "usearch", m, ef_construction, quantization, rows };
}

/** The graph of the generation a flush writes (`final`: at close): saved now, the file on disk kept, or none. */
export function graphForFlush(dir: string, leg: AnnLeg, rows: number, final: boolean): GraphWrite | undefined {
  const plan = leg.flushPlan(rows, final);
  if (plan.kind === "none") return undefined;
  if (plan.kind === "keep") return { kept: plan.file, settings: graphSettings(leg, plan.rows) };
  return saveGraphTemp(dir, leg, rows);
}

/**
 * Writes the graph that flushes deferred into generation `generation` (only the graph file and the
 * manifest change), when that generation is still the one on disk.
 * @throws the file system's error when the graph or the manifest cannot be written.
 */
export async function saveLaggingGraph(dir: string, generation: number, leg: AnnLeg, rows: number): Promise<void> {
  const graph = saveGraphTemp(dir, leg, rows);
  if (await replaceGraph(dir, generation, graph)) {
    const m = await readManifest(dir);
    if (m?.files.ann !== undefined) leg.savedAs(m.files.ann, rows);
  }
}
