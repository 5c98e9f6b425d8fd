import { HierdocError, StringTable, type DefinitionEntry } from "@hierdoc/core";

/** Definitions grouped by the source they were extracted from, as a corpus keeps them. */
export type DefinitionLists = Array<[sourcePath: string, entries: DefinitionEntry[]]>;

/**
 * Definition lists as flat data, for persisting: every string once in `strings`, entries as int32 rows.
 * `shapes` are the distinct key lists of the entries, each key prefixed with its type (`s:` string, `i:`
 * 32-bit integer), in the entries' own key order. Layout of `data`: list count, then per list its source
 * (string number) and entry count, then per entry its shape number and one value per key of the shape.
 */
export interface DefinitionTable {
  shapes: string[][];
  strings: string[];
  data: Int32Array;
}

const isInt32 = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff;

/**
 * Encodes definition lists as a {@link DefinitionTable}; null when an entry holds a value that is neither a
 * string nor a 32-bit integer (the caller then keeps them as JSON).
 */
export function encodeDefinitions(lists: DefinitionLists): DefinitionTable | null {
  const strings = new StringTable();
  const shapes: string[][] = [];
  const shapeIndex = new Map<string, number>();
  const data: number[] = [lists.length];
  for (const [sourcePath, entries] of lists) {
    data.push(strings.intern(sourcePath), entries.length);
    for (const entry of entries) {
      const keys: string[] = [];
      const values: number[] = [];
      for (const [k, v] of Object.entries(entry)) {
        if (typeof v === "string") {
          keys.push(`s:${k}`);
          values.push(strings.intern(v));
        } else if (isInt32(v)) {
          keys.push(`i:${k}`);
          values.push(v);
        } else return null;
      }
      const key = keys.join("\u0000");
      let shape = shapeIndex.get(key);
      if (shape === undefined) shapeIndex.set(key, (shape = shapes.push(keys) - 1));
      data.push(shape, ...values);
    }
  }
  return { shapes, strings: strings.strings, data: Int32Array.from(data) };
}

/**
 * Decodes {@link encodeDefinitions} output: equal entries, keys in the same order, equal strings shared.
 * `string(i)` gives string number `i` (e.g. from a packed table).
 * @throws HierdocError E_INDEX_CORRUPT when the data does not fit its shapes or strings.
 */
export function decodeDefinitions(table: { shapes: string[][]; data: Int32Array; stringCount: number; string: (i: number) => string | undefined }): DefinitionLists {
  const { shapes, data } = table;
  const bad = (why: string) => new HierdocError("E_INDEX_CORRUPT", `persisted definitions are unusable: ${why}`);
  let at = 0;
  const next = () => {
    if (at >= data.length) throw bad("truncated");
    return data[at++];
  };
  const str = (i: number) => {
    const s = i >= 0 && i < table.stringCount ? table.string(i) : undefined;
    if (s === undefined) throw bad(`string ${i} out of range`);
    return s;
  };
  const fields = shapes.map((keys) => keys.map((k) => ({ name: k.slice(2), string: k.startsWith("s:") })));
  const lists: DefinitionLists = new Array(next());
  for (let l = 0; l < lists.length; l++) {
    const sourcePath = str(next());
    const entries: DefinitionEntry[] = new Array(next());
    for (let e = 0; e < entries.length; e++) {
      const shape = fields[next()];
      if (!shape) throw bad("unknown entry shape");
      const entry: Record<string, string | number> = {};
      for (const f of shape) entry[f.name] = f.string ? str(next()) : next();
      entries[e] = entry as unknown as DefinitionEntry;
    }
    lists[l] = [sourcePath, entries];
  }
  if (at !== data.length) throw bad("trailing data");
  return lists;
}
