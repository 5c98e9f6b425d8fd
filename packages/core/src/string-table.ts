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
