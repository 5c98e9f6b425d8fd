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
