import type { KeywordDocument, KeywordIndex, KeywordSearchOptions, ScoredId } from "@hierdoc/core";
import { resolve } from "node:path";
import { HierdocError, fileIdentity } from "@hierdoc/core";
import { type Analyzer, type AnalyzerOptions, createAnalyzer } from "./analyzer.js";
import { readBm25File, writeBm25File, type Bm25Snapshot } from "./bm25-file.js";
import { appendPosting, growablePostings, growU32, growU8, newPostings, type Postings } from "./postings.js";
import { emptySegment, forwardIndex, mergeSegment, type Bm25Segment, type ForwardDoc } from "./bm25-segment.js";
import { type QueryTerm, type ScoringContext, scoreTerms } from "./bm25-scoring.js";
import { BlockMaxScorer } from "./bm25-block-max.js";
import { BM25_FORMAT_VERSION } from "./bm25-file.js";
import { TopK } from "./top-k.js";
import { checkAnalyzedBatch, type AnalyzedBatch, type AnalyzedUpserts } from "./analyzed-batch.js";

/**
 * `okapi`: Python rank_bm25 BM25Okapi (IDF ln((N−n+0.5)/(n+0.5)), negative IDFs replaced by
 * epsilon × mean IDF, tf·(k1+1)/(tf+k1·norm)). `lucene`: Lucene ≥ 8 / OpenSearch BM25
 * (IDF ln(1+(N−n+0.5)/(n+0.5)), tf/(tf+k1·norm)).
 */
export type Bm25Variant = "okapi" | "lucene";

/** Options of a {@link Bm25Index}. */
export interface Bm25Options {
  /** Default `lucene`. */
  variant?: Bm25Variant;
  /** Default 1.5 (okapi) / 1.2 (lucene). */
  k1?: number;
  /** Default 0.75. */
  b?: number;
  /** okapi only: floor for negative IDFs as a fraction of the mean IDF. Default 0.25. */
  epsilon?: number;
  /** Default `rank-bm25` for okapi (parity), `standard` (stemmed, stop words) for lucene. */
  analyzer?: AnalyzerOptions;
}

/** Options of {@link Bm25Index.save}. */
export interface Bm25SaveOptions {
  /** Caller's identity of the indexed data (e.g. a hash of chunk ids + config); read back as `fingerprint`. */
  fingerprint?: string;
}

/** File name of a persisted index inside its folder. */
export const BM25_FILE_NAME = "bm25.bin";

const COMPACT_MIN_DEAD = 256;

/**
 * Removals settled by a pass over the segment's postings before the per-document side is derived instead (it
 * costs several passes and as much memory as the postings, but makes every later removal immediate).
 */
const SETTLE_PASSES = 2;

const NO_POSTINGS: Postings = { docs: new Uint32Array(0), tfs: new Uint32Array(0), n: 0 };

/**
 * In-memory inverted BM25 index with incremental upsert / remove (tombstones, compacted when a quarter
 * of the slots are dead), bounded-heap top-k, optional id filter, and atomic persistence.
 * Postings live in one compact segment (typed arrays in CSR form, two-byte tfs, loaded from `bm25.bin` as
 * views of one buffer); documents added since then go to a small delta (the postings of the terms they use
 * are copied out of the segment once), merged into a new segment by {@link save} and by compaction.
 * Not safe for concurrent mutation during a search (single-threaded use, as in Node).
 */
export class Bm25Index implements KeywordIndex, AnalyzedUpserts {
  readonly id: string;
  readonly variant: Bm25Variant;
  readonly k1: number;
  readonly b: number;
  readonly epsilon: number;
  readonly analyzerOptions: AnalyzerOptions;
  readonly analyzer: Analyzer;
  /** Fingerprint read by {@link Bm25Index.load} (or set by the last save); null when none. */
  fingerprint: string | null = null;
  /**
   * Format of the file {@link Bm25Index.load} read: 3 (compact segment with block-max bounds), 2 (without the
   * bounds: computed on every load), or 1 (the per-document layout, converted on every load) until the index is
   * saved again; null when not loaded.
   */
  loadedFormat: number | null = null;

  /** True when the loaded file is of an older format than {@link save} writes (saving it again converts it). */
  get outdatedFormat(): boolean {
    return this.loadedFormat !== null && this.loadedFormat < BM25_FORMAT_VERSION;
  }

  private ids: string[] = [];
  private sources: string[] = [];
  /** Id → slot of the live documents; null until an update, `has` or an id filter first needs it (not on load). */
  private slotMap: Map<string, number> | null = new Map();
  private live: Uint8Array<ArrayBufferLike> = new Uint8Array(16);
  private lens: Uint32Array<ArrayBufferLike> = new Uint32Array(16);
  /** Slots `0 … seg.docs − 1` and the postings of terms `0 … seg.terms − 1` as last built or loaded. */
  private seg: Bm25Segment = emptySegment();
  /** Terms and tfs of the slots added since (`slot − seg.docs`); null once removed. */
  private extraTerms: Array<Uint32Array | null> = [];
  private extraTfs: Array<Uint32Array | null> = [];
  private liveCount = 0;
  private totalLen = 0;
  private dead = 0;
  /**
   * Segment slots removed while the segment had no per-document side: their terms' document frequencies are
   * lowered by {@link settleRemovals} before the next search, idf or merge reads them.
   */
  private unsettled: number[] = [];
  /** Passes over the postings {@link settleRemovals} made since the segment was built or loaded. */
  private settlePasses = 0;
  /** Documents added or removed so far (what tells a save whether the file on disk is still this state). */
  private changes = 0;
  /** The file this state was last loaded from or saved to: its path, identity, and the state's changes and fingerprint then. */
  private persisted: { path: string; file: string | null; changes: number; fingerprint: string | null } | null = null;

  private termIds = new Map<string, number>();
  private terms: string[] = [];
  private df: Uint32Array<ArrayBufferLike> = new Uint32Array(16);
  private tfScratch: Uint32Array<ArrayBufferLike> = new Uint32Array(16);
  /** Per term: largest tf and shortest document length ever indexed (valid bounds; tightened on compaction). */
  private maxTf: Uint32Array<ArrayBufferLike> = new Uint32Array(16);
  private minLen: Uint32Array<ArrayBufferLike> = new Uint32Array(16);
  private norms = new Float64Array(0);
  private normsAvgdl = NaN;
  private normsSlots = 0;
  /** Growable postings of the terms that gained documents since the segment was built (copy on first add). */
  private own: Array<Postings | undefined> = [];

  private okapiIdf: Float64Array | null = null;
  private scratch = new Float64Array(0);
  private stamp = new Uint32Array(0);
  private touchedBuf = new Uint32Array(0);
  private stampGen = 0;
  private readonly blockMax = new BlockMaxScorer();

  constructor(options: Bm25Options = {}) {
    this.variant = options.variant ?? "lucene";
    if (this.variant !== "okapi" && this.variant !== "lucene") {
      throw new HierdocError("E_INVALID_ARGUMENT", `unknown BM25 variant ${JSON.stringify(this.variant)}`);
    }
    this.k1 = options.k1 ?? (this.variant === "okapi" ? 1.5 : 1.2);
    this.b = options.b ?? 0.75;
    this.epsilon = options.epsilon ?? 0.25;
    if (!(this.k1 >= 0) || !(this.b >= 0 && this.b <= 1)) {
      throw new HierdocError("E_INVALID_ARGUMENT", `BM25 needs k1 >= 0 and 0 <= b <= 1 (got k1=${this.k1}, b=${this.b})`);
    }
    this.analyzerOptions = options.analyzer ?? (this.variant === "okapi" ? { kind: "rank-bm25" } : { kind: "standard" });
    this.analyzer = createAnalyzer(this.analyzerOptions);
    this.id = `bm25-${this.variant}`;
  }

  /** Adds or replaces documents by id. */
  async upsert(docs: KeywordDocument[]): Promise<void> {
    this.upsertSync(docs);
  }

  /** Synchronous {@link upsert}. */
  upsertSync(docs: Iterable<KeywordDocument>): void {
    for (const doc of docs) {
      const old = this.slotOf().get(doc.id);
      if (old !== undefined) this.removeSlot(old);
      const { tokens, length } = this.analyzer.analyze(doc.text);
      const seen: number[] = [];
      for (const token of tokens) {
        let t = this.termIds.get(token);
        if (t === undefined) t = this.newTerm(token);
        if (this.tfScratch[t]++ === 0) seen.push(t);
      }
      const ts = new Uint32Array(seen.length);
      const fs = new Uint32Array(seen.length);
      for (let i = 0; i < seen.length; i++) {
        ts[i] = seen[i];
        fs[i] = this.tfScratch[seen[i]];
        this.tfScratch[seen[i]] = 0;
      }
      this.addSlot(doc.id, doc.sourcePath, length, ts, fs);
    }
    this.okapiIdf = null;
    this.maybeCompact();
  }

  /** Adds or replaces documents analysed elsewhere (`analyzeBatch` with this index's analyzer), exactly as {@link upsert} of their texts. */
  async upsertAnalyzed(docs: ReadonlyArray<{ id: string; sourcePath: string }>, batch: AnalyzedBatch): Promise<void> {
    this.upsertAnalyzedSync(docs, batch);
  }

  /**
   * Synchronous {@link upsertAnalyzed}. New terms get their ids in the batch's order of first appearance, which is
   * the order {@link upsertSync} meets them in, so the index (and `bm25.bin`) is the same byte for byte.
   * @throws HierdocError E_INVALID_ARGUMENT when the batch was made by another analyzer or counts other documents.
   */
  upsertAnalyzedSync(docs: ReadonlyArray<{ id: string; sourcePath: string }>, batch: AnalyzedBatch): void {
    checkAnalyzedBatch(batch, this.analyzer.id, docs.length);
    const global = new Uint32Array(batch.terms.length);
    for (let i = 0; i < batch.terms.length; i++) global[i] = this.termIds.get(batch.terms[i]) ?? this.newTerm(batch.terms[i]);
    for (let d = 0; d < docs.length; d++) {
      const old = this.slotOf().get(docs[d].id);
      if (old !== undefined) this.removeSlot(old);
      const a = batch.docStart[d];
      const b = batch.docStart[d + 1];
      const ts = new Uint32Array(b - a);
      for (let i = 0; i < ts.length; i++) ts[i] = global[batch.docTerms[a + i]];
      this.addSlot(docs[d].id, docs[d].sourcePath, batch.lengths[d], ts, batch.docTfs.slice(a, b));
    }
    this.okapiIdf = null;
    this.maybeCompact();
  }

  /** Removes documents by id; unknown ids are ignored. */
  async remove(ids: string[]): Promise<void> {
    this.removeSync(ids);
  }

  /** Synchronous {@link remove}. */
  removeSync(ids: Iterable<string>): void {
    for (const id of ids) {
      const slot = this.slotOf().get(id);
      if (slot !== undefined) this.removeSlot(slot);
    }
    this.maybeCompact();
  }

  /** Removes every document of a source file. Returns how many were removed. */
  removeBySource(sourcePath: string): number {
    const ids: string[] = [];
    for (let s = 0; s < this.ids.length; s++) if (this.live[s] && this.sources[s] === sourcePath) ids.push(this.ids[s]);
    this.removeSync(ids);
    return ids.length;
  }

  /** Number of live documents. */
  async size(): Promise<number> {
    return this.liveCount;
  }

  /** Synchronous {@link size}. */
  get documentCount(): number {
    return this.liveCount;
  }

  /**
   * Work of the last pruned {@link searchSync} (windows of documents, windows skipped by their bounds, postings
   * read, documents scored in full), for benchmarks and tracing.
   */
  get lastSearchStats(): Readonly<BlockMaxScorer["stats"]> {
    return this.blockMax.stats;
  }

  /** True when a document with this id is indexed. */
  has(id: string): boolean {
    return this.slotOf().has(id);
  }

  /** Best `topK` documents that contain at least one query term, best first (ties: earlier insert first). */
  async search(query: string, options: KeywordSearchOptions): Promise<ScoredId[]> {
    return this.searchSync(query, options);
  }

  /** Synchronous {@link search}. */
  searchSync(query: string, options: KeywordSearchOptions): ScoredId[] {
    return this.topK(query, options, true);
  }

  /**
   * {@link searchSync} without pruning: every matching document is scored (same summation order, so the same
   * scores and ranking). The reference the pruned search is tested against; slower at scale.
   */
  searchExhaustive(query: string, options: KeywordSearchOptions): ScoredId[] {
    return this.topK(query, options, false);
  }

  private topK(query: string, options: KeywordSearchOptions, prune: boolean): ScoredId[] {
    this.settleRemovals();
    const topK = Math.floor(options.topK);
    if (!(topK > 0) || this.liveCount === 0) return [];
    // Equal scores are ordered by id, so an incrementally updated index ranks exactly like a fresh one.
    const ids = this.ids;
    const heap = new TopK(topK, (a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
    const mask = this.allowMask(options.allowIds);
    const terms = this.queryTerms(this.analyzer.analyze(query).tokens, true);
    const positive = terms.every((t) => t.weight > 0);
    // Highest bound first (when bounds hold): every document's score is summed in this order, pruned or not.
    if (positive) terms.sort((a, b) => b.bound - a.bound);
    if (prune && positive) {
      const avgdl = this.totalLen / this.liveCount;
      this.blockMax.collect(
        { slots: ids.length, norms: this.normTable(), tfMul: this.tfMul(), k1: this.k1, b: this.b, avgdl, live: this.dead > 0 ? this.live : null, mask },
        terms,
        heap,
      );
    } else {
      const touched = scoreTerms(this.scoringContext(mask), terms);
      const scratch = this.scratch;
      for (let i = 0; i < touched.length; i++) heap.push(scratch[touched[i]], touched[i]);
    }
    return heap.sorted().map(({ slot, score }) => ({ id: this.ids[slot], score }));
  }

  /**
   * Score of every given document for the query (0 when it contains no query term), like rank_bm25's
   * `get_scores`. Default: all live documents in insertion order.
   */
  scoreDocuments(query: string, ids?: readonly string[]): number[] {
    this.settleRemovals();
    const touched = this.liveCount === 0 ? [] : scoreTerms(this.scoringContext(null), this.queryTerms(this.analyzer.analyze(query).tokens, false));
    const hit = new Set(touched);
    let slots: number[];
    if (ids) {
      const slotOf = this.slotOf();
      slots = ids.map((id) => slotOf.get(id) ?? -1);
    } else {
      slots = this.liveSlots();
    }
    return slots.map((s) => (s >= 0 && hit.has(s) ? this.scratch[s] : 0));
  }

  /** Inverse document frequency of an (already analysed) term, or 0 when absent. */
  idf(term: string): number {
    this.settleRemovals();
    const t = this.termIds.get(term);
    if (t === undefined || this.df[t] === 0) return 0;
    return this.termIdf(t);
  }

  /**
   * Writes the index to `dir/bm25.bin` atomically (temp file, fsync, rename); terms are stored, so
   * {@link load} does not re-tokenise. Writes nothing when `dir/bm25.bin` is the file this index was loaded
   * from (current format) or last saved to, untouched since, and neither the documents nor the fingerprint
   * changed (an ingest that changed nothing rewrites no 100s of MB).
   * @throws HierdocError E_INTERNAL when the file cannot be written.
   */
  async save(dir: string, options: Bm25SaveOptions = {}): Promise<void> {
    const fingerprint = options.fingerprint ?? this.fingerprint;
    const path = resolve(dir, BM25_FILE_NAME);
    const p = this.persisted;
    if (p && p.path === path && p.changes === this.changes && p.fingerprint === fingerprint && p.file === (await fileIdentity(path))) return;
    this.fingerprint = fingerprint;
    const snap = this.snapshot();
    // The delta is merged: the index continues from the segment it writes.
    if (snap.segment !== this.seg) this.restore(snap);
    await writeBm25File(dir, BM25_FILE_NAME, snap);
    this.persisted = { path, file: await fileIdentity(path), changes: this.changes, fingerprint };
  }

  /**
   * Loads an index saved by {@link save}; null when `dir` has none.
   * @throws HierdocError E_INDEX_CORRUPT when the file is truncated or not a hierdoc BM25 index.
   */
  static async load(dir: string): Promise<Bm25Index | null> {
    const snap = await readBm25File(dir, BM25_FILE_NAME);
    if (!snap) return null;
    const index = new Bm25Index({ variant: snap.variant, k1: snap.k1, b: snap.b, epsilon: snap.epsilon, analyzer: snap.analyzer });
    index.restore(snap);
    index.loadedFormat = snap.formatVersion ?? null;
    // A file of the current format need not be written again until something changes (see save).
    if (index.loadedFormat === BM25_FORMAT_VERSION) {
      const path = resolve(dir, BM25_FILE_NAME);
      index.persisted = { path, file: await fileIdentity(path), changes: index.changes, fingerprint: snap.fingerprint };
    }
    return index;
  }

  /** Id → slot of the live documents, built on first use after a load or compaction (a million entries: ~0.5 s). */
  private slotOf(): Map<string, number> {
    if (this.slotMap) return this.slotMap;
    const map = new Map<string, number>();
    for (let s = 0; s < this.ids.length; s++) if (this.live[s]) map.set(this.ids[s], s);
    return (this.slotMap = map);
  }

  private liveSlots(): number[] {
    const out: number[] = [];
    for (let s = 0; s < this.ids.length; s++) if (this.live[s]) out.push(s);
    return out;
  }

  private newTerm(token: string): number {
    const t = this.terms.length;
    this.terms.push(token);
    this.termIds.set(token, t);
    this.df = growU32(this.df, t + 1);
    this.tfScratch = growU32(this.tfScratch, t + 1);
    this.maxTf = growU32(this.maxTf, t + 1);
    this.minLen = growU32(this.minLen, t + 1);
    this.minLen[t] = 0xffffffff;
    return t;
  }

  /** The postings of term `t`: its growable copy when it has one, else a view of the segment. */
  private postingsOf(t: number): Postings {
    const own = this.own[t];
    if (own) return own;
    if (t >= this.seg.terms) return NO_POSTINGS;
    const a = this.seg.postStart[t];
    const b = this.seg.postStart[t + 1];
    return { docs: this.seg.postDocs.subarray(a, b), tfs: this.seg.postTfs.subarray(a, b), n: b - a };
  }

  /** The growable postings of term `t`, copied out of the segment on first use. */
  private ownPostings(t: number): Postings {
    let p = this.own[t];
    if (!p) this.own[t] = p = t < this.seg.terms ? growablePostings(this.postingsOf(t), 4) : newPostings(2);
    return p;
  }

  /** Term ids and tfs of a slot (live or not). */
  private forward(slot: number): ForwardDoc {
    const seg = this.seg;
    if (slot < seg.docs) {
      const { docStart, docTerms, docTfs } = forwardIndex(seg);
      const a = docStart[slot];
      const b = docStart[slot + 1];
      return { terms: docTerms.subarray(a, b), tfs: docTfs.subarray(a, b) };
    }
    return { terms: this.extraTerms[slot - seg.docs] ?? new Uint32Array(0), tfs: this.extraTfs[slot - seg.docs] ?? new Uint32Array(0) };
  }

  private addSlot(id: string, source: string, length: number, ts: Uint32Array, fs: Uint32Array): void {
    const slot = this.ids.length;
    this.ids.push(id);
    this.sources.push(source);
    this.live = growU8(this.live, slot + 1);
    this.lens = growU32(this.lens, slot + 1);
    this.live[slot] = 1;
    this.lens[slot] = length;
    this.extraTerms[slot - this.seg.docs] = ts;
    this.extraTfs[slot - this.seg.docs] = fs;
    for (let i = 0; i < ts.length; i++) {
      const t = ts[i];
      this.df[t]++;
      appendPosting(this.ownPostings(t), slot, fs[i]);
      if (fs[i] > this.maxTf[t]) this.maxTf[t] = fs[i];
      if (length < this.minLen[t]) this.minLen[t] = length;
    }
    this.slotOf().set(id, slot);
    this.changes++;
    this.liveCount++;
    this.totalLen += length;
  }

  private removeSlot(slot: number): void {
    if (!this.live[slot]) return;
    if (slot < this.seg.docs && this.seg.forward === null) {
      this.unsettled.push(slot);
    } else {
      const ts = this.forward(slot).terms;
      for (let i = 0; i < ts.length; i++) this.df[ts[i]]--;
    }
    this.slotOf().delete(this.ids[slot]);
    this.live[slot] = 0;
    this.changes++;
    this.liveCount--;
    this.totalLen -= this.lens[slot];
    if (slot >= this.seg.docs) {
      this.extraTerms[slot - this.seg.docs] = null;
      this.extraTfs[slot - this.seg.docs] = null;
    }
    this.dead++;
    this.okapiIdf = null;
  }

  /**
   * Lowers the document frequencies of the terms of the {@link unsettled} slots: one pass over the segment's
   * postings (the first {@link SETTLE_PASSES} times since the segment was built or loaded), else through the
   * per-document side, derived once. A few removals after a load (an ingest replacing a file) so cost one
   * pass instead of the per-document side of every document.
   */
  private settleRemovals(): void {
    const slots = this.unsettled;
    if (slots.length === 0) return;
    this.unsettled = [];
    const seg = this.seg;
    if (seg.forward !== null || ++this.settlePasses > SETTLE_PASSES) {
      const { docStart, docTerms } = forwardIndex(seg);
      for (const s of slots) for (let i = docStart[s]; i < docStart[s + 1]; i++) this.df[docTerms[i]]--;
    } else {
      const gone = new Uint8Array(seg.docs);
      for (const s of slots) gone[s] = 1;
      const { postStart, postDocs } = seg;
      for (let t = 0; t < seg.terms; t++) {
        let n = 0;
        for (let i = postStart[t], end = postStart[t + 1]; i < end; i++) n += gone[postDocs[i]];
        if (n > 0) this.df[t] -= n;
      }
    }
    this.okapiIdf = null;
  }

  private maybeCompact(): void {
    if (this.dead < COMPACT_MIN_DEAD || this.dead * 4 < this.ids.length) return;
    this.restore(this.snapshot());
  }

  private okapiIdfTable(): Float64Array {
    if (this.okapiIdf) return this.okapiIdf;
    const n = this.liveCount;
    const idf = new Float64Array(this.terms.length);
    const negative: number[] = [];
    let sum = 0;
    let count = 0;
    for (let t = 0; t < this.terms.length; t++) {
      const f = this.df[t];
      if (f === 0) continue;
      const v = Math.log(n - f + 0.5) - Math.log(f + 0.5);
      idf[t] = v;
      sum += v;
      count++;
      if (v < 0) negative.push(t);
    }
    const eps = this.epsilon * (count > 0 ? sum / count : 0);
    for (const t of negative) idf[t] = eps;
    this.okapiIdf = idf;
    return idf;
  }

  /** The allowed slots of an id filter, or null for all. */
  private allowMask(allowIds: ReadonlySet<string> | undefined): Uint8Array | null {
    if (!allowIds) return null;
    const mask = new Uint8Array(this.ids.length);
    const slotOf = this.slotOf();
    for (const id of allowIds) {
      const s = slotOf.get(id);
      if (s !== undefined) mask[s] = 1;
    }
    return mask;
  }

  /**
   * The indexed query terms in query order. `merge`: a repeated term is one term of summed weight (top-k
   * searches); else one entry per occurrence (rank_bm25's summation order, for {@link scoreDocuments}).
   */
  private queryTerms(tokens: string[], merge: boolean): QueryTerm[] {
    const terms: QueryTerm[] = [];
    const byTerm = new Map<number, QueryTerm>();
    const seg = this.seg;
    for (const token of tokens) {
      const t = this.termIds.get(token);
      if (t === undefined || this.df[t] === 0) continue;
      const idf = this.termIdf(t);
      const existing = merge ? byTerm.get(t) : undefined;
      if (existing) {
        existing.weight += idf;
        existing.bound += idf * this.termFactor(t);
        continue;
      }
      const inSegment = this.own[t] === undefined && t < seg.terms;
      const blocks = inSegment
        ? {
            size: seg.blocks.size,
            maxTf: seg.blocks.maxTf.subarray(seg.blocks.start[t], seg.blocks.start[t + 1]),
            minLen: seg.blocks.minLen.subarray(seg.blocks.start[t], seg.blocks.start[t + 1]),
          }
        : null;
      const term = { postings: this.postingsOf(t), weight: idf, bound: idf * this.termFactor(t), blocks };
      byTerm.set(t, term);
      terms.push(term);
    }
    return terms;
  }

  /** The accumulator arrays of an exhaustive pass, sized for every slot, with a fresh generation. */
  private scoringContext(mask: Uint8Array | null): ScoringContext {
    const slots = this.ids.length;
    if (this.scratch.length < slots) {
      this.scratch = new Float64Array(slots + 1024);
      this.stamp = new Uint32Array(slots + 1024);
      this.touchedBuf = new Uint32Array(slots + 1024);
      this.stampGen = 0;
    }
    if (++this.stampGen === 0xffffffff) {
      this.stamp.fill(0);
      this.stampGen = 1;
    }
    return {
      norms: this.normTable(), tfMul: this.tfMul(), live: this.dead > 0 ? this.live : null,
      mask, scratch: this.scratch, stamp: this.stamp, gen: this.stampGen, touched: this.touchedBuf,
    };
  }

  private tfMul(): number {
    return this.variant === "okapi" ? this.k1 + 1 : 1;
  }

  /** Upper bound of tf·mul/(tf + norm) for a term: its largest tf over its shortest document. */
  private termFactor(t: number): number {
    const tf = this.maxTf[t];
    const mul = this.variant === "okapi" ? this.k1 + 1 : 1;
    const norm = this.k1 * (1 - this.b + (this.b * this.minLen[t]) / (this.totalLen / this.liveCount));
    return (tf * mul) / (tf + norm);
  }

  private termIdf(t: number): number {
    if (this.variant === "okapi") return this.okapiIdfTable()[t];
    const n = this.df[t];
    return Math.log(1 + (this.liveCount - n + 0.5) / (n + 0.5));
  }

  /** k1 · (1 − b + b · dl / avgdl) per slot, recomputed when avgdl changed since the last search. */
  private normTable(): Float64Array {
    const avgdl = this.totalLen / this.liveCount;
    const slots = this.ids.length;
    if (avgdl === this.normsAvgdl && this.normsSlots === slots) return this.norms;
    if (this.norms.length < slots) this.norms = new Float64Array(slots + 1024);
    const { k1, b, lens, norms } = this;
    for (let d = 0; d < slots; d++) norms[d] = k1 * (1 - b + (b * lens[d]) / avgdl);
    this.normsAvgdl = avgdl;
    this.normsSlots = slots;
    return norms;
  }

  /** The live documents as one segment: the current one when nothing changed since it was built. */
  private snapshot(): Bm25Snapshot {
    this.settleRemovals();
    const settings = {
      variant: this.variant, k1: this.k1, b: this.b, epsilon: this.epsilon, analyzer: this.analyzerOptions, fingerprint: this.fingerprint,
    };
    if (this.dead === 0 && this.ids.length === this.seg.docs && this.terms.length === this.seg.terms) {
      return { ...settings, terms: this.terms, ids: this.ids, sources: this.sources, lens: this.lens.subarray(0, this.ids.length), segment: this.seg };
    }
    const termMap = new Int32Array(this.terms.length).fill(-1);
    const terms: string[] = [];
    let tfBound = 0;
    for (let t = 0; t < this.terms.length; t++) {
      if (this.df[t] > 0) {
        termMap[t] = terms.length;
        terms.push(this.terms[t]);
        if (this.maxTf[t] > tfBound) tfBound = this.maxTf[t];
      }
    }
    const ids: string[] = [];
    const sources: string[] = [];
    const lens = new Uint32Array(this.liveCount);
    const newSlot = new Int32Array(this.ids.length).fill(-1);
    for (let s = 0; s < this.ids.length; s++) {
      if (!this.live[s]) continue;
      newSlot[s] = ids.length;
      lens[ids.length] = this.lens[s];
      ids.push(this.ids[s]);
      sources.push(this.sources[s]);
    }
    // Straight from the postings (the segment's, or a term's growable copy), dead slots left out.
    const segment = mergeSegment({ seg: this.seg, own: this.own, termMap, counts: this.df, termCount: terms.length, newSlot, lens, tfBound });
    return { ...settings, terms, ids, sources, lens, segment };
  }

  private restore(snap: Bm25Snapshot): void {
    const n = snap.ids.length;
    const seg = snap.segment;
    const termCount = snap.terms.length;
    this.fingerprint = snap.fingerprint;
    this.ids = snap.ids;
    this.sources = snap.sources;
    this.slotMap = null;
    this.live = new Uint8Array(n + 16).fill(1, 0, n);
    this.lens = snap.lens;
    this.seg = seg;
    this.extraTerms = [];
    this.extraTfs = [];
    this.own = [];
    this.liveCount = n;
    this.totalLen = 0;
    for (let s = 0; s < n; s++) this.totalLen += this.lens[s];
    this.dead = 0;
    this.unsettled = [];
    this.settlePasses = 0;
    this.terms = snap.terms;
    this.termIds = new Map();
    for (let t = 0; t < termCount; t++) this.termIds.set(snap.terms[t], t);
    this.df = new Uint32Array(termCount + 16);
    for (let t = 0; t < termCount; t++) this.df[t] = seg.postStart[t + 1] - seg.postStart[t];
    this.tfScratch = new Uint32Array(termCount + 16);
    this.maxTf = seg.maxTf;
    this.minLen = seg.minLen;
    this.normsAvgdl = NaN;
    this.okapiIdf = null;
    this.scratch = new Float64Array(0);
    this.stamp = new Uint32Array(0);
  }
}
