import type { ChunkRecord, ScoredId, StoreCapabilities, StoreOpenOptions, StoreQuery, StoreRecord, VectorStoreAdapter } from "@hierdoc/core";
import { HierdocError, assertOpenDimensions, assertSameDimensions, assertSameEmbedder, assertUpsertRecords, storeErrorBuilder, vectorChecker } from "@hierdoc/core";
import { AnnIndex, type AnnQuantization } from "@hierdoc/ann";
import { readFolder, writeFolder, type FaissManifest, type StoredEntry } from "./faiss-files.js";

/** Index kinds of {@link FaissStore}: an HNSW graph, or a flat (exact) scan. */
export type FaissIndexType = "hnsw" | "flat";

/** Options of {@link FaissStore}. */
export interface FaissStoreOptions {
  /** Folder the index is saved to on `flush()`; without it the store lives only in memory. */
  dir?: string;
  /** `hnsw` (default): approximate graph search re-scored exactly; `flat`: exact scan. */
  indexType?: FaissIndexType;
  /** HNSW graph degree M (default 16). */
  m?: number;
  /** HNSW candidate list while searching (default 128). */
  efSearch?: number;
  /** HNSW candidate list while inserting (default 128). */
  efConstruction?: number;
  /** How the graph stores its vectors (default `f32`). */
  quantization?: AnnQuantization;
}

const ADAPTER = "faiss";

/**
 * An in-process ANN vector store persisted to a folder (the plan's `faiss` provider): an HNSW graph
 * (`@hierdoc/ann`, usearch — faiss-node cannot install from the npm registry here, see the README) plus
 * each record and its normalised vector, so scores are exact cosines and `getWithVectors` works. Records
 * have stable integer labels; deletes remove the label from the graph.
 *
 * Use it when you want a standalone ANN file next to the index instead of the default memory store's
 * snapshot format; it is a single-writer store (one ingest per folder).
 */
export class FaissStore implements VectorStoreAdapter {
  /** Adapter id used in errors and logs. */
  readonly id = ADAPTER;
  /** What this store can do (frozen). */
  readonly capabilities: StoreCapabilities;
  private readonly options: Required<Omit<FaissStoreOptions, "dir">> & { dir?: string };
  private dimensions = 0;
  private embedderId = "";
  private entries: Map<number, StoredEntry> | undefined;
  private labels = new Map<string, number>();
  private nextLabel = 0;
  private graph: AnnIndex | undefined;
  private dirty = false;
  private generation = 0;

  /** Creates a closed store; call {@link open} first. @throws HierdocError E_INVALID_ARGUMENT for a bad index type. */
  constructor(options: FaissStoreOptions = {}) {
    const indexType = options.indexType ?? "hnsw";
    if (indexType !== "hnsw" && indexType !== "flat") throw this.error("E_INVALID_ARGUMENT", "create", `index type must be hnsw or flat, got ${String(indexType)}`);
    this.options = { dir: options.dir, indexType, m: options.m ?? 16, efSearch: options.efSearch ?? 128, efConstruction: options.efConstruction ?? 128, quantization: options.quantization ?? "f32" };
    this.capabilities = Object.freeze({ vectorSearch: true, nativeHybrid: false, fullText: false, metadataFilter: true, deleteByFilter: true, persistent: options.dir !== undefined, maxBatchSize: 100_000 });
  }

  /**
   * Opens the store: loads the folder's index when there is one (the graph is rebuilt from the stored
   * vectors when its file is missing, damaged or built with other settings).
   * @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH for an index of another embedder or size;
   *   E_INDEX_CORRUPT naming a damaged records file; E_STORE when the ANN library cannot load.
   */
  async open(options: StoreOpenOptions): Promise<void> {
    assertOpenDimensions(options, this.error);
    this.dimensions = options.dimensions;
    this.embedderId = options.embedderId;
    this.entries = new Map();
    this.labels = new Map();
    this.nextLabel = 0;
    this.generation = 0;
    this.dirty = false;
    this.graph = this.options.indexType === "hnsw" ? AnnIndex.create(this.annOptions()) : undefined;
    if (this.options.dir === undefined) return;
    const found = await this.io("open", () => readFolder(this.options.dir as string, this.settings(), this.annOptions()));
    if (found === undefined) return;
    assertSameEmbedder(`faiss index in ${this.options.dir}`, found.manifest.embedderId, options, this.error);
    assertSameDimensions(`faiss index in ${this.options.dir}`, found.manifest.dimensions, options, this.error);
    for (const e of found.entries) {
      this.entries.set(e.label, e);
      this.labels.set(e.id, e.label);
    }
    this.nextLabel = found.manifest.nextLabel;
    this.generation = found.manifest.generation;
    if (this.options.indexType === "hnsw") {
      if (found.graph !== undefined && found.graph.size === this.entries.size) this.graph = found.graph;
      else this.rebuildGraph();
    }
  }

  /**
   * Adds or replaces records by id (validated as a whole batch first).
   * @throws HierdocError E_DIMENSION_MISMATCH / E_INVALID_ARGUMENT for a bad vector or id.
   */
  async upsert(records: StoreRecord[]): Promise<void> {
    const entries = this.ready("upsert");
    assertUpsertRecords(records, { checkVector: this.checkVector, error: this.error });
    for (const { record, vector } of records) {
      const old = this.labels.get(record.id);
      if (old !== undefined) {
        entries.delete(old);
        this.graph?.remove(old);
      }
      const label = this.nextLabel++;
      const unit = normalise(vector);
      entries.set(label, { label, id: record.id, sourcePath: record.sourcePath, json: JSON.stringify(record), vector: unit });
      this.labels.set(record.id, label);
      this.graph?.add(label, unit);
    }
    if (records.length > 0) this.dirty = true;
  }

  /** Records for the given ids, in the order asked; missing ids are skipped. */
  async get(ids: string[]): Promise<ChunkRecord[]> {
    return this.lookup("get", ids).map((e) => JSON.parse(e.json) as ChunkRecord);
  }

  /** Records with their stored (normalised) vectors; missing ids are skipped. */
  async getWithVectors(ids: string[]): Promise<StoreRecord[]> {
    return this.lookup("getWithVectors", ids).map((e) => ({ record: JSON.parse(e.json) as ChunkRecord, vector: e.vector.slice() }));
  }

  /** Removes records by id; unknown ids are ignored. */
  async deleteByIds(ids: string[]): Promise<void> {
    const entries = this.ready("deleteByIds");
    for (const id of ids) {
      const label = this.labels.get(id);
      if (label === undefined) continue;
      this.labels.delete(id);
      entries.delete(label);
      this.graph?.remove(label);
      this.dirty = true;
    }
  }

  /** Removes every record whose `sourcePath` equals `sourcePath`. */
  async deleteBySource(sourcePath: string): Promise<void> {
    const entries = this.ready("deleteBySource");
    await this.deleteByIds([...entries.values()].filter((e) => e.sourcePath === sourcePath).map((e) => e.id));
  }

  /** Every record (without vectors), as of the call. */
  async *scan(): AsyncIterable<ChunkRecord> {
    const snapshot = [...this.ready("scan").values()];
    for (const e of snapshot) yield JSON.parse(e.json) as ChunkRecord;
  }

  /** Number of records. */
  async count(): Promise<number> {
    return this.ready("count").size;
  }

  /**
   * The `topK` records most cosine-similar to `query.vector` (exact scores), optionally restricted to
   * `query.filter.sourcePaths`. HNSW: graph candidates (over-fetched for a filter) re-scored exactly, with
   * an exact scan of the allowed records when the graph returned too few.
   * @throws HierdocError E_DIMENSION_MISMATCH for a query of the wrong length.
   */
  async vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    const entries = this.ready("vectorSearch");
    this.checkVector(query.vector, "vectorSearch");
    const k = Math.min(Math.max(0, Math.floor(query.topK)), entries.size);
    if (k === 0) return [];
    const q = normalise(query.vector);
    const allowed = query.filter?.sourcePaths === undefined ? undefined : new Set(query.filter.sourcePaths);
    const accept = (e: StoredEntry | undefined): e is StoredEntry => e !== undefined && (allowed === undefined || allowed.has(e.sourcePath));
    if (this.graph !== undefined) {
      const want = Math.max(2 * k, k + 10) * (allowed === undefined ? 1 : 4);
      const hits = this.graph.search(q, want).map((h) => entries.get(h.key)).filter(accept);
      if (hits.length >= k) return rank(hits, q, k);
    }
    return rank([...entries.values()].filter(accept), q, k);
  }

  /**
   * Saves the index when there were changes (no-op without `dir`): records, vectors and graph to temp
   * files, renamed, then the manifest last, so a crash leaves the previous index or the new one.
   * @throws HierdocError E_STORE when the folder cannot be written.
   */
  async flush(): Promise<void> {
    const entries = this.ready("flush");
    if (this.options.dir === undefined || !this.dirty) return;
    const manifest: Omit<FaissManifest, "files"> = {
      format: "hierdoc-faiss-store",
      version: 1,
      embedderId: this.embedderId,
      dimensions: this.dimensions,
      count: entries.size,
      nextLabel: this.nextLabel,
      generation: this.generation + 1,
      settings: this.settings(),
    };
    this.dirty = false;
    try {
      await writeFolder(this.options.dir, manifest, [...entries.values()], this.graph);
      this.generation = manifest.generation;
    } catch (err) {
      this.dirty = true;
      throw this.error("E_STORE", "flush", `cannot write the index to ${this.options.dir}: ${(err as Error).message}`, {}, err);
    }
  }

  /** Saves pending changes (when persistent) and releases memory. */
  async close(): Promise<void> {
    if (this.entries === undefined) return;
    await this.flush();
    this.entries = undefined;
    this.graph = undefined;
    this.labels = new Map();
  }

  private rebuildGraph(): void {
    const entries = this.entries as Map<number, StoredEntry>;
    const graph = AnnIndex.create(this.annOptions());
    const labels = [...entries.keys()];
    const packed = new Float32Array(labels.length * this.dimensions);
    labels.forEach((label, i) => packed.set((entries.get(label) as StoredEntry).vector, i * this.dimensions));
    graph.addBatch(labels, packed);
    this.graph = graph;
  }

  private settings(): FaissManifest["settings"] {
    const { indexType, m, efConstruction, quantization } = this.options;
    return { indexType, library: "usearch", m, efConstruction, quantization };
  }

  private annOptions(): Parameters<typeof AnnIndex.create>[0] {
    const o = this.options;
    return { dimensions: this.dimensions, connectivity: o.m, expansionSearch: o.efSearch, expansionAdd: o.efConstruction, quantization: o.quantization };
  }

  private lookup(operation: string, ids: string[]): StoredEntry[] {
    const entries = this.ready(operation);
    const out: StoredEntry[] = [];
    for (const id of ids) {
      const label = this.labels.get(id);
      const e = label === undefined ? undefined : entries.get(label);
      if (e !== undefined) out.push(e);
    }
    return out;
  }

  private ready(operation: string): Map<number, StoredEntry> {
    if (this.entries === undefined) throw this.error("E_STORE", operation, "faiss store is not open; call open() first");
    return this.entries;
  }

  private async io<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof HierdocError) throw err;
      throw this.error("E_STORE", operation, `cannot read the index in ${this.options.dir}: ${(err as Error).message}`, {}, err);
    }
  }

  private readonly checkVector = vectorChecker(ADAPTER, () => this.dimensions);
  private readonly error = storeErrorBuilder(ADAPTER);
}

function normalise(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] * inv;
  return out;
}

/** The best `k` entries by exact cosine with the unit query `q`, best first (ties by label). */
function rank(entries: StoredEntry[], q: Float32Array, k: number): ScoredId[] {
  const scored = entries.map((e) => {
    let s = 0;
    for (let j = 0; j < q.length; j++) s += e.vector[j] * q[j];
    return { e, s };
  });
  scored.sort((a, b) => b.s - a.s || a.e.label - b.e.label);
  return scored.slice(0, k).map(({ e, s }) => ({ id: e.id, score: s }));
}
