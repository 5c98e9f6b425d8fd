import { createRequire } from "node:module";
import { HierdocError } from "@hierdoc/core";
import type * as Usearch from "usearch";

/**
 * How vectors are held inside the graph: 32-bit floats, 16-bit (half the memory), or 8-bit integers (a
 * quarter; for high-dimension vectors only: see the README for recall).
 */
export type AnnQuantization = "f32" | "f16" | "bf16" | "i8";

/** Settings of an {@link AnnIndex} (HNSW). */
export interface AnnIndexOptions {
  /** Length of every vector. */
  dimensions: number;
  /** Graph degree `M` (links per node; default 16). More: better recall, more memory, slower inserts. */
  connectivity?: number;
  /** Candidate list while inserting (`ef_construction`, default 128). */
  expansionAdd?: number;
  /** Candidate list while searching (`ef_search`, default 128). More: better recall, slower queries. */
  expansionSearch?: number;
  /** Scalar type of the stored vectors (default `f32`). */
  quantization?: AnnQuantization;
  /** Threads for {@link AnnIndex.addBatch} (0 = every core; default 0). Single adds and searches use one. */
  threads?: number;
}

/** One approximate neighbour: the caller's key and the cosine distance (`1 − cosine`). */
export interface AnnHit {
  key: number;
  distance: number;
}

const require = createRequire(import.meta.url);
let usearch: typeof Usearch | undefined;

/** Loads the native binding on first use, so importing this package costs nothing. */
function binding(): typeof Usearch {
  if (usearch === undefined) {
    try {
      usearch = require("usearch") as typeof Usearch;
    } catch (err) {
      throw new HierdocError("E_STORE", `cannot load the ANN library (usearch): ${(err as Error).message}`, { cause: err, details: { library: "usearch" } });
    }
  }
  return usearch;
}

/** The resolved settings, with defaults applied. */
export type ResolvedAnnOptions = Required<AnnIndexOptions>;

/** The settings with their defaults applied and checked. @throws HierdocError E_INVALID_ARGUMENT for a bad value. */
export function resolveAnnOptions(options: AnnIndexOptions): ResolvedAnnOptions {
  const o: ResolvedAnnOptions = {
    dimensions: options.dimensions,
    connectivity: options.connectivity ?? 16,
    expansionAdd: options.expansionAdd ?? 128,
    expansionSearch: options.expansionSearch ?? 128,
    quantization: options.quantization ?? "f32",
    threads: options.threads ?? 0,
  };
  const positive: Array<keyof ResolvedAnnOptions> = ["dimensions", "connectivity", "expansionAdd", "expansionSearch"];
  for (const key of positive) {
    const v = o[key] as number;
    if (!Number.isInteger(v) || v <= 0) throw new HierdocError("E_INVALID_ARGUMENT", `ANN ${key} must be a positive integer, got ${String(v)}`, { details: { key } });
  }
  if (!Number.isInteger(o.threads) || o.threads < 0) throw new HierdocError("E_INVALID_ARGUMENT", `ANN threads must be a non-negative integer, got ${o.threads}`, { details: { key: "threads" } });
  if (!["f32", "f16", "bf16", "i8"].includes(o.quantization)) {
    throw new HierdocError("E_INVALID_ARGUMENT", `ANN quantization must be f32, f16, bf16 or i8, got ${String(o.quantization)}`, { details: { key: "quantization" } });
  }
  return o;
}

/**
 * An HNSW approximate nearest-neighbour index under cosine distance, keyed by non-negative integers
 * (usearch, a native library shipped prebuilt in its npm package; loaded on first use).
 *
 * Use it as the dense index of an in-process store past a few tens of thousands of vectors, where a
 * brute-force scan gets slow; keep the vectors elsewhere when exact scores are needed (the graph may hold
 * them quantised). Adding a key that exists replaces its vector; removed keys are tombstoned by the library.
 */
export class AnnIndex {
  private constructor(
    private index: Usearch.Index,
    /** The settings the index was created with. */
    readonly options: ResolvedAnnOptions,
    /** The file a viewed index maps (loaded into memory by the first write), else undefined. */
    private viewedPath?: string,
  ) {}

  /** A new empty index. @throws HierdocError E_INVALID_ARGUMENT for bad settings; E_STORE when the library cannot load. */
  static create(options: AnnIndexOptions): AnnIndex {
    const o = resolveAnnOptions(options);
    return new AnnIndex(AnnIndex.native(o), o);
  }

  /**
   * Loads an index saved by {@link save}. The file's own graph settings win; its dimensions must match.
   * @throws HierdocError E_INDEX_CORRUPT naming the file when it cannot be read or holds other dimensions.
   */
  static load(path: string, options: AnnIndexOptions): AnnIndex {
    const o = resolveAnnOptions(options);
    return new AnnIndex(AnnIndex.read(path, o, "load"), o);
  }

  /**
   * Memory-maps an index saved by {@link save} instead of reading it into memory: opening costs no copy
   * and the graph's pages stay in the OS page cache (only the pages searches touch become resident). The
   * file must not change while viewed. The first {@link add}, {@link addBatch} or {@link remove} loads
   * the file into memory (as {@link load} would) and the index is writable from then on.
   * @throws HierdocError E_INDEX_CORRUPT naming the file when it cannot be mapped or holds other dimensions.
   */
  static view(path: string, options: AnnIndexOptions): AnnIndex {
    const o = resolveAnnOptions(options);
    return new AnnIndex(AnnIndex.read(path, o, "view"), o, path);
  }

  /** True while the index is a read-only memory map of its file (see {@link view}). */
  get viewed(): boolean {
    return this.viewedPath !== undefined;
  }

  private static read(path: string, o: ResolvedAnnOptions, how: "load" | "view"): Usearch.Index {
    const index = AnnIndex.native(o);
    try {
      if (how === "view") index.view(path);
      else index.load(path);
    } catch (err) {
      throw new HierdocError("E_INDEX_CORRUPT", `ANN index ${path} cannot be read: ${(err as Error).message}`, { cause: err, details: { file: path } });
    }
    if (index.dimensions() !== o.dimensions) {
      throw new HierdocError("E_INDEX_CORRUPT", `ANN index ${path} holds ${index.dimensions()}-dimension vectors, expected ${o.dimensions}`, { details: { file: path } });
    }
    return index;
  }

  /**
   * Reads a viewed index into memory now, as its first change would (a no-op when it is not viewed).
   * @throws HierdocError E_INDEX_CORRUPT naming the file when it can no longer be read (e.g. removed since).
   */
  materialize(): void {
    this.writable();
  }

  /** A viewed index is read into memory before its first change (the map is immutable). */
  private writable(): Usearch.Index {
    if (this.viewedPath !== undefined) {
      this.index = AnnIndex.read(this.viewedPath, this.options, "load");
      this.viewedPath = undefined;
    }
    return this.index;
  }

  private static native(o: ResolvedAnnOptions): Usearch.Index {
    const { Index, MetricKind, ScalarKind } = binding();
    const scalar = { f32: ScalarKind.F32, f16: ScalarKind.F16, bf16: ScalarKind.BF16, i8: ScalarKind.I8 }[o.quantization];
    return new Index({
      dimensions: o.dimensions,
      metric: MetricKind.Cos,
      quantization: scalar,
      connectivity: o.connectivity,
      expansion_add: o.expansionAdd,
      expansion_search: o.expansionSearch,
      multi: false,
    });
  }

  /** Number of live (not removed) vectors. */
  get size(): number {
    return this.index.size();
  }

  /** True when `key` is in the index. */
  has(key: number): boolean {
    return this.index.contains(BigInt(key)) as boolean;
  }

  /**
   * Adds `vector` under `key`, replacing the vector already there.
   * @throws HierdocError E_INDEX_CORRUPT when a viewed index's file can no longer be loaded.
   */
  add(key: number, vector: Float32Array): void {
    this.checkLength(vector.length, 1);
    const k = BigInt(key);
    const index = this.writable();
    if (index.contains(k)) index.remove(k);
    index.add(k, vector, 1);
  }

  /**
   * Adds many vectors (`keys.length` rows of `vectors`, packed) on {@link AnnIndexOptions.threads} threads.
   * Keys must not be in the index yet.
   * @throws HierdocError E_INVALID_ARGUMENT when the sizes disagree or a key is already present.
   */
  addBatch(keys: ArrayLike<number>, vectors: Float32Array): void {
    if (keys.length === 0) return;
    this.checkLength(vectors.length, keys.length);
    const big = new BigUint64Array(keys.length);
    for (let i = 0; i < keys.length; i++) big[i] = BigInt(keys[i]);
    const index = this.writable();
    try {
      index.add(big, vectors, this.options.threads);
    } catch (err) {
      throw new HierdocError("E_INVALID_ARGUMENT", `ANN batch add failed: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Removes `key`; returns whether it was there. */
  remove(key: number): boolean {
    const k = BigInt(key);
    if (!this.index.contains(k)) return false;
    this.writable().remove(k);
    return true;
  }

  /** The (up to) `k` keys nearest to `query`, nearest first. */
  search(query: Float32Array, k: number): AnnHit[] {
    this.checkLength(query.length, 1);
    const n = Math.min(Math.floor(k), this.index.size());
    if (n <= 0) return [];
    const m = this.index.search(query, n, 1);
    const out: AnnHit[] = [];
    for (let i = 0; i < m.keys.length; i++) out.push({ key: Number(m.keys[i]), distance: m.distances[i] });
    return out;
  }

  /** Writes the index to `path` (synchronously; the caller makes it atomic with a temp name and a rename). */
  save(path: string): void {
    this.index.save(path);
  }

  private checkLength(floats: number, rows: number): void {
    if (floats !== rows * this.options.dimensions) {
      throw new HierdocError("E_DIMENSION_MISMATCH", `ANN index expects ${this.options.dimensions}-dimension vectors, got ${floats / rows}`, {
        details: { expected: this.options.dimensions, actual: floats / rows },
      });
    }
  }
}
