import { AnnIndex, type AnnQuantization } from "@hierdoc/ann";
import { HierdocError } from "@hierdoc/core";
import type { SearchThreadSetting } from "./search-thread.js";
import type { SnapshotFileEntry } from "./snapshot.js";
import { TopK } from "./top-k.js";
import type { RowScorer, VectorMatrix } from "./vector-matrix.js";

/**
 * The memory store's approximate nearest-neighbour settings, as written in YAML under
 * `vector_store.ann` (snake_case keys). `ann: false` keeps every search exact.
 */
export interface MemoryAnnConfig {
  /** Build and use the HNSW index from this many records on (default 20 000); below it searches are exact. */
  threshold?: number;
  /** HNSW graph degree M (default 16). */
  m?: number;
  /** HNSW candidate list while searching (default 256); higher: better recall, slower. */
  ef_search?: number;
  /** HNSW candidate list while inserting (default 128). */
  ef_construction?: number;
  /**
   * Least number of approximate neighbours the graph returns for exact re-scoring against the store's
   * vectors (default 0 = 64; the store asks for at least 2·k, more for filtered searches). Above `ef_search`
   * the graph's search list widens to this many, so it trades speed for recall like a per-query `ef_search`;
   * with `f16` graphs it also repairs the order the quantised distances gave.
   */
  candidates?: number;
  /** Scalar type of the vectors inside the graph (default `f32`; `f16` halves the graph's memory). Scores stay exact. */
  quantization?: AnnQuantization;
  /** Threads used to build the index in bulk (0 = every core; default 0). */
  threads?: number;
  /**
   * Search a memory-mapped graph on a worker thread while the store is unchanged since open, so a hybrid
   * query's dense search overlaps its keyword and exact legs: `"auto"` (default) from
   * 50 000 records on (`SEARCH_THREAD_AUTO_ROWS`) with two cores or more, `true` at any size, `false` never. The first write stops it.
   */
  search_thread?: SearchThreadSetting;
}

/** {@link MemoryAnnConfig} with every default applied. */
export type ResolvedMemoryAnn = Required<MemoryAnnConfig>;

/** The defaults of {@link MemoryAnnConfig}. */
export const DEFAULT_MEMORY_ANN: Readonly<ResolvedMemoryAnn> = Object.freeze({
  threshold: 20_000,
  m: 16,
  ef_search: 256,
  ef_construction: 128,
  candidates: 0,
  quantization: "f32",
  threads: 0,
  search_thread: "auto",
});

/**
 * The settings with defaults applied, or `undefined` for `ann: false`.
 * @throws HierdocError E_INVALID_ARGUMENT naming `ann.candidates` when it is not a non-negative integer, or
 *   `ann.search_thread` when it is not `"auto"`, `true` or `false`.
 */
export function resolveMemoryAnn(config: MemoryAnnConfig | false | undefined): ResolvedMemoryAnn | undefined {
  if (config === false) return undefined;
  const resolved: ResolvedMemoryAnn = { ...DEFAULT_MEMORY_ANN, ...Object.fromEntries(Object.entries(config ?? {}).filter(([, v]) => v !== undefined)) };
  if (!Number.isInteger(resolved.candidates) || resolved.candidates < 0) {
    throw new HierdocError("E_INVALID_ARGUMENT", `ann.candidates must be a non-negative integer, got ${String(resolved.candidates)}`, { details: { key: "ann.candidates" } });
  }
  if (!["auto", true, false].includes(resolved.search_thread)) {
    throw new HierdocError("E_INVALID_ARGUMENT", `ann.search_thread must be "auto", true or false, got ${JSON.stringify(resolved.search_thread)}`, { details: { key: "ann.search_thread" } });
  }
  return resolved;
}

/**
 * Graph candidates an unfiltered top-`k` search asks for (before `ann.candidates`): 2·k, at least k + 10.
 * The store's own graph search and its search thread both use it (identical answers depend on it).
 */
export function overFetch(k: number): number {
  return Math.max(2 * k, k + 10);
}

/**
 * How many approximate neighbours a top-`k` search asks the graph for: at least the configured
 * `candidates` (64 when 0), `needed` (the store's over-fetch: 2·k, more for a filtered search) and `k`.
 * (With an f32 graph, extra candidates change the answer only by widening the search past `ef_search`.)
 */
export function candidateCount(config: ResolvedMemoryAnn, k: number, needed: number): number {
  return Math.max(k, needed, config.candidates > 0 ? config.candidates : 64);
}

/**
 * A flush leaves a graph that only lacks rows appended since it was saved on disk until the unsaved rows
 * reach this share of the saved ones (or the store closes): a long ingest rewrites the graph file a few
 * times instead of at every checkpoint, and a kill costs the next open adding at most this share.
 */
export const GRAPH_SAVE_GROWTH = 0.25;

/** What a flush does with the graph: write it, list the file already on disk again, or nothing (no graph). */
export type GraphFlush = { kind: "save" } | { kind: "keep"; file: SnapshotFileEntry; rows: number } | { kind: "none" };

/**
 * The store's HNSW leg: keys are row numbers of the store's {@link VectorMatrix}, kept in step with its
 * appends, overwrites and swap-removes; built in bulk once the store reaches the threshold, then
 * maintained on every change. Candidates are re-scored exactly against the matrix, so scores equal the
 * exact path's and only the candidate set is approximate. Tracks which graph file on disk still describes
 * the rows, so a flush rewrites the graph only when it must (see {@link AnnLeg.flushPlan}).
 */
export class AnnLeg {
  private index: AnnIndex | undefined;
  /** The graph file the manifest lists and the rows (keys 0..rows-1) it covers; undefined when none is usable. */
  private saved: { file: SnapshotFileEntry; rows: number } | undefined;
  /** A row the saved graph covers changed (overwrite or remove) since it was saved: the next flush must save. */
  private savedStale = false;

  constructor(
    readonly config: ResolvedMemoryAnn,
    private readonly dimensions: number,
  ) {}

  /** True when the graph exists and the store is large enough to search it. */
  active(rows: number): boolean {
    return this.index !== undefined && rows >= this.config.threshold;
  }

  /** True when a graph is held (searched or not). */
  get built(): boolean {
    return this.index !== undefined;
  }

  /** Vectors in the graph. */
  get size(): number {
    return this.index?.size ?? 0;
  }

  /** Builds the graph from every row when the store has reached the threshold and none exists yet. */
  buildIfDue(matrix: VectorMatrix): void {
    if (this.index !== undefined || matrix.length < this.config.threshold) return;
    const index = this.createIndex();
    index.addBatch(rowKeys(0, matrix.length), matrix.packedView());
    this.index = index;
    this.saved = undefined;
  }

  /**
   * Makes a memory-mapped graph writable before the store changes: reads its file into memory or, when the
   * file can no longer be read (another writer replaced and removed it since this store opened), rebuilds
   * the graph from the store's vectors, to be saved by the next flush. Returns true when it rebuilt.
   * @throws HierdocError from the ANN library other than an unreadable file.
   */
  materialize(matrix: VectorMatrix): boolean {
    if (this.index === undefined || !this.index.viewed) return false;
    try {
      this.index.materialize();
      return false;
    } catch (err) {
      if ((err as { code?: unknown }).code !== "E_INDEX_CORRUPT") throw err;
    }
    this.clear();
    this.buildIfDue(matrix);
    return true;
  }

  /**
   * Takes over a graph read from `file` (built with the same settings) that covers rows `0..rows-1`; rows
   * past it (appended after the graph was last saved) are added now. Returns how many were added.
   */
  adopt(index: AnnIndex, file: SnapshotFileEntry, matrix: VectorMatrix): number {
    const rows = index.size;
    this.index = index;
    this.saved = { file, rows };
    this.savedStale = false;
    this.appended(matrix, rows);
    return Math.max(0, matrix.length - rows);
  }

  /**
   * What the next flush does with the graph for a store of `rows` rows: nothing without a graph; keep the
   * file on disk when it still describes rows `0..saved-1` and the rows appended since are fewer than
   * {@link GRAPH_SAVE_GROWTH} of it (never when `final`, unless nothing was appended); else save it.
   */
  flushPlan(rows: number, final: boolean): GraphFlush {
    if (this.index === undefined) return { kind: "none" };
    const s = this.saved;
    if (s === undefined || this.savedStale || s.rows > rows) return { kind: "save" };
    if (s.rows === rows) return { kind: "keep", ...s };
    if (final || rows - s.rows >= Math.max(1, Math.ceil(s.rows * GRAPH_SAVE_GROWTH))) return { kind: "save" };
    return { kind: "keep", ...s };
  }

  /** The manifest now lists `file` as the graph of rows `0..rows-1`. */
  savedAs(file: SnapshotFileEntry, rows: number): void {
    this.saved = { file, rows };
    this.savedStale = false;
  }

  /** True when the graph holds rows its file on disk lacks (a final flush would write it). */
  get lagging(): boolean {
    return this.index !== undefined && this.saved !== undefined && !this.savedStale && this.saved.rows < this.index.size;
  }

  /** True while the graph is a read-only map of its file (see {@link AnnIndex.view}). */
  get viewed(): boolean {
    return this.index?.viewed ?? false;
  }

  private touched(row: number): void {
    if (this.saved !== undefined && row < this.saved.rows) this.savedStale = true;
  }

  /** Settings of a new graph. */
  indexOptions(): Parameters<typeof AnnIndex.create>[0] {
    const c = this.config;
    return { dimensions: this.dimensions, connectivity: c.m, expansionAdd: c.ef_construction, expansionSearch: c.ef_search, quantization: c.quantization, threads: c.threads };
  }

  /** Rows `from..matrix.length-1` were appended. */
  appended(matrix: VectorMatrix, from: number): void {
    if (this.index === undefined || from >= matrix.length) return;
    this.index.addBatch(rowKeys(from, matrix.length), matrix.packedView().subarray(from * this.dimensions));
  }

  /** Row `row` was overwritten. */
  written(matrix: VectorMatrix, row: number): void {
    if (this.index === undefined) return;
    this.touched(row);
    this.index.add(row, matrix.view(row));
  }

  /** Row `row` was removed by moving row `moved` (or -1 when it was the last) into its place. */
  swapRemoved(matrix: VectorMatrix, row: number, moved: number): void {
    if (this.index === undefined) return;
    this.touched(row);
    this.index.remove(row);
    if (moved !== -1) {
      this.index.remove(moved);
      this.index.add(row, matrix.view(row));
    }
  }

  /**
   * The `k` best rows that `accept` lets through among the graph's approximate neighbours (at least
   * `candidates`; see {@link candidateCount}), re-scored exactly by `scorer` (the store's matrix, or its
   * vectors files), best first (ties by row). Fewer than `k` when the graph returned too few accepted rows.
   */
  search(scorer: RowScorer, query: Float32Array, k: number, candidates: number, accept?: (row: number) => boolean): Array<{ index: number; score: number }> {
    return graphSearch(this.index as AnnIndex, this.config, scorer, query, k, candidates, accept);
  }

  /** Writes the graph to `path` (synchronously, so it matches the rows at this instant). */
  save(path: string): void {
    this.index?.save(path);
  }

  /** Drops the graph. */
  clear(): void {
    this.index = undefined;
    this.saved = undefined;
    this.savedStale = false;
  }

  private createIndex(): AnnIndex {
    return AnnIndex.create(this.indexOptions());
  }
}

/**
 * The search of {@link AnnLeg.search} on a given graph: the `k` best rows `accept` lets through among
 * `index`'s approximate neighbours (see {@link candidateCount}), re-scored exactly by `scorer`, best first
 * (ties by row). Shared with the search thread, so both give the same rows and scores.
 */
export function graphSearch(
  index: AnnIndex,
  config: ResolvedMemoryAnn,
  scorer: RowScorer,
  query: Float32Array,
  k: number,
  candidates: number,
  accept?: (row: number) => boolean,
): Array<{ index: number; score: number }> {
  const rows = index.search(query, candidateCount(config, k, candidates)).map((h) => h.key);
  const kept = accept === undefined ? rows : rows.filter(accept);
  const scores = scorer.scoreRows(query, kept);
  const top = new TopK(k);
  kept.forEach((row, i) => top.push(row, scores[i]));
  return top.sorted();
}

function rowKeys(from: number, to: number): Uint32Array {
  const keys = new Uint32Array(to - from);
  for (let i = 0; i < keys.length; i++) keys[i] = from + i;
  return keys;
}
