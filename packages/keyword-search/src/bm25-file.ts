import { open } from "node:fs/promises";
import { join } from "node:path";
import { endianness } from "node:os";
import { HierdocError, PackedStrings } from "@hierdoc/core";
import type { AnalyzerOptions } from "./analyzer.js";
import { writeFileAtomic } from "./atomic-write.js";
import { blockStarts, buildSegment, computeBlocks, type Bm25Segment, type ForwardDoc, type TfArray } from "./bm25-segment.js";

/** Everything a BM25 index needs to come back without re-tokenising: settings, ids, lengths and one segment. */
export interface Bm25Snapshot {
  variant: "okapi" | "lucene";
  k1: number;
  b: number;
  epsilon: number;
  analyzer: AnalyzerOptions;
  fingerprint: string | null;
  terms: string[];
  ids: string[];
  sources: string[];
  lens: Uint32Array;
  segment: Bm25Segment;
  /**
   * Format of the file it was read from: 4 (current), 3 (the ids in the JSON header: parsed, ≈ 1.5 s at 1M
   * documents), 2 (also no block bounds: computed on load), 1 (the per-document layout, converted on load).
   */
  formatVersion?: number;
}

const MAGIC_V1 = Buffer.from("HDBM25\u0000\u0001", "latin1");
const MAGIC_V2 = Buffer.from("HDBM25\u0000\u0002", "latin1");
const MAGIC_V3 = Buffer.from("HDBM25\u0000\u0003", "latin1");
const MAGIC = Buffer.from("HDBM25\u0000\u0004", "latin1");

/** Format written by {@link writeBm25File}; files of older formats load, converted in memory. */
export const BM25_FORMAT_VERSION = 4;

interface Header {
  format: "hierdoc-bm25";
  version: number;
  endianness: "LE" | "BE";
  variant: "okapi" | "lucene";
  k1: number;
  b: number;
  epsilon: number;
  analyzer: AnalyzerOptions;
  fingerprint: string | null;
  terms: string[];
  /** The document ids (formats 1-3); format 4 packs them after the arrays (see {@link Header.idBytes}). */
  ids?: string[];
  /** Format 4: number of documents, and the UTF-8 byte length of their packed ids. */
  docs?: number;
  idBytes?: number;
  sourceTable: string[];
  /** Entries of the postings (= of the forward index). */
  postings: number;
  /** Bytes per tf: 2 or 4 (version ≥ 2). */
  tfBytes?: 2 | 4;
  /** Postings per block of the block-max bounds (version 3). */
  blockSize?: number;
  /** Blocks of the block-max bounds (version 3). */
  blocks?: number;
}

/**
 * Writes format 4: 8-byte magic, uint32 header length, JSON header (settings, fingerprint, terms, sources, sizes),
 * padding to 4 bytes, then uint32 arrays lens[n], sourceIndex[n], idOffsets[n+1], postStart[t+1], maxTf[t],
 * minLen[t], blockMaxTf[B], blockMinLen[B], postDocs[p], postTfs[p] (2 or 4 bytes each), and the document ids
 * as UTF-8, back to back (id `s` is bytes idOffsets[s]..idOffsets[s+1]). Loading maps the arrays as views of one
 * buffer: no per-posting work; the per-document side is derived from the postings when an update first needs
 * it. Format 3 is the same with the ids in the JSON header instead; format 2 also without the two block arrays.
 */
export async function writeBm25File(dir: string, name: string, snap: Bm25Snapshot): Promise<void> {
  const n = snap.ids.length;
  const seg = snap.segment;
  const sourceTable: string[] = [];
  const sourceIndex = new Map<string, number>();
  const srcIdx = new Uint32Array(n);
  for (let s = 0; s < n; s++) {
    let i = sourceIndex.get(snap.sources[s]);
    if (i === undefined) {
      i = sourceTable.length;
      sourceTable.push(snap.sources[s]);
      sourceIndex.set(snap.sources[s], i);
    }
    srcIdx[s] = i;
  }
  const header: Header = {
    format: "hierdoc-bm25", version: BM25_FORMAT_VERSION, endianness: endianness(), variant: snap.variant,
    k1: snap.k1, b: snap.b, epsilon: snap.epsilon, analyzer: snap.analyzer, fingerprint: snap.fingerprint,
    terms: snap.terms, docs: n, idBytes: 0, sourceTable, postings: seg.postDocs.length, tfBytes: seg.postTfs.BYTES_PER_ELEMENT as 2 | 4,
    blockSize: seg.blocks.size, blocks: seg.blocks.maxTf.length,
  };
  const ids = PackedStrings.pack(snap.ids);
  header.idBytes = ids.bytes.length;
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const pad = Buffer.alloc((4 - ((MAGIC.length + 4 + json.length) % 4)) % 4);
  const bytes = (a: Uint32Array | Int32Array | TfArray) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  await writeFileAtomic(dir, name, [
    MAGIC, len, json, pad, bytes(snap.lens.subarray(0, n)), bytes(srcIdx), bytes(ids.offsets), bytes(seg.postStart), bytes(seg.maxTf), bytes(seg.minLen),
    bytes(seg.blocks.maxTf), bytes(seg.blocks.minLen), bytes(seg.postDocs), bytes(seg.postTfs), ids.bytes,
  ]);
}

/**
 * Reads a file written by {@link writeBm25File} (format 4), format 3 (ids parsed from the JSON header), format 2
 * (also block bounds computed on load) or format 1 (per-document arrays, converted to a segment on load); null
 * when it does not exist.
 * @throws HierdocError E_INDEX_CORRUPT when it is truncated, of another format, or inconsistent.
 */
export async function readBm25File(dir: string, name: string): Promise<Bm25Snapshot | null> {
  const file = join(dir, name);
  const corrupt = (why: string) => new HierdocError("E_INDEX_CORRUPT", `BM25 index ${file} is unusable: ${why}; rebuild it with ingest`, { details: { file } });
  let parts: { header: Header; body: Buffer; version: number };
  try {
    parts = await readParts(file, corrupt);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    if (err instanceof HierdocError) throw err;
    throw new HierdocError("E_INDEX_CORRUPT", `cannot read BM25 index ${file}: ${(err as Error).message}`, { cause: err, details: { file } });
  }
  const { header, body, version } = parts;
  if (header.format !== "hierdoc-bm25" || header.version !== version) throw corrupt(`unsupported format version ${header.version}`);
  if (header.endianness !== endianness()) throw corrupt(`written on a ${header.endianness} machine`);
  const read = version === 1 ? readV1 : readV2;
  const { lens, srcIdx, segment, ids } = read(body, 0, header, corrupt);
  const n = ids.length;
  const sources: string[] = new Array(n);
  for (let s = 0; s < n; s++) {
    const src = header.sourceTable[srcIdx[s]];
    if (src === undefined) throw corrupt("inconsistent document table");
    sources[s] = src;
  }
  return {
    variant: header.variant, k1: header.k1, b: header.b, epsilon: header.epsilon, analyzer: header.analyzer,
    fingerprint: header.fingerprint, terms: header.terms, ids, sources, lens, segment, formatVersion: version,
  };
}

type Parts = { lens: Uint32Array; srcIdx: Uint32Array; segment: Bm25Segment; ids: string[] };

/**
 * Reads the magic and JSON header, then the arrays into a buffer of their own (4-aligned), so the loaded
 * index keeps no copy of the header.
 */
async function readParts(file: string, corrupt: (why: string) => Error): Promise<{ header: Header; body: Buffer; version: number }> {
  const fh = await open(file, "r");
  try {
    const size = (await fh.stat()).size;
    const head = Buffer.alloc(12);
    await fh.read(head, 0, 12, 0);
    const magic = head.subarray(0, 8);
    const version = magic.equals(MAGIC) ? 4 : magic.equals(MAGIC_V3) ? 3 : magic.equals(MAGIC_V2) ? 2 : magic.equals(MAGIC_V1) ? 1 : 0;
    if (size < 12 || version === 0) throw corrupt("not a hierdoc BM25 file");
    const jsonLen = head.readUInt32LE(8);
    if (12 + jsonLen > size) throw corrupt("truncated header");
    const json = Buffer.alloc(jsonLen);
    await readFully(fh, json, 12);
    let header: Header;
    try {
      header = JSON.parse(json.toString("utf8")) as Header;
    } catch (err) {
      throw corrupt(`bad header (${(err as Error).message})`);
    }
    let pos = 12 + jsonLen;
    pos += (4 - (pos % 4)) % 4;
    const body = Buffer.from(new ArrayBuffer(Math.max(0, size - pos)));
    await readFully(fh, body, pos);
    return { header, body, version };
  } finally {
    await fh.close();
  }
}

async function readFully(fh: import("node:fs/promises").FileHandle, into: Buffer, position: number): Promise<void> {
  const CHUNK = 64 * 1024 * 1024;
  for (let off = 0; off < into.length; ) {
    const { bytesRead } = await fh.read(into, off, Math.min(CHUNK, into.length - off), position + off);
    if (bytesRead === 0) break;
    off += bytesRead;
  }
}

/** A reader of typed arrays at increasing offsets of one buffer (copied once when it is not 4-aligned). */
function arrays(buf: Buffer, start: number) {
  const aligned = buf.byteOffset % 4 === 0 ? buf : Buffer.from(buf);
  let pos = start;
  return {
    u32(count: number): Uint32Array {
      const a = new Uint32Array(aligned.buffer, aligned.byteOffset + pos, count);
      pos += 4 * count;
      return a;
    },
    i32(count: number): Int32Array {
      const a = new Int32Array(aligned.buffer, aligned.byteOffset + pos, count);
      pos += 4 * count;
      return a;
    },
    /** The rest of the buffer from here (the packed ids). */
    rest(): Buffer {
      return aligned.subarray(pos);
    },
    tf(count: number, bytes: 2 | 4): TfArray {
      const a = bytes === 2 ? new Uint16Array(aligned.buffer, aligned.byteOffset + pos, count) : new Uint32Array(aligned.buffer, aligned.byteOffset + pos, count);
      pos += bytes * count;
      return a;
    },
  };
}

/**
 * Formats 2 to 4 (3 adds the block bounds, for 2 they are computed from the postings; 4 packs the ids after
 * the arrays, decoded here once each, instead of in the JSON header).
 */
function readV2(buf: Buffer, pos: number, h: Header, corrupt: (why: string) => Error): Parts {
  const packed = h.version >= 4;
  if (packed ? !(Number.isInteger(h.docs) && Number.isInteger(h.idBytes)) : !Array.isArray(h.ids)) throw corrupt("bad header (document ids missing)");
  const n = packed ? (h.docs as number) : h.ids!.length;
  const t = h.terms.length;
  const p = h.postings;
  const tfBytes = h.tfBytes;
  if (tfBytes !== 2 && tfBytes !== 4) throw corrupt(`bad tf width ${tfBytes}`);
  const blockCount = h.version >= 3 ? h.blocks : 0;
  if (h.version >= 3 && !(Number.isInteger(blockCount) && Number.isInteger(h.blockSize) && (h.blockSize as number) > 0)) {
    throw corrupt("bad block table size");
  }
  const idTable = packed ? 4 * (n + 1) + (h.idBytes as number) : 0;
  const expected = pos + 4 * (2 * n + 3 * t + 1 + p + 2 * (blockCount as number)) + tfBytes * p + idTable;
  if (buf.length !== expected) throw corrupt(`size ${buf.length} bytes, expected ${expected}`);
  const a = arrays(buf, pos);
  const lens = a.u32(n);
  const srcIdx = a.u32(n);
  const idOffsets = packed ? a.i32(n + 1) : null;
  const postStart = a.u32(t + 1);
  const maxTf = a.u32(t);
  const minLen = a.u32(t);
  const blockMaxTf = a.u32(blockCount as number);
  const blockMinLen = a.u32(blockCount as number);
  const postDocs = a.u32(p);
  const postTfs = a.tf(p, tfBytes);
  let ids: string[];
  if (idOffsets) {
    const idBytes = a.rest();
    if (idOffsets[0] !== 0 || idOffsets[n] !== idBytes.length) throw corrupt("document id offsets do not match the id bytes");
    ids = new Array<string>(n);
    for (let s = 0; s < n; s++) {
      const from = idOffsets[s];
      const to = idOffsets[s + 1];
      if (!(from <= to)) throw corrupt("inconsistent document id offsets");
      ids[s] = idBytes.toString("utf8", from, to);
    }
  } else {
    ids = h.ids!;
  }
  if (postStart[0] !== 0 || postStart[t] !== p) throw corrupt("postings count mismatch");
  for (let i = 0; i < t; i++) if (postStart[i] > postStart[i + 1]) throw corrupt("inconsistent postings table");
  for (let i = 0; i < p; i++) if (postDocs[i] >= n) throw corrupt("document id out of range");
  let blocks;
  if (h.version >= 3) {
    const start = blockStarts(postStart, h.blockSize as number);
    if (start[t] !== blockCount) throw corrupt("block table does not match the postings");
    blocks = { size: h.blockSize as number, start, maxTf: blockMaxTf, minLen: blockMinLen };
  } else {
    blocks = computeBlocks(postStart, postDocs, postTfs, lens);
  }
  return { lens, srcIdx, ids, segment: { docs: n, terms: t, forward: null, postStart, postDocs, postTfs, maxTf, minLen, blocks } };
}

/** Format 1: uint32 lens[n], sourceIndex[n], termCount[n], termIds[p], tfs[p]; converted to a segment. */
function readV1(buf: Buffer, pos: number, h: Header, corrupt: (why: string) => Error): Parts {
  if (!Array.isArray(h.ids)) throw corrupt("bad header (document ids missing)");
  const n = h.ids.length;
  const expected = pos + 4 * (3 * n + 2 * h.postings);
  if (buf.length !== expected) throw corrupt(`size ${buf.length} bytes, expected ${expected}`);
  const a = arrays(buf, pos);
  const lens = a.u32(n);
  const srcIdx = a.u32(n);
  const counts = a.u32(n);
  const termIds = a.u32(h.postings);
  const tfs = a.u32(h.postings);
  const docs: ForwardDoc[] = new Array(n);
  let off = 0;
  for (let s = 0; s < n; s++) {
    const c = counts[s];
    if (off + c > h.postings) throw corrupt("inconsistent document table");
    docs[s] = { terms: termIds.subarray(off, off + c), tfs: tfs.subarray(off, off + c) };
    off += c;
  }
  if (off !== h.postings) throw corrupt("postings count mismatch");
  const termCount = h.terms.length;
  for (let i = 0; i < termIds.length; i++) if (termIds[i] >= termCount) throw corrupt("term id out of range");
  return { lens, srcIdx, ids: h.ids, segment: buildSegment(docs, termCount, lens) };
}
