import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { endianness } from "node:os";
import { HierdocError, PackedStrings, StringTable, type DefinitionEntry } from "@hierdoc/core";
import { decodeDefinitions, encodeDefinitions, type SectionResolverState } from "@hierdoc/definitions";
import { writeFileAtomic, type ExactIndexState } from "@hierdoc/keyword-search";
import type { CatalogEntry } from "./catalog.js";
import { CATALOG_COLUMNS, FlatCatalog } from "./flat-catalog.js";

/** File name of the persisted derived state inside the index folder. */
export const DERIVED_FILE_NAME = "derived.bin";

/** "HDDERIV" and the format version byte: a file of another version is told apart without parsing it. */
const MAGIC = Buffer.from("HDDERIV", "latin1");
const FORMAT_VERSION = 4;

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
  /** The code title each source of the catalog is ("5 U.S.C."), when the writer gives it; read back as null when not. */
  codeTitles?: Array<[sourcePath: string, name: string]> | null;
}

/** A {@link DerivedState} as read back: the catalog is served in place from the file's typed arrays. */
export interface LoadedDerivedState extends Omit<DerivedState, "catalog"> {
  catalog: FlatCatalog;
}

interface Header {
  format: "hierdoc-derived";
  version: number;
  endianness: "LE" | "BE";
  stamp: string;
  fingerprint: string;
  strings: string[];
  exactKeys: string[];
  resolverKeys: string[];
  chunks: number;
  codeTitles: Array<[string, string]> | null;
  /** Key lists of the definition table (see `encodeDefinitions`); null when the definitions are stored as JSON. */
  definitionShapes: string[][] | null;
  /**
   * Int32 counts of the blobs after the header: catalog lists, catalog columns, exact data, resolver data,
   * id offsets, id order, definition table, definition string offsets.
   */
  blobs: [number, number, number, number, number, number, number, number];
  /** Byte counts of the UTF-8 parts after the blobs: the packed ids, the packed definition strings (or their JSON). */
  bytes: [number, number];
}

/**
 * Writes `dir/derived.bin` atomically. Layout: 7-byte magic and a format-version byte, uint32 header length,
 * a small JSON header (stamp, fingerprint, pooled strings, the keys of the exact index and resolver, code titles, sizes),
 * padding to 4 bytes, int32 blobs (catalog string lists, catalog columns ({@link CATALOG_COLUMNS} per entry),
 * exact index, resolver, id offsets, positions in id order, definition table, definition string offsets), then the
 * ids and the definitions' strings packed as UTF-8 (the definitions as JSON when they hold other values than strings and integers).
 * @throws HierdocError E_INTERNAL when it cannot be written.
 */
export async function writeDerivedState(dir: string, state: DerivedState): Promise<void> {
  const strings = new StringTable();
  const str = (s: string | undefined) => strings.intern(s);
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
  const columns = new Int32Array(n * CATALOG_COLUMNS);
  const ids: string[] = new Array(n);
  for (let i = 0, o = 0; i < n; i++, o += CATALOG_COLUMNS) {
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
    columns[o + 12] = list(e.citedKeys);
  }
  const listData = Int32Array.from(lists);
  const packed = PackedStrings.pack(ids);
  const order = Int32Array.from(ids.keys()).sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
  const table = encodeDefinitions(state.definitions);
  const defStrings = table ? PackedStrings.pack(table.strings) : { bytes: Buffer.from(JSON.stringify(state.definitions), "utf8"), offsets: new Int32Array(0) };
  const defData = table?.data ?? new Int32Array(0);
  const header: Header = {
    format: "hierdoc-derived", version: FORMAT_VERSION, endianness: endianness(), stamp: state.stamp, fingerprint: state.fingerprint,
    strings: strings.strings, exactKeys: state.exact.keys, resolverKeys: state.resolver.keys, chunks: n, definitionShapes: table?.shapes ?? null,
    codeTitles: state.codeTitles ?? null,
    blobs: [listData.length, columns.length, state.exact.data.length, state.resolver.data.length, packed.offsets.length, order.length, defData.length, defStrings.offsets.length],
    bytes: [packed.bytes.length, defStrings.bytes.length],
  };
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const pad = Buffer.alloc((4 - ((MAGIC.length + 1 + 4 + json.length) % 4)) % 4);
  const bytes = (a: Int32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  await writeFileAtomic(dir, DERIVED_FILE_NAME, [
    MAGIC, Buffer.from([FORMAT_VERSION]), len, json, pad,
    bytes(listData), bytes(columns), bytes(state.exact.data), bytes(state.resolver.data), bytes(packed.offsets), bytes(order),
    bytes(defData), bytes(defStrings.offsets), packed.bytes, defStrings.bytes,
  ]);
}

/**
 * Reads `dir/derived.bin`; null when there is none. The catalog is served in place (see {@link FlatCatalog}).
 * @throws HierdocError E_INDEX_CORRUPT when it is truncated, of another format or version (an older hierdoc's
 * file: the caller rebuilds it from the store), or inconsistent.
 */
export async function readDerivedState(dir: string): Promise<LoadedDerivedState | null> {
  const file = join(dir, DERIVED_FILE_NAME);
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new HierdocError("E_INDEX_CORRUPT", `cannot read ${file}: ${(err as Error).message}`, { cause: err, details: { file } });
  }
  const corrupt = (why: string) => new HierdocError("E_INDEX_CORRUPT", `derived state ${file} is unusable: ${why}`, { details: { file } });
  if (buf.length < 12 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) throw corrupt("not a hierdoc derived-state file");
  const version = buf[MAGIC.length];
  if (version !== FORMAT_VERSION) throw corrupt(`format version ${version}, this hierdoc reads version ${FORMAT_VERSION}`);
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
  if (h.blobs?.length !== 8 || h.bytes?.length !== 2 || !Array.isArray(h.strings)) throw corrupt("bad header (sizes missing)");
  let pos = 12 + jsonLen;
  pos += (4 - (pos % 4)) % 4;
  const expected = pos + 4 * h.blobs.reduce((a, b) => a + b, 0) + h.bytes[0] + h.bytes[1];
  if (buf.length !== expected) throw corrupt(`size ${buf.length} bytes, expected ${expected}`);
  const aligned = buf.byteOffset % 4 === 0 ? buf : Buffer.from(buf);
  const i32 = (count: number) => {
    const a = new Int32Array(aligned.buffer, aligned.byteOffset + pos, count);
    pos += 4 * count;
    return a;
  };
  const utf8 = (count: number) => {
    const b = aligned.subarray(pos, pos + count);
    pos += count;
    return b;
  };
  const [lists, columns, exact, resolver, idOffsets, order, defData, defOffsets] = h.blobs.map(i32);
  if (idOffsets.length !== h.chunks + 1) throw corrupt("id offsets do not match the chunk count");
  let catalog: FlatCatalog;
  try {
    catalog = new FlatCatalog({ ids: new PackedStrings(utf8(h.bytes[0]), idOffsets), order, columns, strings: h.strings, lists });
  } catch (err) {
    throw corrupt((err as Error).message);
  }
  let definitions: DerivedState["definitions"];
  try {
    const defBytes = utf8(h.bytes[1]);
    if (h.definitionShapes) {
      const defStrings = new PackedStrings(defBytes, defOffsets);
      definitions = decodeDefinitions({ shapes: h.definitionShapes, data: defData, stringCount: defStrings.length, string: (i) => defStrings.get(i) });
    } else {
      definitions = JSON.parse(defBytes.toString("utf8")) as DerivedState["definitions"];
    }
  } catch (err) {
    throw corrupt(`bad definitions (${(err as Error).message})`);
  }
  return {
    stamp: h.stamp, fingerprint: h.fingerprint, catalog, definitions, codeTitles: Array.isArray(h.codeTitles) ? h.codeTitles : null,
    exact: { keys: h.exactKeys, data: exact }, resolver: { keys: h.resolverKeys, data: resolver },
  };
}

/** Deletes `dir/derived.bin` (before the store changes, so a crash mid-ingest never leaves a stale one). */
export async function removeDerivedState(dir: string): Promise<void> {
  await rm(join(dir, DERIVED_FILE_NAME), { force: true });
}
