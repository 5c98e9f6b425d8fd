import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import type { RowColumns } from "./row-columns.js";
import { corrupt, type SnapshotManifest } from "./snapshot.js";
import { dotAt, normalisedQuery, type RowScorer } from "./vector-matrix.js";

const VECTOR_BLOCK_BYTES = 64 * 1024 * 1024;

/** Where each row's vector is: its segment and its index in that segment's vectors file. */
export type RowPlaces = Pick<RowColumns, "seg" | "vindex">;

/**
 * The vectors files of a version-3 snapshot's segments, open for reading (descriptors kept, so a writer
 * deleting a file does not break reads): read whole into row order ({@link readAll}, CRC-32 checked), or
 * row by row with positional reads to score a few rows exactly ({@link scoreRows}: the re-scoring of
 * graph candidates without holding every vector in memory; sizes are checked at open, contents only by
 * `readAll`). Scores equal the in-memory matrix's (same arithmetic).
 */
export class SegmentVectors implements RowScorer {
  private readonly row: Float32Array;
  private readonly rowBytes: Uint8Array;

  private constructor(
    private readonly dir: string,
    private readonly manifest: SnapshotManifest,
    private readonly columns: RowPlaces,
    private readonly fds: number[],
  ) {
    this.row = new Float32Array(manifest.dimensions);
    this.rowBytes = new Uint8Array(this.row.buffer);
  }

  /**
   * Opens every segment's vectors file and checks its size.
   * @throws HierdocError E_INDEX_CORRUPT naming a file that is missing or of the wrong size.
   */
  static open(dir: string, manifest: SnapshotManifest, columns: RowPlaces): SegmentVectors {
    const d = manifest.dimensions;
    const fds: number[] = [];
    try {
      for (const { vectors: entry, count } of manifest.segments ?? []) {
        if (entry.bytes !== count * d * 4) throw corrupt(dir, entry.name, `expected ${count * d} floats for ${count} records`);
        let fd: number;
        try {
          fd = openSync(join(dir, entry.name), "r");
        } catch (err) {
          throw corrupt(dir, entry.name, "file listed in the manifest cannot be read", err);
        }
        fds.push(fd);
        const size = fstatSync(fd).size;
        if (size !== entry.bytes) throw corrupt(dir, entry.name, `expected ${entry.bytes} bytes, found ${size}`);
      }
    } catch (err) {
      for (const fd of fds) closeSync(fd);
      throw err;
    }
    return new SegmentVectors(dir, manifest, columns, fds);
  }

  /** Exact scores of `rows` against `query`, each row read from its segment with one positional read. */
  scoreRows(query: Float32Array, rows: readonly number[]): number[] {
    const d = this.manifest.dimensions;
    const q = normalisedQuery(query, d);
    return rows.map((r) => {
      const seg = this.columns.seg[r];
      this.readExactly(seg, this.rowBytes, this.columns.vindex[r] * d * 4);
      return dotAt(this.row, 0, q, d);
    });
  }

  /**
   * Every live vector in row order (`count × dimensions` floats), each file read in 64 MB blocks and
   * CRC-32 checked; a single segment in row order is read straight into the array.
   * @throws HierdocError E_INDEX_CORRUPT naming a file that ends early or fails its checksum.
   */
  readAll(): Float32Array {
    const d = this.manifest.dimensions;
    const n = this.manifest.count;
    const columns = this.columns;
    const out = new Float32Array(n * d);
    const entries = this.manifest.segments ?? [];
    const inOrder = entries.length === 1 && entries[0].count === n && columns.vindex.subarray(0, n).every((v, r) => v === r);
    const perBlock = Math.max(1, Math.floor(VECTOR_BLOCK_BYTES / (d * 4)));
    const block = inOrder ? undefined : new Float32Array(perBlock * d);
    for (let s = 0; s < entries.length; s++) {
      const { vectors: entry, count } = entries[s];
      let rowOf: Int32Array | undefined;
      if (!inOrder) {
        rowOf = new Int32Array(count).fill(-1);
        for (let r = 0; r < n; r++) if (columns.seg[r] === s) rowOf[columns.vindex[r]] = r;
      }
      let crc = 0;
      for (let first = 0; first < count; first += perBlock) {
        const rows = Math.min(perBlock, count - first);
        const target = block ?? out.subarray(first * d, (first + rows) * d);
        const bytes = new Uint8Array(target.buffer, target.byteOffset, rows * d * 4);
        this.readExactly(s, bytes, first * d * 4);
        crc = crc32(bytes, crc);
        if (block !== undefined && rowOf !== undefined) {
          for (let i = 0; i < rows; i++) {
            const r = rowOf[first + i];
            if (r >= 0) out.set(block.subarray(i * d, (i + 1) * d), r * d);
          }
        }
      }
      if (crc !== entry.crc32) throw corrupt(this.dir, entry.name, "checksum mismatch");
    }
    return out;
  }

  /**
   * What another thread needs to open the same files ({@link SegmentVectors.open}): the folder, the
   * manifest and a copy of the rows' places (8 bytes per row).
   */
  openArgs(): { dir: string; manifest: SnapshotManifest; places: { seg: Uint32Array; vindex: Uint32Array } } {
    const n = this.manifest.count;
    return { dir: this.dir, manifest: this.manifest, places: { seg: this.columns.seg.slice(0, n), vindex: this.columns.vindex.slice(0, n) } };
  }

  /** Closes the files. */
  close(): void {
    for (const fd of this.fds.splice(0)) closeSync(fd);
  }

  private readExactly(seg: number, bytes: Uint8Array, position: number): void {
    const name = this.manifest.segments?.[seg]?.vectors.name ?? "vectors";
    for (let at = 0; at < bytes.length; ) {
      let read: number;
      try {
        read = readSync(this.fds[seg], bytes, at, bytes.length - at, position + at);
      } catch (err) {
        throw corrupt(this.dir, name, "file listed in the manifest cannot be read", err);
      }
      if (read === 0) throw corrupt(this.dir, name, "file ends early");
      at += read;
    }
  }
}
