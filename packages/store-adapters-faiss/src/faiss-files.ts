import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { HierdocError, syncDir, syncFile, writeDurable } from "@hierdoc/core";
import { AnnIndex, type AnnIndexOptions } from "@hierdoc/ann";

/** One record held by the store: stable label, id, source path, record JSON and unit vector. */
export interface StoredEntry {
  label: number;
  id: string;
  sourcePath: string;
  json: string;
  vector: Float32Array;
}

/** A data file listed in the manifest. */
export interface FaissFileEntry {
  name: string;
  bytes: number;
  sha256: string;
}

/** `manifest.json` of a faiss store folder; written last, so its presence means a complete index. */
export interface FaissManifest {
  format: "hierdoc-faiss-store";
  version: 1;
  embedderId: string;
  dimensions: number;
  count: number;
  nextLabel: number;
  generation: number;
  settings: { indexType: string; library: "usearch"; m: number; efConstruction: number; quantization: string };
  files: { records: FaissFileEntry; graph?: FaissFileEntry };
}

const MANIFEST = "manifest.json";
const DATA_FILE = /^(records-\d+\.jsonl|graph-\d+\.usearch)$/;

function corrupt(dir: string, file: string, reason: string, cause?: unknown): HierdocError {
  return new HierdocError("E_INDEX_CORRUPT", `faiss store index is corrupt: ${file}: ${reason}`, { cause, details: { adapter: "faiss", operation: "open", file: join(dir, file) } });
}

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");


/**
 * Writes generation `manifest.generation`: the records file (one JSON line per record: label, base64 vector,
 * record) and the graph, each to a temp file, fsynced and renamed; then the manifest the same way; then
 * removes the files of older generations.
 */
export async function writeFolder(dir: string, manifest: Omit<FaissManifest, "files">, entries: readonly StoredEntry[], graph: AnnIndex | undefined): Promise<void> {
  await mkdir(dir, { recursive: true });
  const g = manifest.generation;
  const tmp = (name: string): string => join(dir, `${name}.${process.pid}.tmp`);
  const recordsName = `records-${g}.jsonl`;
  const graphName = `graph-${g}.usearch`;
  // The graph first and synchronously, so it matches `entries` (taken by the caller at the same instant).
  if (graph !== undefined) graph.save(tmp(graphName));
  const lines = entries.map((e) => `{"label":${e.label},"vector":"${Buffer.from(e.vector.buffer, e.vector.byteOffset, e.vector.byteLength).toString("base64")}","record":${e.json}}\n`);
  const recordBytes = Buffer.from(lines.join(""), "utf8");
  await writeDurable(tmp(recordsName), recordBytes);
  await rename(tmp(recordsName), join(dir, recordsName));
  let graphEntry: FaissFileEntry | undefined;
  if (graph !== undefined) {
    await syncFile(tmp(graphName));
    await rename(tmp(graphName), join(dir, graphName));
    const bytes = await readFile(join(dir, graphName));
    graphEntry = { name: graphName, bytes: bytes.length, sha256: sha256(bytes) };
  }
  await syncDir(dir);
  const full: FaissManifest = { ...manifest, files: { records: { name: recordsName, bytes: recordBytes.length, sha256: sha256(recordBytes) }, ...(graphEntry ? { graph: graphEntry } : {}) } };
  await writeDurable(tmp(MANIFEST), Buffer.from(JSON.stringify(full, null, 2) + "\n"));
  await rename(tmp(MANIFEST), join(dir, MANIFEST));
  await syncDir(dir);
  const keep = new Set([recordsName, graphEntry?.name]);
  for (const name of await readdir(dir)) {
    if ((DATA_FILE.test(name) && !keep.has(name)) || name.endsWith(".tmp")) await rm(join(dir, name), { force: true });
  }
}

/**
 * Reads a folder written by {@link writeFolder}: `undefined` when it holds no index yet. The graph is
 * returned only when its file is intact and was built with `settings`; otherwise the caller rebuilds it.
 * @throws HierdocError E_INDEX_CORRUPT naming the manifest or records file when damaged.
 */
export async function readFolder(
  dir: string,
  settings: FaissManifest["settings"],
  annOptions: AnnIndexOptions,
): Promise<{ manifest: FaissManifest; entries: StoredEntry[]; graph?: AnnIndex } | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  let manifest: FaissManifest;
  try {
    manifest = JSON.parse(text) as FaissManifest;
  } catch (err) {
    throw corrupt(dir, MANIFEST, "not valid JSON", err);
  }
  if (manifest?.format !== "hierdoc-faiss-store" || typeof manifest.files?.records?.name !== "string" || !Number.isInteger(manifest.count)) {
    throw corrupt(dir, MANIFEST, "missing or invalid fields");
  }
  const entry = manifest.files.records;
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, entry.name));
  } catch (err) {
    throw corrupt(dir, entry.name, "file listed in the manifest cannot be read", err);
  }
  if (bytes.length !== entry.bytes || sha256(bytes) !== entry.sha256) throw corrupt(dir, entry.name, "size or checksum mismatch");
  const entries: StoredEntry[] = [];
  let lineNo = 0;
  for (const line of bytes.toString("utf8").split("\n")) {
    lineNo++;
    if (line.length === 0) continue;
    const cut = line.indexOf(',"record":');
    const json = line.slice(cut + 10, -1);
    let head: { label: number; vector: string };
    let record: { id: string; sourcePath: string };
    try {
      head = JSON.parse(line.slice(0, cut) + "}") as { label: number; vector: string };
      record = JSON.parse(json) as { id: string; sourcePath: string };
    } catch (err) {
      throw corrupt(dir, entry.name, `line ${lineNo} is not valid JSON`, err);
    }
    if (typeof record?.id !== "string" || !Number.isInteger(head.label)) throw corrupt(dir, entry.name, `line ${lineNo} is not a record with a string id and a label`);
    const raw = Buffer.from(head.vector, "base64");
    entries.push({ label: head.label, id: record.id, sourcePath: record.sourcePath, json, vector: new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)) });
  }
  if (entries.length !== manifest.count) throw corrupt(dir, entry.name, `expected ${manifest.count} records, found ${entries.length}`);
  const g = manifest.files.graph;
  const s = manifest.settings;
  const same = s?.indexType === settings.indexType && s.m === settings.m && s.efConstruction === settings.efConstruction && s.quantization === settings.quantization;
  if (!same || g === undefined || settings.indexType !== "hnsw") return { manifest, entries };
  try {
    const graphBytes = await readFile(join(dir, g.name));
    if (graphBytes.length !== g.bytes || sha256(graphBytes) !== g.sha256) return { manifest, entries };
    return { manifest, entries, graph: AnnIndex.load(join(dir, g.name), annOptions) };
  } catch {
    return { manifest, entries };
  }
}
