import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { endianness } from "node:os";
import { HierdocError, StringTable, type ChunkType, type DefinitionEntry } from "@hierdoc/core";
import type { SectionResolverState } from "@hierdoc/definitions";
import { writeFileAtomic, type ExactIndexState } from "@hierdoc/keyword-search";
import type { CatalogEntry } from "./catalog.js";

/** File name of the persisted derived state inside the index folder. */
export const DERIVED_FILE_NAME = "derived.bin";

const MAGIC = Buffer.from("HDDERIV\u0001", "latin1");
const FORMAT_VERSION = 1;
/** Int32 columns per catalog entry. */
const COLUMNS = 12;

/**
 * What `HierarchicalDocumentTool.open` otherwise derives from a full scan of the store: the catalog (in
 * store order), the definitions of every source, the built exact index and section resolver (chunks named
 * by catalog position), and the catalog fingerprint; `stamp` identifies the store contents it was built from.
 */
export interface DerivedState {
  stamp: string;
  fingerprint: string;
  catalog: CatalogEntry[];
  definitions: Array<[sourcePath: string, entries: DefinitionEntry[]]>;
  exact: ExactIndexState;
  resolver: SectionResolverState;
}

interface Header {
  format: "hierdoc-derived";
  version: number;
  endianness: "LE" | "BE";
  stamp: string;
  fingerprint: string;
  ids: string[];
  strings: string[];
  definitions: DerivedState["definitions"];
  exactKeys: string[];
  resolverKeys: string[];
  /** Int32 counts of the blobs after the header: catalog lists, catalog columns, exact data, resolver data. */
  blobs: [number, number, number, number];
}

/**
 * Writes `dir/derived.bin` atomically. Layout: 8-byte magic, uint32 header length, JSON header (stamp,
 * fingerprint, chunk ids, pooled strings, definitions, the keys of the exact index and resolver), padding to
 * 4 bytes, then int32 blobs: catalog string lists, catalog columns (12 per entry), exact index, resolver.
 * @throws HierdocError E_INTERNAL when it cannot be written.
 */
export async function writeDerivedState(dir: string, state: DerivedState): Promise<void> {
  const table = new StringTable();
  const str = (s: string | undefined) => table.intern(s);
  const lists: number[] = [];
  const listIndex = new Map<readonly string[], number>();
  const list = (l: readonly string[] | undefined) => {
    if (!l || l.length === 0) return -1;
    let at = listIndex.get(l);
    if (at === undefined) {
      at = lists.length;
      lists.push(l.length);
      for (const s of l) lists.push(str(s));
      listIndex.set(l, at);
    }
    return at;
  };
  const n = state.catalog.length;
  const columns = new Int32Array(n * COLUMNS);
  const ids: string[] = new Array(n);
  for (let i = 0, o = 0; i < n; i++, o += COLUMNS) {
    const e = state.catalog[i];
    ids[i] = e.id;
    columns[o] = str(e.sourcePath);
    columns[o + 1] = e.chunkIndex;
    columns[o + 2] = str(e.sectionId);
    columns[o + 3] = str(e.sectionTitle);
    columns[o + 4] = list(e.sectionAliases);
    columns[o + 5] = list(e.unitIds);
    columns[o + 6] = list(e.parentChain);
    columns[o + 7] = str(e.chunkType);
    columns[o + 8] = str(e.fileHash);
    columns[o + 9] = e.fileChunkCount;
    columns[o + 10] = e.start;
    columns[o + 11] = e.end;
  }
  const listData = Int32Array.from(lists);
  const header: Header = {
    format: "hierdoc-derived", version: FORMAT_VERSION, endianness: endianness(), stamp: state.stamp, fingerprint: state.fingerprint,
    ids, strings: table.strings, definitions: state.definitions, exactKeys: state.exact.keys, resolverKeys: state.resolver.keys,
    blobs: [listData.length, columns.length, state.exact.data.length, state.resolver.data.length],
  };
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const pad = Buffer.alloc((4 - ((MAGIC.length + 4 + json.length) % 4)) % 4);
  const bytes = (a: Int32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  await writeFileAtomic(dir, DERIVED_FILE_NAME, [MAGIC, len, json, pad, bytes(listData), bytes(columns), bytes(state.exact.data), bytes(state.resolver.data)]);
}

/**
 * Reads `dir/derived.bin`; null when there is none.
 * @throws HierdocError E_INDEX_CORRUPT when it is truncated, of another format or version, or inconsistent.
 */
export async function readDerivedState(dir: string): Promise<DerivedState | null> {
  const file = join(dir, DERIVED_FILE_NAME);
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new HierdocError("E_INDEX_CORRUPT", `cannot read ${file}: ${(err as Error).message}`, { cause: err, details: { file } });
  }
  const corrupt = (why: string) => new HierdocError("E_INDEX_CORRUPT", `derived state ${file} is unusable: ${why}`, { details: { file } });
  if (buf.length < 12 || !buf.subarray(0, 8).equals(MAGIC)) throw corrupt("not a hierdoc derived-state file");
  const jsonLen = buf.readUInt32LE(8);
  if (12 + jsonLen > buf.length) throw corrupt("truncated header");
  let h: Header;
  try {
    h = JSON.parse(buf.toString("utf8", 12, 12 + jsonLen)) as Header;
  } catch (err) {
    throw corrupt(`bad header (${(err as Error).message})`);
  }
  if (h.format !== "hierdoc-derived" || h.version !== FORMAT_VERSION) throw corrupt(`unsupported format version ${h.version}`);
  if (h.endianness !== endianness()) throw corrupt(`written on a ${h.endianness} machine`);
  const n = h.ids.length;
  if (h.blobs[1] !== n * COLUMNS) throw corrupt("catalog columns do not match the chunk count");
  let pos = 12 + jsonLen;
  pos += (4 - (pos % 4)) % 4;
  const expected = pos + 4 * h.blobs.reduce((a, b) => a + b, 0);
  if (buf.length !== expected) throw corrupt(`size ${buf.length} bytes, expected ${expected}`);
  const aligned = buf.byteOffset % 4 === 0 ? buf : Buffer.from(buf);
  const i32 = (count: number) => {
    const a = new Int32Array(aligned.buffer, aligned.byteOffset + pos, count);
    pos += 4 * count;
    return a;
  };
  const listData = i32(h.blobs[0]);
  const columns = i32(h.blobs[1]);
  const exact = i32(h.blobs[2]);
  const resolver = i32(h.blobs[3]);
  const { strings } = h;
  const str = (i: number): string => {
    if (i === -1) return undefined as unknown as string;
    const s = strings[i];
    if (s === undefined) throw corrupt(`string ${i} out of range`);
    return s;
  };
  const lists = new Map<number, string[]>();
  const NONE = Object.freeze([]) as unknown as string[];
  const list = (at: number): string[] => {
    if (at === -1) return NONE;
    let l = lists.get(at);
    if (l === undefined) {
      const count = listData[at];
      if (!(count >= 0) || at + count >= listData.length) throw corrupt(`string list ${at} out of range`);
      l = new Array<string>(count);
      for (let j = 0; j < count; j++) l[j] = str(listData[at + 1 + j]);
      lists.set(at, (l = Object.freeze(l) as unknown as string[]));
    }
    return l;
  };
  const catalog: CatalogEntry[] = new Array(n);
  for (let i = 0, o = 0; i < n; i++, o += COLUMNS) {
    catalog[i] = {
      id: h.ids[i],
      sourcePath: str(columns[o]),
      chunkIndex: columns[o + 1],
      sectionId: str(columns[o + 2]),
      sectionTitle: str(columns[o + 3]),
      sectionAliases: list(columns[o + 4]),
      unitIds: list(columns[o + 5]),
      parentChain: list(columns[o + 6]),
      chunkType: str(columns[o + 7]) as ChunkType,
      fileHash: str(columns[o + 8]),
      fileChunkCount: columns[o + 9],
      start: columns[o + 10],
      end: columns[o + 11],
    };
  }
  return {
    stamp: h.stamp, fingerprint: h.fingerprint, catalog, definitions: h.definitions,
    exact: { keys: h.exactKeys, data: exact }, resolver: { keys: h.resolverKeys, data: resolver },
  };
}

/** Deletes `dir/derived.bin` (before the store changes, so a crash mid-ingest never leaves a stale one). */
export async function removeDerivedState(dir: string): Promise<void> {
  await rm(join(dir, DERIVED_FILE_NAME), { force: true });
}
