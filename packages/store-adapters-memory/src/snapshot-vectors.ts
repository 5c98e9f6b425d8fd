import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HierdocError } from "@hierdoc/core";
import { RowColumns, ROW_BYTES } from "./row-columns.js";
import { MANIFEST_FILE, type SnapshotManifest } from "./snapshot.js";

/**
 * The vectors of a memory-store snapshot folder packed in row order (row `r` is the HNSW graph's key `r`
 * and the `r`-th record `scan()` yields), read without opening the store; any format version.
 *
 * Use it in benchmarks and tools that compare the store's answers with an exact scan of the same
 * snapshot. Checks sizes only (open the store for checksums).
 * @throws HierdocError E_INDEX_CORRUPT when the folder holds no snapshot or a file has the wrong size.
 */
export function snapshotRowVectors(storeDir: string): { count: number; dimensions: number; vectors: Float32Array; manifest: SnapshotManifest } {
  const manifest = JSON.parse(readFileSync(join(storeDir, MANIFEST_FILE), "utf8")) as SnapshotManifest;
  const { count, dimensions: d } = manifest;
  const bad = (file: string): HierdocError =>
    new HierdocError("E_INDEX_CORRUPT", `memory store index is corrupt: ${file}: unexpected size`, { details: { adapter: "memory", file: join(storeDir, file) } });
  const floats = (name: string): Float32Array => {
    const buf = readFileSync(join(storeDir, name));
    const copy = new Uint8Array(buf.byteLength);
    copy.set(buf);
    return new Float32Array(copy.buffer);
  };
  if (manifest.version < 3) {
    const name = manifest.files.vectors?.name as string;
    const vectors = floats(name);
    if (vectors.length !== count * d) throw bad(name);
    return { count, dimensions: d, vectors, manifest };
  }
  const rowsName = manifest.files.rows?.name as string;
  const rowsBytes = readFileSync(join(storeDir, rowsName));
  if (rowsBytes.length !== count * ROW_BYTES) throw bad(rowsName);
  const { columns } = RowColumns.fromBytes(rowsBytes, count);
  const segments = (manifest.segments ?? []).map((s) => {
    const v = floats(s.vectors.name);
    if (v.length !== s.count * d) throw bad(s.vectors.name);
    return v;
  });
  const vectors = new Float32Array(count * d);
  for (let r = 0; r < count; r++) {
    const src = segments[columns.seg[r]];
    if (src === undefined) throw bad(rowsName);
    const at = columns.vindex[r] * d;
    vectors.set(src.subarray(at, at + d), r * d);
  }
  return { count, dimensions: d, vectors, manifest };
}
