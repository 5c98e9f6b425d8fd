import { HierdocError, PackedStrings, findSorted, type ChunkType } from "@hierdoc/core";
import type { CatalogEntry } from "./catalog.js";

/** Int32 columns per entry of a {@link FlatCatalog}. */
export const CATALOG_COLUMNS = 13;

/** Shared by entries without aliases, units or parents. */
const NO_STRINGS: string[] = Object.freeze([]) as unknown as string[];

/** The typed arrays a {@link FlatCatalog} reads (as `derived.bin` stores them). */
export interface FlatCatalogData {
  /** Chunk ids in store order. */
  ids: PackedStrings;
  /** Positions sorted by id (JS string order): the id → position search. */
  order: Int32Array;
  /** {@link CATALOG_COLUMNS} per entry: string numbers, list offsets and integers (see {@link FlatCatalog.entryAt}). */
  columns: Int32Array;
  /** The strings the columns and lists number. */
  strings: readonly string[];
  /** String lists: a count, then that many string numbers; the columns point at the count. */
  lists: Int32Array;
}

/**
 * A persisted catalog read in place: one row of int32 columns per chunk, strings numbered in a shared
 * table, ids packed and decoded on demand. Entries are built when asked for (`entryAt`, `get`), so opening
 * a million-chunk index creates no object per chunk. Read-only; {@link Catalog} copies it into its maps on
 * the first change.
 */
export class FlatCatalog {
  readonly count: number;
  private readonly decodedLists = new Map<number, string[]>();
  private sourceRows: Map<string, Int32Array> | null = null;

  /** @throws HierdocError E_INDEX_CORRUPT when a column or list points outside the tables. */
  constructor(private readonly data: FlatCatalogData) {
    const { ids, order, columns, strings, lists } = data;
    this.count = ids.length;
    const bad = (why: string) => new HierdocError("E_INDEX_CORRUPT", `persisted catalog is unusable: ${why}`);
    if (columns.length !== this.count * CATALOG_COLUMNS) throw bad("catalog columns do not match the chunk count");
    if (order.length !== this.count) throw bad("id order does not match the chunk count");
    for (let i = 0; i < order.length; i++) if (!(order[i] >= 0 && order[i] < this.count)) throw bad(`id order ${order[i]} out of range`);
    const ns = strings.length;
    const string = (v: number) => {
      if (!(v >= -1 && v < ns)) throw bad(`string ${v} out of range`);
    };
    const list = (at: number) => {
      if (at !== -1 && !(at >= 0 && at + lists[at] < lists.length)) throw bad(`string list ${at} out of range`);
    };
    for (let o = 0; o < columns.length; o += CATALOG_COLUMNS) {
      string(columns[o]);
      string(columns[o + 2]);
      string(columns[o + 3]);
      string(columns[o + 7]);
      string(columns[o + 8]);
      list(columns[o + 4]);
      list(columns[o + 5]);
      list(columns[o + 6]);
      list(columns[o + 12]);
    }
    for (let at = 0; at < lists.length; at += 1 + lists[at]) {
      if (!(lists[at] >= 0)) throw bad(`string list ${at} has a negative length`);
      for (let j = 1; j <= lists[at] && at + j < lists.length; j++) if (!(lists[at + j] >= 0 && lists[at + j] < ns)) throw bad(`string ${lists[at + j]} out of range`);
    }
  }

  /** The chunk id at a position; undefined out of range. */
  idAt(position: number): string | undefined {
    return this.data.ids.get(position);
  }

  /** The position of a chunk id; undefined when the catalog does not hold it. */
  positionOf(id: string): number | undefined {
    return findSorted(this.data.order, (p) => this.data.ids.get(p), id);
  }

  /** Chunk positions in id order (JS string order). */
  get idOrder(): Int32Array {
    return this.data.order;
  }

  /**
   * The entry at a position, built now (lists are shared between entries and frozen); undefined out of range.
   * `id`: "keep" decodes the id and keeps it for the next call (lookups), "decode" does not keep it (full
   * scans), "none" leaves it empty (scans that read no id).
   */
  entryAt(position: number, id: "keep" | "decode" | "none" = "keep"): CatalogEntry | undefined {
    if (!(position >= 0 && position < this.count)) return undefined;
    const c = this.data.columns;
    const o = position * CATALOG_COLUMNS;
    return {
      id: id === "keep" ? this.data.ids.get(position)! : id === "decode" ? this.data.ids.decode(position)! : "",
      sourcePath: this.str(c[o]),
      chunkIndex: c[o + 1],
      sectionId: this.str(c[o + 2]),
      sectionTitle: this.str(c[o + 3]),
      sectionAliases: this.list(c[o + 4]),
      unitIds: this.list(c[o + 5]),
      parentChain: this.list(c[o + 6]),
      chunkType: this.str(c[o + 7]) as ChunkType,
      fileHash: this.str(c[o + 8]),
      fileChunkCount: c[o + 9],
      start: c[o + 10],
      end: c[o + 11],
      citedKeys: this.list(c[o + 12]),
    };
  }

  /**
   * Positions whose {@link CatalogEntry.citedKeys} hold one of `keys` (no entry built; each distinct list is
   * tested once), in store order.
   */
  positionsCiting(keys: ReadonlySet<string>): number[] {
    const c = this.data.columns;
    const lists = this.data.lists;
    const strings = this.data.strings;
    const verdict = new Map<number, boolean>();
    const out: number[] = [];
    for (let p = 0; p < this.count; p++) {
      const at = c[p * CATALOG_COLUMNS + 12];
      if (at === -1) continue;
      let hit = verdict.get(at);
      if (hit === undefined) {
        hit = false;
        for (let j = 1; j <= lists[at] && !hit; j++) hit = keys.has(strings[lists[at + j]]);
        verdict.set(at, hit);
      }
      if (hit) out.push(p);
    }
    return out;
  }

  /** {@link entryAt}, under the name an exact index reads a chunk list by. */
  chunkAt(position: number): CatalogEntry | undefined {
    return this.entryAt(position);
  }

  /** The source path of the chunk at a position (no entry built). */
  sourceAt(position: number): string | undefined {
    if (!(position >= 0 && position < this.count)) return undefined;
    return this.str(this.data.columns[position * CATALOG_COLUMNS]);
  }

  /** The positions of each source's chunks, in store order (built on first use). */
  sources(): Map<string, Int32Array> {
    if (this.sourceRows) return this.sourceRows;
    const c = this.data.columns;
    const counts = new Int32Array(this.data.strings.length + 1);
    for (let p = 0; p < this.count; p++) counts[c[p * CATALOG_COLUMNS] + 1]++;
    const rows = new Map<string, Int32Array>();
    const fill = new Int32Array(counts.length);
    const lists: Int32Array[] = new Array(counts.length);
    for (let s = 0; s < counts.length; s++) if (counts[s] > 0) lists[s] = new Int32Array(counts[s]);
    for (let p = 0; p < this.count; p++) {
      const s = c[p * CATALOG_COLUMNS] + 1;
      lists[s][fill[s]++] = p;
    }
    for (let s = 0; s < counts.length; s++) if (lists[s]) rows.set(this.str(s - 1), lists[s]);
    return (this.sourceRows = rows);
  }

  private str(i: number): string {
    return (i === -1 ? undefined : this.data.strings[i]) as string;
  }

  private list(at: number): string[] {
    if (at === -1) return NO_STRINGS;
    let l = this.decodedLists.get(at);
    if (l === undefined) {
      const lists = this.data.lists;
      const out = new Array<string>(lists[at]);
      for (let j = 0; j < out.length; j++) out[j] = this.data.strings[lists[at + 1 + j]];
      this.decodedLists.set(at, (l = Object.freeze(out) as unknown as string[]));
    }
    return l;
  }
}
