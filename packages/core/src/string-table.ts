import { HierdocError } from "./errors.js";

/**
 * Numbers distinct strings in the order they are first seen, for flat (typed-array) encodings of
 * in-memory indexes: data holds each string's number, `strings` is written once beside it.
 * Use when persisting a structure whose strings repeat (ids, section keys, titles); read back with `strings[i]`.
 */
export class StringTable {
  /** The strings, each once, by number. */
  readonly strings: string[] = [];
  private readonly numbers = new Map<string, number>();

  /** The number of `s`, adding it when new; -1 for `null` / `undefined` (an absent value). */
  intern(s: string | null | undefined): number {
    if (s === null || s === undefined) return -1;
    let n = this.numbers.get(s);
    if (n === undefined) this.numbers.set(s, (n = this.strings.push(s) - 1));
    return n;
  }
}

/**
 * A list of strings packed into one UTF-8 buffer with an offset table, decoded one at a time on demand:
 * for a persisted list too long to hold as JS strings (a million chunk ids). A decoded string is kept
 * (the ones a query touches recur), so `get` allocates once per string.
 */
export class PackedStrings {
  private readonly decoded: Array<string | undefined>;

  /**
   * @param bytes the strings' UTF-8 bytes, back to back
   * @param offsets `length + 1` byte offsets into `bytes`: string `i` is `bytes[offsets[i], offsets[i + 1])`
   * @throws HierdocError E_INDEX_CORRUPT when the offsets do not fit the bytes.
   */
  constructor(
    private readonly bytes: Buffer,
    private readonly offsets: Int32Array,
  ) {
    const n = offsets.length - 1;
    if (n < 0 || offsets[0] !== 0 || offsets[n] !== bytes.length) {
      throw new HierdocError("E_INDEX_CORRUPT", `packed strings: offsets do not match ${bytes.length} bytes`);
    }
    this.decoded = new Array(n);
  }

  /** Packs strings: the bytes and offsets the constructor takes. */
  static pack(strings: readonly string[]): { bytes: Buffer; offsets: Int32Array } {
    const offsets = new Int32Array(strings.length + 1);
    let size = 0;
    for (let i = 0; i < strings.length; i++) offsets[i + 1] = size += Buffer.byteLength(strings[i], "utf8");
    const bytes = Buffer.allocUnsafe(size);
    for (let i = 0; i < strings.length; i++) bytes.write(strings[i], offsets[i], "utf8");
    return { bytes, offsets };
  }

  /** Number of strings. */
  get length(): number {
    return this.decoded.length;
  }

  /** String `i` decoded again (or as kept), not kept: for a pass over every string. Undefined out of range. */
  decode(i: number): string | undefined {
    if (!(i >= 0 && i < this.decoded.length)) return undefined;
    return this.decoded[i] ?? this.bytes.toString("utf8", this.offsets[i], Math.max(this.offsets[i], this.offsets[i + 1]));
  }

  /** String `i`; undefined when `i` is out of range. */
  get(i: number): string | undefined {
    if (!(i >= 0 && i < this.decoded.length)) return undefined;
    let s = this.decoded[i];
    if (s === undefined) {
      const from = this.offsets[i];
      const to = this.offsets[i + 1];
      if (!(from <= to)) throw new HierdocError("E_INDEX_CORRUPT", `packed strings: string ${i} has a negative length`);
      this.decoded[i] = s = this.bytes.toString("utf8", from, to);
    }
    return s;
  }
}

/**
 * The position of `key` in a list sorted by `order` (positions in ascending string order, as
 * `Array.prototype.sort` compares): binary search reading `at(position)`; undefined when absent.
 */
export function findSorted(order: Int32Array, at: (position: number) => string | undefined, key: string): number | undefined {
  let lo = 0;
  let hi = order.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const s = at(order[mid]);
    if (s === undefined) return undefined;
    if (s === key) return order[mid];
    if (s < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}
