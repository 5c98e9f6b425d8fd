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
import { join } from "node:path";
import { resolveAnnOptions } from "@hierdoc/ann";
import { graphCoversAll, graphForFlush, openSavedGraph, saveLaggingGraph, type MemoryOpenInfo } from "./ann-files.js";
import { AnnLeg, overFetch, resolveMemoryAnn, type ResolvedMemoryAnn } from "./ann-leg.js";
import { decodeRecord, encodeRecord } from "./record-codec.js";
import { DEFAULT_COMPACTION, type MemoryStoreOptions } from "./memory-store-options.js";
import { RecordRows, type CompactionPolicy } from "./record-rows.js";
import { DEFAULT_VERIFY_BYTES_AT_OPEN } from "./segment-snapshot.js";
import type { SegmentVectors } from "./segment-vectors.js";
import type { SnapshotManifest } from "./snapshot.js";
import { loadLatestSnapshot } from "./snapshot-loader.js";
import { writeGeneration } from "./snapshot-writer.js";
import { wantsSearchThread, type SearchThread } from "./search-thread.js";
import { ThreadSearches } from "./thread-searches.js";
import { VectorMatrix, type RowScorer } from "./vector-matrix.js";

const ADAPTER = "memory";

/**
 * The default vector store: vectors held in process (contiguous Float32 storage, brute-force cosine with a
 * bounded top-k, or an HNSW graph past a threshold), records kept on disk in append-only segment files and
 * read on demand through an offset table (only ids, source paths and locations are in memory), persisted
 * to a folder on `flush()`: each flush appends the records changed since the last one and switches the
 * manifest atomically. Each record is stored as its compact UTF-8 JSON line (without `indexedText` when
 * that is the default `{context}\n\n{content}`) and parsed when read, so `get()` and `scan()` return fresh objects.
 *
 * Use it for local indexes up to about a million chunks. Readers may open the folder while a writer
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
  /**
   * The snapshot's vectors files while the matrix is not loaded yet: a store opened with a graph that
   * covers every row re-scores graph candidates with positional reads and loads the matrix on the first
   * operation that needs every vector (a write, an exact scan, `getWithVectors`).
   */
  private vectorFiles: SegmentVectors | undefined;
  /** Row-aligned with the matrix: ids, source paths and where each record line is. */
  private rows: RecordRows;
  private readonly verifyBytesAtOpen: number;
  private readonly compaction: CompactionPolicy;
  /** A version 1-2 folder was opened: the next flush writes it as version 3 even without changes. */
  private upgradePending = false;
  private readonly annConfig: ResolvedMemoryAnn | undefined;
  private ann: AnnLeg | undefined;
  private generation = 0;
  private dirty = false;
  /** This process flushed since open: its close writes a graph whose saving those flushes deferred (a reader's close writes nothing). */
  private flushedSinceOpen = false;
  /** How the last {@link open} got its HNSW graph (see {@link MemoryOpenInfo}). */
  openInfo: MemoryOpenInfo = { graph: "none" };
  private flushing: Promise<void> = Promise.resolve();
  /** Searches the memory-mapped graph off the main thread while the store is unchanged since open (see `ann.search_thread`). */
  private readonly threads: ThreadSearches;

  /** Creates a closed store; call {@link open} before anything else. */
  constructor(options: MemoryStoreOptions = {}) {
    this.dir = options.dir;
    this.threads = new ThreadSearches(options.dir);
    this.rows = new RecordRows(options.dir ?? "");
    this.verifyBytesAtOpen = options.verifyBytesAtOpen ?? DEFAULT_VERIFY_BYTES_AT_OPEN;
    this.compaction = { ...DEFAULT_COMPACTION, ...options.compaction };
    this.annConfig = resolveMemoryAnn(options.ann);
    if (this.annConfig !== undefined) {
      // Checked here so a bad setting fails at construction, not at the first large upsert.
      resolveAnnOptions(new AnnLeg(this.annConfig, 1).indexOptions());
      if (!Number.isInteger(this.annConfig.threshold) || this.annConfig.threshold < 0) {
        throw new HierdocError("E_INVALID_ARGUMENT", `ann.threshold must be a non-negative integer, got ${String(this.annConfig.threshold)}`, { details: { adapter: ADAPTER, key: "ann.threshold" } });
      }
    }
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
    this.ann = this.annConfig === undefined ? undefined : new AnnLeg(this.annConfig, options.dimensions);
    this.generation = 0;
    this.dirty = false;
    this.upgradePending = false;
    this.flushedSinceOpen = false;
    this.openInfo = { graph: "none", reason: this.ann === undefined ? "ann: false" : "no snapshot" };
    if (this.dir === undefined) return;
    const dir = this.dir;
    const ann = this.ann;
    const latest = await this.wrapIo("open", () =>
      loadLatestSnapshot(dir, {
        check: (m) => this.checkManifest(m, options),
        verifyBytesAtOpen: this.verifyBytesAtOpen,
        vectors: (m) => (ann !== undefined && m.count >= ann.config.threshold && graphCoversAll(m) ? "open" : "read"),
      }),
    );
    if (latest === undefined) return;
    const { manifest, loaded } = latest;
    if (loaded.vectors !== undefined) this.matrix.adopt(loaded.vectors, loaded.ids.length);
    this.vectorFiles = loaded.vectorFiles;
    if (this.rows.adopt(loaded) > 0) {
      const file = manifest.files.columns?.name ?? manifest.files.records?.name ?? "";
      this.clearRows();
      throw new HierdocError("E_INDEX_CORRUPT", `memory store index is corrupt: ${file}: duplicate record ids`, {
        details: { adapter: ADAPTER, operation: "open", file },
      });
    }
    this.generation = manifest.generation;
    this.upgradePending = manifest.version < 3;
    await this.openAnn(manifest);
    // Exact searches need every vector: without a usable graph the matrix is loaded now.
    if (this.openInfo.graph !== "viewed") this.vectors("open");
    else this.startSearchThread(manifest);
  }

  /** The running search thread, if any (diagnostics and tests; see `ann.search_thread`). */
  get searchThread(): SearchThread | undefined {
    return this.threads.current;
  }

  /** Starts the search thread in the background when `ann.search_thread` asks for one (the graph is viewed). */
  private startSearchThread(manifest: SnapshotManifest): void {
    const ann = this.ann;
    const files = this.vectorFiles;
    const graph = manifest.files.ann;
    if (ann === undefined || files === undefined || graph === undefined || !wantsSearchThread(ann.config.search_thread, this.rows.size)) return;
    const { dir, manifest: m, places } = files.openArgs();
    this.threads.start({ graphPath: join(dir, graph.name), indexOptions: ann.indexOptions(), ann: ann.config, rows: this.rows.size, dir, manifest: m, places });
  }

  /** Stops the search thread (before a change, or at close) and invalidates answers still in flight. */
  private stopSearchThread(): Promise<void> {
    return this.threads.stop();
  }

  /** The matrix with every vector, loaded from the vectors files first when the open deferred it. */
  /** {@link vectors} for a change: a memory-mapped graph is made writable first (see {@link AnnLeg.materialize}). */
  private writableVectors(operation: string): VectorMatrix {
    const matrix = this.vectors(operation);
    void this.stopSearchThread();
    this.ann?.materialize(matrix);
    return matrix;
  }

  private vectors(operation: string): VectorMatrix {
    const matrix = this.ready(operation);
    const files = this.vectorFiles;
    if (files !== undefined) {
      const all = files.readAll();
      files.close();
      this.vectorFiles = undefined;
      matrix.adopt(all, this.rows.size);
    }
    return matrix;
  }

  /**
   * Opens the snapshot's graph when it is intact and built with the same settings: memory-mapped (no copy;
   * the first write loads it), or loaded and extended when flushes deferred saving rows appended since
   * (see {@link openInfo}). Otherwise searches stay exact and the graph is built by the next upsert (and
   * saved by the next flush), or by {@link buildAnnIndex}: a read-only process over an index written without
   * a graph does not pay for a build.
   */
  private async openAnn(manifest: SnapshotManifest): Promise<void> {
    const ann = this.ann;
    const matrix = this.matrix as VectorMatrix;
    const count = this.rows.size;
    if (ann === undefined) return;
    if (count < ann.config.threshold) {
      this.openInfo = { graph: "none", reason: `${count} records, below ann.threshold ${ann.config.threshold}` };
      return;
    }
    // Extending a graph that lacks rows needs them in the matrix (it is loaded unless the graph covers all).
    this.openInfo = await openSavedGraph(this.dir as string, manifest, ann, matrix, count);
  }

  /**
   * Builds the HNSW graph now when `ann` is on, the store holds at least `ann.threshold` records and no
   * graph is loaded (e.g. an index written before graphs were saved, or with other settings); the next
   * flush after a write saves it. Returns whether searches now use a graph.
   * @throws HierdocError E_STORE when the store is not open or the ANN library cannot load.
   */
  async buildAnnIndex(): Promise<boolean> {
    const matrix = this.vectors("buildAnnIndex");
    this.ann?.buildIfDue(matrix);
    return this.ann?.active(matrix.length) ?? false;
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
    const matrix = this.writableVectors("upsert");
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
    const firstNew = matrix.length;
    records.forEach(({ record, vector }, i) => {
      const row = this.rows.rowById.get(record.id);
      if (row === undefined) {
        matrix.append(vector);
        this.rows.add(record.id, record.sourcePath, lines[i]);
      } else {
        matrix.write(row, vector);
        this.rows.replace(row, record.sourcePath, lines[i]);
        if (row < firstNew) this.ann?.written(matrix, row);
      }
    });
    if (this.ann?.built) this.ann.appended(matrix, firstNew);
    else this.ann?.buildIfDue(matrix);
    if (records.length > 0) this.dirty = true;
  }

  /**
   * Records for the given ids, in the order asked; missing ids are skipped. Flushed records are read from
   * their segment file.
   * @throws HierdocError E_INDEX_CORRUPT naming the records file when a line read does not match its CRC-32.
   */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    this.ready("get");
    const out: ChunkRecord[] = [];
    for (const id of ids) {
      const row = this.rows.rowById.get(id);
      if (row !== undefined) out.push(decodeRecord(this.rows.line(row)));
    }
    return out;
  }

  /** Records with their stored (normalised) vectors; missing ids are skipped. */
  async getWithVectors(ids: string[]): Promise<StoreRecord[]> {
    const matrix = this.vectors("getWithVectors");
    const out: StoreRecord[] = [];
    for (const id of ids) {
      const row = this.rows.rowById.get(id);
      if (row !== undefined) out.push({ record: decodeRecord(this.rows.line(row, "getWithVectors")), vector: matrix.row(row) });
    }
    return out;
  }

  /** Removes records by id; unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    this.writableVectors("deleteByIds");
    for (const id of ids) this.removeRow(id);
  }

  /** Removes every record whose `sourcePath` equals `sourcePath`. */
  async deleteBySource(sourcePath: string): Promise<void> {
    this.writableVectors("deleteBySource");
    const sources = this.rows.sources;
    const ids = this.rows.ids.filter((_, row) => sources[row] === sourcePath);
    for (const id of ids) this.removeRow(id);
  }

  /**
   * Every record (without vectors), as of the call, in row order; lines are read from the segment files in
   * large blocks and each is parsed as it is yielded (none is kept).
   */
  async *scan(): AsyncIterable<ChunkRecord> {
    this.ready("scan");
    for (const line of this.rows.lines()) yield decodeRecord(line);
  }

  /** Number of records. */
  async count(): Promise<number> {
    this.ready("count");
    return this.rows.size;
  }

  /** The snapshot generation on disk (`gen:N`), which every flush that wrote something advances; null in memory only. */
  async stamp(): Promise<string | null> {
    this.ready("stamp");
    return this.dir === undefined ? null : `gen:${this.generation}`;
  }

  /**
   * The `topK` records most cosine-similar to `query.vector`, best first, optionally restricted to
   * `query.filter.sourcePaths`.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query vector of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.min(Math.max(0, Math.floor(query.topK)), this.rows.size);
    if (k === 0) return [];
    if (query.filter?.sourcePaths === undefined && this.threads.usable && this.ann?.active(this.rows.size)) {
      // The same candidates as the in-thread graph search (approximate(), unfiltered); used only when the
      // store did not change (or close) while the thread searched, and the graph gave k rows.
      const hits = await this.threads.search(query.vector, k);
      if (hits !== undefined) return this.scoredIds(hits);
      this.ready("vectorSearch");
      const left = Math.min(k, this.rows.size);
      return left === 0 ? [] : this.searchHere(query, left);
    }
    return this.searchHere(query, k);
  }

  /** {@link vectorSearch} on this thread: the graph when it can serve the query, else an exact scan. */
  private searchHere(query: StoreQuery & { vector: Float32Array }, k: number): ScoredId[] {
    const matrix = this.ready("vectorSearch");
    const paths = query.filter?.sourcePaths;
    let accept: ((row: number) => boolean) | undefined;
    let allowedRows = this.rows.size;
    if (paths !== undefined) {
      const allowed = new Set(paths);
      const sources = this.rows.sources;
      accept = (row) => allowed.has(sources[row]);
      allowedRows = 0;
      for (const path of allowed) allowedRows += this.rows.sourceCounts.get(path) ?? 0;
    }
    const hits = this.approximate(this.vectorFiles ?? matrix, query.vector, k, allowedRows, accept) ?? this.vectors("vectorSearch").search(query.vector, k, accept);
    return this.scoredIds(hits);
  }

  private scoredIds(hits: Array<{ index: number; score: number }>): ScoredId[] {
    const ids = this.rows.ids;
    return hits.map((hit) => ({ id: ids[hit.index], score: hit.score }));
  }

  /**
   * The graph's answer when it is in use and can serve this query: unfiltered, or filtered to a subset
   * large enough that over-fetching `k × rows / allowed` (×2) candidates is still cheaper than a scan of
   * the subset; `undefined` (exact scan) otherwise, or when the candidates held fewer than `k` allowed rows.
   */
  private approximate(scorer: RowScorer, vector: Float32Array, k: number, allowedRows: number, accept?: (row: number) => boolean): Array<{ index: number; score: number }> | undefined {
    const ann = this.ann;
    const rows = this.rows.size;
    if (ann === undefined || !ann.active(rows) || allowedRows < k) return undefined;
    const wanted = overFetch(k);
    const candidates = accept === undefined ? wanted : Math.ceil((wanted * rows) / allowedRows);
    if (accept !== undefined && (allowedRows < ann.config.threshold || candidates > rows / 4)) return undefined;
    const hits = ann.search(scorer, vector, k, candidates, accept);
    return hits.length === k ? hits : undefined;
  }

  /**
   * Makes the changes since the last flush durable (no-op without `dir` or without changes): appends one
   * segment with the records upserted since (and the live records of segments compacted now), writes the
   * rows and columns files and the graph, then switches the manifest. Atomic: a crash leaves the previous
   * or the new generation. The first flush after opening a version 1-2 folder converts it to version 3.
   * @throws HierdocError E_STORE when the folder cannot be written.
   */
  async flush(): Promise<void> {
    this.ready("flush");
    const next = this.flushing.then(() => this.flushNow());
    this.flushing = next.catch(() => undefined);
    return next;
  }

  /**
   * Flushes pending writes (when persistent), writes the graph when flushes deferred it (same generation:
   * only the graph file and the manifest change), and releases memory.
   */
  async close(): Promise<void> {
    if (this.matrix === undefined) return;
    await this.stopSearchThread();
    if (this.dir !== undefined && (this.dirty || (this.flushedSinceOpen && this.ann?.lagging))) {
      const next = this.flushing.then(() => this.flushNow(true));
      this.flushing = next.catch(() => undefined);
      await next;
    }
    await this.flushing;
    this.matrix = undefined;
    this.clearRows();
  }

  private clearRows(): void {
    void this.stopSearchThread();
    this.vectorFiles?.close();
    this.vectorFiles = undefined;
    this.rows.clear();
    this.ann?.clear();
  }

  /** `final` (close): a graph that lacks appended rows is written even if the growth would defer it. */
  private async flushNow(final = false): Promise<void> {
    if (this.dir === undefined || this.matrix === undefined) return;
    if (!(this.dirty || this.upgradePending)) {
      if (final && this.ann?.lagging) await this.saveLaggingGraph(this.dir, this.ann, this.matrix.length);
      return;
    }
    const generation = this.generation + 1;
    const wasUpgrade = this.upgradePending;
    this.dirty = false;
    this.upgradePending = false;
    try {
      // Planned and the graph saved now (synchronously), so the files describe one state of the rows.
      const plan = this.rows.planFlush(this.matrix, this.compaction);
      const kept = plan.keep.map((s) => this.rows.segments[s]);
      const ann = this.ann === undefined ? undefined : graphForFlush(this.dir, this.ann, this.matrix.length, final);
      const written = await writeGeneration(this.dir, { embedderId: this.embedderId, dimensions: this.matrix.dimensions, generation }, plan, kept, ann);
      this.rows.applyFlush(plan, written.segment);
      this.generation = written.manifest.generation;
      this.flushedSinceOpen = true;
      const file = written.manifest.files.ann;
      if (file !== undefined && ann !== undefined) this.ann?.savedAs(file, ann.settings.rows ?? plan.count);
    } catch (err) {
      this.dirty = true;
      this.upgradePending = wasUpgrade;
      throw this.error("E_STORE", "flush", `cannot write the index to ${this.dir}: ${(err as Error).message}`, {}, err);
    }
  }

  private async saveLaggingGraph(dir: string, ann: AnnLeg, rows: number): Promise<void> {
    try {
      await saveLaggingGraph(dir, this.generation, ann, rows);
    } catch (err) {
      throw this.error("E_STORE", "close", `cannot write the ANN graph to ${this.dir}: ${(err as Error).message}`, {}, err);
    }
  }

  private removeRow(id: string): void {
    const row = this.rows.rowById.get(id);
    if (row === undefined || this.matrix === undefined) return;
    const moved = this.matrix.swapRemove(row);
    this.ann?.swapRemoved(this.matrix, row, moved);
    this.rows.swapRemove(row);
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
