import { describe, expect, it } from "@jest/globals";
import { PackedStrings, StringTable, findSorted } from "@hierdoc/core";

describe("StringTable", () => {
  it("numbers each distinct string once, in first-seen order, and absent values as -1", () => {
    const t = new StringTable();
    expect(["Article 17", "GDPR", "Article 17", "", "GDPR"].map((s) => t.intern(s))).toEqual([0, 1, 0, 2, 1]);
    expect(t.intern(null)).toBe(-1);
    expect(t.intern(undefined)).toBe(-1);
    expect(t.strings).toEqual(["Article 17", "GDPR", ""]);
  });
});

describe("PackedStrings", () => {
  const strings = ["docs/a.md_chunk_0", "", "§ 553 — Rulemaking", "Ünïcödé 🚀 id", "docs/a.md_chunk_1"];

  it("round-trips strings (any UTF-8, empty ones) through one buffer and an offset table, decoding on demand", () => {
    const { bytes, offsets } = PackedStrings.pack(strings);
    expect(offsets.length).toBe(strings.length + 1);
    expect(bytes.length).toBe(strings.reduce((n, s) => n + Buffer.byteLength(s), 0));
    const packed = new PackedStrings(bytes, offsets);
    expect(packed.length).toBe(strings.length);
    expect(strings.map((_, i) => packed.get(i))).toEqual(strings);
    expect(packed.get(3)).toBe(packed.get(3));
    expect(strings.map((_, i) => packed.decode(i))).toEqual(strings);
    expect(packed.decode(strings.length)).toBeUndefined();
    expect(packed.get(-1)).toBeUndefined();
    expect(packed.get(strings.length)).toBeUndefined();
  });

  it("rejects offsets that do not fit the bytes with E_INDEX_CORRUPT", () => {
    const { bytes, offsets } = PackedStrings.pack(strings);
    expect(() => new PackedStrings(bytes.subarray(0, bytes.length - 1), offsets)).toThrow(expect.objectContaining({ code: "E_INDEX_CORRUPT" }));
    const swapped = Int32Array.from(offsets);
    [swapped[1], swapped[3]] = [swapped[3], swapped[1]];
    const bad = new PackedStrings(bytes, swapped);
    expect(() => bad.get(1)).toThrow(/negative length/);
  });
});

describe("findSorted", () => {
  it("finds every string of a list through its sorted order, and nothing else", () => {
    const ids = Array.from({ length: 500 }, (_, i) => `src/${(i * 7919) % 500}.md_chunk_${i % 13}`);
    const order = Int32Array.from(ids.keys()).sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
    for (let i = 0; i < ids.length; i++) expect(findSorted(order, (p) => ids[p], ids[i])).toBe(i);
    expect(findSorted(order, (p) => ids[p], "src/999.md_chunk_0")).toBeUndefined();
    expect(findSorted(order, (p) => ids[p], "")).toBeUndefined();
    expect(findSorted(new Int32Array(0), (p) => ids[p], ids[0])).toBeUndefined();
  });
});
