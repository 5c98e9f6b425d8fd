import { describe, expect, it } from "@jest/globals";
import type { DefinitionEntry } from "@hierdoc/core";
import { decodeDefinitions, encodeDefinitions, extractDefinitions, type DefinitionLists, type DefinitionTable } from "@hierdoc/definitions";
import { fixture } from "./fixtures.js";

const GDPR = `## CHAPTER I — General provisions

### Article 4 — Definitions

For the purposes of this Regulation:

(1) ‘personal data’ means any information relating to an identified or identifiable natural person (‘data subject’);

(2) ‘processing’ means any operation performed on personal data;
`;

/** Definitions as the tool keeps them: extracted from two sources (one of them twice, as a re-ingest leaves it). */
function lists(): DefinitionLists {
  const headings = [
    { id: "Chapter I", title: "CHAPTER I — General provisions", level: 2 },
    { id: "Article 4", title: "Article 4 — Definitions", level: 3 },
  ];
  const a = fixture(GDPR, headings, { sourcePath: "gdpr.md" });
  const b = fixture(GDPR.replace("processing", "erasure"), headings, { sourcePath: "other/ünïcode.md" });
  return [
    ["gdpr.md", extractDefinitions(a.doc, a.sections, a.chunks)],
    ["other/ünïcode.md", [...extractDefinitions(b.doc, b.sections, b.chunks), withoutPoint(extractDefinitions(b.doc, b.sections, b.chunks)[0])]],
    ["empty.md", []],
  ];
}

/** An entry as an extractor writes it outside a numbered point (no `point` key). */
const withoutPoint = (e: DefinitionEntry) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== "point")) as unknown as DefinitionEntry;

const decode = (t: DefinitionTable) => decodeDefinitions({ shapes: t.shapes, data: t.data, stringCount: t.strings.length, string: (i) => t.strings[i] });

describe("encodeDefinitions / decodeDefinitions", () => {
  it("round-trips definition lists exactly (same keys in the same order, integers kept), each string stored once", () => {
    const input = lists();
    expect(input[0][1].length).toBe(2);
    const table = encodeDefinitions(input)!;
    expect(table).not.toBeNull();
    expect(JSON.stringify(decode(table))).toBe(JSON.stringify(input));
    expect(decode(table)).toEqual(input);
    expect(new Set(table.strings).size).toBe(table.strings.length);
    expect(table.strings.filter((s) => s === "gdpr.md")).toHaveLength(1);
    // Two shapes: without and with the optional `point`.
    expect(table.shapes).toHaveLength(2);
  });

  it("declines (null) entries holding values other than strings and 32-bit integers", () => {
    const [first] = lists()[0][1];
    for (const odd of [{ score: 0.5 }, { flag: true }, { nested: { a: 1 } }, { big: 2 ** 40 }, { none: null }]) {
      expect(encodeDefinitions([["gdpr.md", [{ ...first, ...odd } as unknown as DefinitionEntry]]])).toBeNull();
    }
  });

  it("rejects damaged data with E_INDEX_CORRUPT", () => {
    const table = encodeDefinitions(lists())!;
    const cut = { ...table, data: table.data.subarray(0, table.data.length - 1) };
    expect(() => decode(cut)).toThrow(expect.objectContaining({ code: "E_INDEX_CORRUPT", message: expect.stringMatching(/truncated/) }));
    expect(() => decode({ ...table, strings: table.strings.slice(0, 2) })).toThrow(/string \d+ out of range/);
    expect(() => decode({ ...table, shapes: [] })).toThrow(/unknown entry shape/);
    expect(() => decode({ ...table, data: Int32Array.from([...table.data, 0]) })).toThrow(/trailing data/);
  });
});
