import { HierdocError } from "@hierdoc/core";
import type { Postings } from "./postings.js";

/** Term frequencies: two bytes each unless some tf exceeds 65,535. */
export type TfArray = Uint16Array | Uint32Array;

/**
 * An immutable BM25 segment in compressed-sparse-row form: per term its postings (document slots ascending,
 * tfs), and per document its terms (for removal and compaction) once {@link forwardIndex} derived them.
 * Loaded from `bm25.bin` as views of one buffer, with no per-posting work; a process that only searches
 * never builds the per-document side.
 */
export interface Bm25Segment {
  /** Documents (slots `0 … docs − 1`). */
  docs: number;
  /** Terms (ids `0 … terms − 1`). */
  terms: number;
  /** Per document: its first entry in `docTerms` / `docTfs` (docs + 1 entries); null until first needed. */
  forward: { docStart: Uint32Array; docTerms: Uint32Array; docTfs: TfArray } | null;
  /** Per term: its first entry in `postDocs` / `postTfs` (terms + 1 entries). */
  postStart: Uint32Array;
  postDocs: Uint32Array;
  postTfs: TfArray;
  /** Per term: its largest tf and the length of its shortest document. */
  maxTf: Uint32Array;
  minLen: Uint32Array;
  /** Per-block score bounds of the postings (see {@link SegmentBlocks}). */
  blocks: SegmentBlocks;
}

/** Postings per block of {@link SegmentBlocks}. */
export const BM25_BLOCK_SIZE = 128;

/**
 * Block-max bounds: each term's postings cut into blocks of `size` entries (block j of term t holds postings
 * `postStart[t] + j·size …`), and per block its largest tf and its shortest document's length. Any BM25
 * contribution in the block is at most weight·f(maxTf, minLen), whatever the average length, so the bounds stay
 * valid while documents are added or removed.
 */
export interface SegmentBlocks {
  size: number;
  /** Per term: its first block (terms + 1 entries). */
  start: Uint32Array;
  maxTf: Uint32Array;
  minLen: Uint32Array;
}

/** Per term, the index of its first block (terms + 1 entries) for postings cut into blocks of `size`. */
export function blockStarts(postStart: Uint32Array, size: number): Uint32Array {
  const terms = postStart.length - 1;
  const start = new Uint32Array(terms + 1);
  for (let t = 0; t < terms; t++) start[t + 1] = start[t] + Math.ceil((postStart[t + 1] - postStart[t]) / size);
  return start;
}

/** Computes the block-max bounds of postings (one pass; used on build and to convert a format-2 file on load). */
export function computeBlocks(postStart: Uint32Array, postDocs: Uint32Array, postTfs: TfArray, lens: ArrayLike<number>, size = BM25_BLOCK_SIZE): SegmentBlocks {
  const start = blockStarts(postStart, size);
  const count = start[start.length - 1];
  const maxTf = new Uint32Array(count);
  const minLen = new Uint32Array(count).fill(0xffffffff);
  for (let t = 0; t + 1 < postStart.length; t++) {
    const a = postStart[t];
    const b = postStart[t + 1];
    for (let blk = start[t], p = a; p < b; blk++) {
      const end = Math.min(p + size, b);
      let tf = 0;
      let len = 0xffffffff;
      for (; p < end; p++) {
        if (postTfs[p] > tf) tf = postTfs[p];
        const l = lens[postDocs[p]];
        if (l < len) len = l;
      }
      maxTf[blk] = tf;
      minLen[blk] = len;
    }
  }
  return { size, start, maxTf, minLen };
}

/** One document's terms and tfs as a segment is built from them. */
export interface ForwardDoc {
  terms: ArrayLike<number>;
  tfs: ArrayLike<number>;
}

/** A tf array of the narrowest type that holds `maxTf`. */
export function tfArray(length: number, maxTf: number): TfArray {
  return maxTf > 0xffff ? new Uint32Array(length) : new Uint16Array(length);
}

/**
 * Builds a segment from documents in slot order (`docs[s]` = slot s) over `termCount` term ids, with the
 * document lengths `lens` (for `minLen`); `remap`, when given, maps the documents' term ids to the segment's.
 */
export function buildSegment(docs: readonly ForwardDoc[], termCount: number, lens: ArrayLike<number>, remap?: Int32Array): Bm25Segment {
  const n = docs.length;
  const docStart = new Uint32Array(n + 1);
  const df = new Uint32Array(termCount);
  let total = 0;
  let top = 0;
  for (let s = 0; s < n; s++) {
    const d = docs[s];
    docStart[s] = total;
    total += d.terms.length;
    for (let i = 0; i < d.terms.length; i++) {
      df[remap ? remap[d.terms[i]] : d.terms[i]]++;
      if (d.tfs[i] > top) top = d.tfs[i];
    }
  }
  docStart[n] = total;
  const docTerms = new Uint32Array(total);
  const docTfs = tfArray(total, top);
  const postStart = new Uint32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) postStart[t + 1] = postStart[t] + df[t];
  const fill = postStart.slice(0, termCount);
  const postDocs = new Uint32Array(total);
  const postTfs = tfArray(total, top);
  const maxTf = new Uint32Array(termCount);
  const minLen = new Uint32Array(termCount).fill(0xffffffff);
  for (let s = 0; s < n; s++) {
    const d = docs[s];
    const len = lens[s];
    let at = docStart[s];
    for (let i = 0; i < d.terms.length; i++, at++) {
      const t = remap ? remap[d.terms[i]] : d.terms[i];
      const tf = d.tfs[i];
      docTerms[at] = t;
      docTfs[at] = tf;
      const p = fill[t]++;
      postDocs[p] = s;
      postTfs[p] = tf;
      if (tf > maxTf[t]) maxTf[t] = tf;
      if (len < minLen[t]) minLen[t] = len;
    }
  }
  return {
    docs: n, terms: termCount, forward: { docStart, docTerms, docTfs }, postStart, postDocs, postTfs, maxTf, minLen,
    blocks: computeBlocks(postStart, postDocs, postTfs, lens),
  };
}

/** What {@link mergeSegment} merges: a segment, the terms' growable copies, and which terms and slots stay. */
export interface SegmentMerge {
  /** The segment the index continues from (slots `0 … seg.docs − 1`, terms `0 … seg.terms − 1`). */
  seg: Bm25Segment;
  /** Per term, its growable postings when it gained documents since `seg` (all of its postings, in slot order). */
  own: ReadonlyArray<Postings | undefined>;
  /** Old term → new term id, −1 for a term with no live document (dropped). Ascending where kept. */
  termMap: Int32Array;
  /** Per old term, its live postings (its document frequency). */
  counts: ArrayLike<number>;
  /** Terms kept. */
  termCount: number;
  /** Old slot → new slot, −1 for a dead slot. Ascending where kept. */
  newSlot: Int32Array;
  /** Lengths of the new slots. */
  lens: Uint32Array;
  /** A bound on every live tf (the largest tf ever indexed): two-byte tfs are written directly below 65,536. */
  tfBound: number;
}

/**
 * Builds the segment a save or compaction writes straight from the postings: per kept term its live postings,
 * renumbered. A segment term without a growable copy, when no segment slot died, is copied as a block (its
 * bounds too); the rest is one pass over the postings. No per-document side (derived by {@link forwardIndex}
 * if an update needs it) and no document objects. The arrays equal what {@link buildSegment} makes from the
 * live documents in slot order.
 * @throws HierdocError E_INTERNAL when a term's live postings disagree with its count.
 */
export function mergeSegment(m: SegmentMerge): Bm25Segment {
  const { seg, own, termMap, counts, termCount, newSlot, lens } = m;
  const postStart = new Uint32Array(termCount + 1);
  for (let t = 0; t < termMap.length; t++) if (termMap[t] >= 0) postStart[termMap[t] + 1] = counts[t];
  for (let t = 0; t < termCount; t++) postStart[t + 1] += postStart[t];
  const total = postStart[termCount];
  const postDocs = new Uint32Array(total);
  let postTfs: TfArray = m.tfBound > 0xffff ? new Uint32Array(total) : new Uint16Array(total);
  const maxTf = new Uint32Array(termCount);
  const minLen = new Uint32Array(termCount).fill(0xffffffff);
  let segKept = true;
  for (let s = 0; s < seg.docs; s++) {
    if (newSlot[s] !== s) {
      segKept = false;
      break;
    }
  }
  let top = 0;
  for (let t = 0; t < termMap.length; t++) {
    const nt = termMap[t];
    if (nt < 0) continue;
    let at = postStart[nt];
    const end = postStart[nt + 1];
    let tfMax = 0;
    let lenMin = 0xffffffff;
    const p = own[t];
    if (p === undefined && segKept) {
      // The term's postings are the segment's, unchanged: one block copy, bounds included.
      const a = seg.postStart[t];
      const b = seg.postStart[t + 1];
      if (b - a !== end - at) throw new HierdocError("E_INTERNAL", `BM25 merge: term ${t} has ${b - a} postings, its count is ${counts[t]}`);
      postDocs.set(seg.postDocs.subarray(a, b), at);
      postTfs.set(seg.postTfs.subarray(a, b), at);
      at = end;
      tfMax = seg.maxTf[t];
      lenMin = seg.minLen[t];
    } else {
      const docs = p ? p.docs : seg.postDocs;
      const tfs = p ? p.tfs : seg.postTfs;
      const from = p ? 0 : seg.postStart[t];
      const to = p ? p.n : seg.postStart[t + 1];
      for (let i = from; i < to; i++) {
        const slot = newSlot[docs[i]];
        if (slot < 0) continue;
        if (at === end) throw new HierdocError("E_INTERNAL", `BM25 merge: term ${t} has more live postings than its count ${counts[t]}`);
        const tf = tfs[i];
        postDocs[at] = slot;
        postTfs[at++] = tf;
        if (tf > tfMax) tfMax = tf;
        if (lens[slot] < lenMin) lenMin = lens[slot];
      }
      if (at !== end) throw new HierdocError("E_INTERNAL", `BM25 merge: term ${t} has fewer live postings than its count ${counts[t]}`);
    }
    maxTf[nt] = tfMax;
    minLen[nt] = lenMin;
    if (tfMax > top) top = tfMax;
  }
  // Four-byte tfs only when a live tf needs them.
  if (top <= 0xffff && postTfs instanceof Uint32Array) postTfs = Uint16Array.from(postTfs);
  return {
    docs: lens.length, terms: termCount, forward: null, postStart, postDocs, postTfs, maxTf, minLen,
    blocks: computeBlocks(postStart, postDocs, postTfs, lens),
  };
}

/** The per-document side of a segment, derived from its postings on first use (terms in id order) and kept. */
export function forwardIndex(seg: Bm25Segment): NonNullable<Bm25Segment["forward"]> {
  if (seg.forward) return seg.forward;
  const { docs, terms, postStart, postDocs, postTfs } = seg;
  const total = postDocs.length;
  const docStart = new Uint32Array(docs + 1);
  for (let i = 0; i < total; i++) docStart[postDocs[i] + 1]++;
  for (let d = 0; d < docs; d++) docStart[d + 1] += docStart[d];
  const fill = docStart.slice(0, docs);
  const docTerms = new Uint32Array(total);
  const docTfs = postTfs.BYTES_PER_ELEMENT === 2 ? new Uint16Array(total) : new Uint32Array(total);
  for (let t = 0; t < terms; t++) {
    for (let i = postStart[t]; i < postStart[t + 1]; i++) {
      const at = fill[postDocs[i]]++;
      docTerms[at] = t;
      docTfs[at] = postTfs[i];
    }
  }
  return (seg.forward = { docStart, docTerms, docTfs });
}

/** A segment with no documents and no terms. */
export function emptySegment(): Bm25Segment {
  return buildSegment([], 0, []);
}
