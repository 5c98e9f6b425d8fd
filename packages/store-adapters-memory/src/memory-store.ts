import type {
  ChunkRecord,
  ScoredId,
  StoreCapabilities,
  StoreOpenOptions,
  StoreQuery,
  StoreRecord,
  VectorStoreAdapter,
} from "@hierdoc/core";
import { HierdocError, assertOpenDimensions, assertSameDimensions, assertSameEmbedder, storeErrorBuilder, vectorChecker } from "@hierdoc/core";
import { decodeRecord, encodeRecord } from "./record-codec.js";
import { readManifest, readSnapshot, removeStale, writeSnapshot, type Snapshot, type SnapshotManifest } from "./snapshot.js";
import { VectorMatrix } from "./vector-matrix.js";

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** Folder the index is persisted to on `flush()`; without it the store lives only in memory. */
  dir?: string;
}

const ADAPTER = "memory";

/**
 * The default vector store: records and vectors held in process (contiguous Float32 storage, brute-force
 * cosine with a bounded top-k), persisted to a folder as atomic snapshots on `flush()`. Each record is kept
 * as its compact UTF-8 JSON line (without `indexedText` when that is the default `{context}\n\n{content}`)
 * and parsed when read, so `get()` and `scan()` return fresh objects.
 *
 * Use it for local indexes up to a few hundred thousand chunks. Readers may open the folder while a writer
 * flushes; concurrent writers stay consistent but the last flush wins.
 */
export class MemoryStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen). */
  readonly capabilities: StoreCapabilities;
  private readonly dir: string | undefined;
  private embedderId = "";
  private matrix: VectorMatrix | undefined;
  /** Row-aligned: each record's compact JSON line ({@link encodeRecord}), id and source path. */
  private lines: Buffer[] = [];
  private ids: string[] = [];
  private sources: string[] = [];
  private rowById = new Map<string, number>();
  private generation = 0;
  private dirty = false;
  private flushing: Promise<void> = Promise.resolve();

  /** Creates a closed store; call {@link open} before anything else. */
  constructor(options: MemoryStoreOptions = {}) {
    this.dir = options.dir;
    this.capabilities = Object.freeze({
      vectorSearch: true,
      nativeHybrid: false,
      fullText: false,
      metadataFilter: true,
      deleteByFilter: true,
      persistent: options.dir !== undefined,
      maxBatchSize: 1_000_000,
    });
  }

  /**
   * Opens the store for an embedder: loads the snapshot in `dir` when there is one (cleaning stale temp
   * files), else starts empty.
   * @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH when the snapshot was built for another
   *   embedder or vector size; E_INDEX_CORRUPT naming the bad file; E_INVALID_ARGUMENT for bad dimensions.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    this.embedderId = options.embedderId;
    this.matrix = new VectorMatrix(options.dimensions);
    this.clearRows();
    this.generation = 0;
    this.dirty = false;
    if (this.dir === undefined) return;
    const dir = this.dir;
    let manifest = await this.wrapIo("open", () => readManifest(dir));
    await this.wrapIo("open", () => removeStale(dir));
    let snap: Snapshot | undefined;
    for (let attempt = 1; manifest !== undefined && snap === undefined; attempt++) {
      this.checkManifest(manifest, options);
      try {
        snap = await this.wrapIo("open", () => readSnapshot(dir, manifest as SnapshotManifest));
      } catch (err) {
        // A writer in another process may have replaced the snapshot between reading the manifest and
        // its files: read the new manifest and try again.
        const latest = attempt < 5 ? await this.wrapIo("open", () => readManifest(dir)) : undefined;
        if (latest === undefined || latest.files.records.name === manifest.files.records.name) throw err;
        manifest = latest;
      }
    }
    if (manifest === undefined || snap === undefined) return;
    this.matrix.adopt(snap.vectors, snap.ids.length);
    this.lines = snap.lines;
    this.ids = snap.ids;
    this.sources = snap.sources;
    snap.ids.forEach((id, i) => this.rowById.set(id, i));
    if (this.rowById.size !== snap.ids.length) {
      throw new HierdocError("E_INDEX_CORRUPT", `memory store index is corrupt: ${manifest.files.records.name}: duplicate record ids`, {
        details: { adapter: ADAPTER, operation: "open", file: manifest.files.records.name },
      });
    }
    this.generation = manifest.generation;
  }

  private checkManifest(manifest: SnapshotManifest, options: StoreOpenOptions): void {
    assertSameEmbedder(`index in ${this.dir}`, manifest.embedderId, options, this.error);
    assertSameDimensions(`index in ${this.dir}`, manifest.dimensions, options, this.error);
  }

  /**
   * Adds or replaces records by id; the whole batch is validated (and serialised) before any is applied.
   * Records are copied (as JSON): changing a record object afterwards does not change the store.
   * @throws HierdocError E_DIMENSION_MISMATCH for a vector of the wrong length; E_INVALID_ARGUMENT for a
   *   record without an id, a record that cannot be serialised as JSON, or a vector with NaN values.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    const matrix = this.ready("upsert");
    for (const { record, vector } of records) {
      if (typeof record?.id !== "string" || record.id.length === 0) {
        throw this.error("E_INVALID_ARGUMENT", "upsert", "every record needs a non-empty string id");
      }
      this.checkVector(vector, "upsert", record.id);
    }
    const lines = records.map(({ record }) => {
      try {
        return encodeRecord(record);
      } catch (err) {
        throw this.error("E_INVALID_ARGUMENT", "upsert", `record ${record.id} cannot be stored as JSON: ${(err as Error).message}`, {}, err);
      }
    });
    records.forEach(({ record, vector }, i) => {
      const row = this.rowById.get(record.id);
      if (row === undefined) {
        this.rowById.set(record.id, matrix.append(vector));
        this.lines.push(lines[i]);
        this.ids.push(record.id);
        this.sources.push(record.sourcePath);
      } else {
        matrix.write(row, vector);
        this.lines[row] = lines[i];
        this.sources[row] = record.sourcePath;
      }
    });
    if (records.length > 0) this.dirty = true;
  }

  /** Records for the given ids, in the order asked; missing ids are skipped. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    this.ready("get");
    const out: ChunkRecord[] = [];
    for (const id of ids) {
      const row = this.rowById.get(id);
      if (row !== undefined) out.push(decodeRecord(this.lines[row]));
    }
    return out;
  }

  /** Records with their stored (normalised) vectors; missing ids are skipped. */
  async getWithVectors(ids: string[]): Promise<StoreRecord[]> {
    const matrix = this.ready("getWithVectors");
    const out: StoreRecord[] = [];
    for (const id of ids) {
      const row = this.rowById.get(id);
      if (row !== undefined) out.push({ record: decodeRecord(this.lines[row]), vector: matrix.row(row) });
    }
    return out;
  }

  /** Removes records by id; unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    this.ready("deleteByIds");
    for (const id of ids) this.removeRow(id);
  }

  /** Removes every record whose `sourcePath` equals `sourcePath`. */
  async deleteBySource(sourcePath: string): Promise<void> {
    this.ready("deleteBySource");
    const ids = this.ids.filter((_, row) => this.sources[row] === sourcePath);
    for (const id of ids) this.removeRow(id);
  }

  /** Every record (without vectors), as of the call; each is parsed as it is yielded (none is kept). */
  async *scan(): AsyncIterable<ChunkRecord> {
    this.ready("scan");
    const snapshot = this.lines.slice();
    for (const line of snapshot) yield decodeRecord(line);
  }

  /** Number of records. */
  async count(): Promise<number> {
    this.ready("count");
    return this.ids.length;
  }

  /**
   * The `topK` records most cosine-similar to `query.vector`, best first, optionally restricted to
   * `query.filter.sourcePaths`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    const matrix = this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.min(Math.max(0, Math.floor(query.topK)), this.ids.length);
    if (k === 0) return [];
    const paths = query.filter?.sourcePaths;
    let accept: ((row: number) => boolean) | undefined;
    if (paths !== undefined) {
      const allowed = new Set(paths);
      const sources = this.sources;
      accept = (row) => allowed.has(sources[row]);
    }
    return matrix.search(query.vector, k, accept).map((hit) => ({ id: this.ids[hit.index], score: hit.score }));
  }

  /**
   * Writes a snapshot when there were changes since the last one (no-op without `dir`). Atomic: a crash
   * leaves the previous or the new snapshot.
   * @throws HierdocError E_STORE when the folder cannot be written.
   */
  async flush(): Promise<void> {
    this.ready("flush");
    const next = this.flushing.then(() => this.flushNow());
    this.flushing = next.catch(() => undefined);
    return next;
  }

  /** Flushes pending writes (when persistent) and releases memory. */
  async close(): Promise<void> {
    if (this.matrix === undefined) return;
    if (this.dir !== undefined && this.dirty) await this.flush();
    await this.flushing;
    this.matrix = undefined;
    this.clearRows();
  }

  private clearRows(): void {
    this.lines = [];
    this.ids = [];
    this.sources = [];
    this.rowById = new Map();
  }

  private async flushNow(): Promise<void> {
    if (this.dir === undefined || !this.dirty || this.matrix === undefined) return;
    const lines = this.lines.slice();
    const vectors = this.matrix.snapshot();
    const generation = this.generation + 1;
    this.dirty = false;
    try {
      const written = await writeSnapshot(this.dir, { embedderId: this.embedderId, dimensions: this.matrix.dimensions, generation }, lines, vectors);
      this.generation = written.generation;
    } catch (err) {
      this.dirty = true;
      throw this.error("E_STORE", "flush", `cannot write the index to ${this.dir}: ${(err as Error).message}`, {}, err);
    }
  }

  private removeRow(id: string): void {
    const row = this.rowById.get(id);
    if (row === undefined || this.matrix === undefined) return;
    this.rowById.delete(id);
    const moved = this.matrix.swapRemove(row);
    const lastLine = this.lines.pop() as Buffer;
    const lastId = this.ids.pop() as string;
    const lastSource = this.sources.pop() as string;
    if (moved !== -1) {
      this.lines[row] = lastLine;
      this.ids[row] = lastId;
      this.sources[row] = lastSource;
      this.rowById.set(lastId, row);
    }
    this.dirty = true;
  }

  private ready(operation: string): VectorMatrix {
    if (this.matrix === undefined) throw this.error("E_STORE", operation, "memory store is not open; call open() first");
    return this.matrix;
  }

  private readonly checkVector = vectorChecker(ADAPTER, () => (this.matrix as VectorMatrix).dimensions);

  private async wrapIo<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof HierdocError) throw err;
      throw this.error("E_STORE", operation, `cannot read the index in ${this.dir}: ${(err as Error).message}`, {}, err);
    }
  }

  private readonly error = storeErrorBuilder(ADAPTER);
}
