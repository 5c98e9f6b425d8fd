import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { endianness } from "node:os";
import { HierdocError } from "@hierdoc/core";
import type { AnalyzerOptions } from "./analyzer.js";
import { writeFileAtomic } from "./atomic-write.js";

/** Everything a BM25 index needs to come back without re-tokenising: per-document term ids and tfs. */
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
  lens: ArrayLike<number>;
  docTerms: Uint32Array[];
  docTfs: Uint32Array[];
}

const MAGIC = Buffer.from("HDBM25\u0000\u0001", "latin1");
const FORMAT_VERSION = 1;

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
  ids: string[];
  sourceTable: string[];
  postings: number;
}

/**
 * File layout: 8-byte magic, uint32 header length, JSON header (settings, fingerprint, terms, ids,
 * sources), padding to 4 bytes, then uint32 arrays: lengths[n], sourceIndex[n], termCount[n],
 * termIds[total], tfs[total].
 */
export async function writeBm25File(dir: string, name: string, snap: Bm25Snapshot): Promise<void> {
  const n = snap.ids.length;
  const sourceTable: string[] = [];
  const sourceIndex = new Map<string, number>();
  const srcIdx = new Uint32Array(n);
  const counts = new Uint32Array(n);
  const lens = new Uint32Array(n);
  let total = 0;
  for (let s = 0; s < n; s++) {
    let i = sourceIndex.get(snap.sources[s]);
    if (i === undefined) {
      i = sourceTable.length;
      sourceTable.push(snap.sources[s]);
      sourceIndex.set(snap.sources[s], i);
    }
    srcIdx[s] = i;
    counts[s] = snap.docTerms[s].length;
    lens[s] = snap.lens[s];
    total += counts[s];
  }
  const termIds = new Uint32Array(total);
  const tfs = new Uint32Array(total);
  let off = 0;
  for (let s = 0; s < n; s++) {
    termIds.set(snap.docTerms[s], off);
    tfs.set(snap.docTfs[s], off);
    off += counts[s];
  }
  const header: Header = {
    format: "hierdoc-bm25", version: FORMAT_VERSION, endianness: endianness(), variant: snap.variant,
    k1: snap.k1, b: snap.b, epsilon: snap.epsilon, analyzer: snap.analyzer, fingerprint: snap.fingerprint,
    terms: snap.terms, ids: snap.ids, sourceTable, postings: total,
  };
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const pad = Buffer.alloc((4 - ((MAGIC.length + 4 + json.length) % 4)) % 4);
  const bytes = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  await writeFileAtomic(dir, name, [MAGIC, len, json, pad, bytes(lens), bytes(srcIdx), bytes(counts), bytes(termIds), bytes(tfs)]);
}

/**
 * Reads a file written by {@link writeBm25File}; null when it does not exist.
 * @throws HierdocError E_INDEX_CORRUPT when it is truncated, of another format, or inconsistent.
 */
export async function readBm25File(dir: string, name: string): Promise<Bm25Snapshot | null> {
  const file = join(dir, name);
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new HierdocError("E_INDEX_CORRUPT", `cannot read BM25 index ${file}: ${(err as Error).message}`, { cause: err, details: { file } });
  }
  const corrupt = (why: string) => new HierdocError("E_INDEX_CORRUPT", `BM25 index ${file} is unusable: ${why}; rebuild it with ingest`, { details: { file } });
  if (buf.length < 12 || !buf.subarray(0, 8).equals(MAGIC)) throw corrupt("not a hierdoc BM25 file");
  const jsonLen = buf.readUInt32LE(8);
  if (12 + jsonLen > buf.length) throw corrupt("truncated header");
  let header: Header;
  try {
    header = JSON.parse(buf.toString("utf8", 12, 12 + jsonLen)) as Header;
  } catch (err) {
    throw corrupt(`bad header (${(err as Error).message})`);
  }
  if (header.format !== "hierdoc-bm25" || header.version !== FORMAT_VERSION) throw corrupt(`unsupported format version ${header.version}`);
  if (header.endianness !== endianness()) throw corrupt(`written on a ${header.endianness} machine`);
  const n = header.ids.length;
  let pos = 12 + jsonLen;
  pos += (4 - (pos % 4)) % 4;
  const expected = pos + 4 * (3 * n + 2 * header.postings);
  if (buf.length !== expected) throw corrupt(`size ${buf.length} bytes, expected ${expected}`);
  const aligned = buf.byteOffset % 4 === 0 ? buf : Buffer.from(buf);
  const u32 = (count: number) => {
    const a = new Uint32Array(aligned.buffer, aligned.byteOffset + pos, count);
    pos += 4 * count;
    return a;
  };
  const lens = u32(n);
  const srcIdx = u32(n);
  const counts = u32(n);
  const termIds = u32(header.postings);
  const tfs = u32(header.postings);
  const docTerms: Uint32Array[] = new Array(n);
  const docTfs: Uint32Array[] = new Array(n);
  const sources: string[] = new Array(n);
  let off = 0;
  const termCount = header.terms.length;
  for (let s = 0; s < n; s++) {
    const c = counts[s];
    if (off + c > header.postings || srcIdx[s] >= header.sourceTable.length) throw corrupt("inconsistent document table");
    docTerms[s] = termIds.subarray(off, off + c);
    docTfs[s] = tfs.subarray(off, off + c);
    sources[s] = header.sourceTable[srcIdx[s]];
    off += c;
  }
  if (off !== header.postings) throw corrupt("postings count mismatch");
  for (let i = 0; i < termIds.length; i++) if (termIds[i] >= termCount) throw corrupt("term id out of range");
  return {
    variant: header.variant, k1: header.k1, b: header.b, epsilon: header.epsilon, analyzer: header.analyzer,
    fingerprint: header.fingerprint, terms: header.terms, ids: header.ids, sources, lens, docTerms, docTfs,
  };
}
