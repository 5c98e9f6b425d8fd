import { describe, expect, it } from "@jest/globals";
import { ExactIndex, type ExactChunk, type ExactChunkList } from "@hierdoc/keyword-search";

const CHUNKS: ExactChunk[] = [
  { id: "a4-0", sectionId: "Article 4", sectionAliases: ["article 4"], unitIds: ["Article 4(1)", "Article 4(2)"] },
  { id: "a4-1", sectionId: "Article 4", unitIds: ["Article 4(11)"] },
  { id: "a17-0", sectionId: "Article 17", unitIds: ["Article 17(3)(b)"] },
  { id: "s4", sectionId: "Section 4" },
  { id: "r214", sectionId: "Rule 2.14", sectionAliases: ["2.14"] },
  { id: "usc553", sectionId: "§ 553", sectionAliases: ["553", "5 U.S.C. 553"] },
  { id: "intro", sectionId: "Introduction" },
  { id: "old", sectionId: "Article 99" },
];
const QUERIES = ["Article 4", "Article 4(11)", "4", "Article 17(3)(b)", "Section 4", "Rule 2.14", "2.14", "5 U.S.C. 553", "553", "Introduction", "Article 99", "Article 4(7)"];

describe("ExactIndex exportState / importState", () => {
  function built(): ExactIndex {
    const index = new ExactIndex();
    for (const c of CHUNKS) index.addChunk(c);
    index.remove(["old"]);
    index.addChunk(CHUNKS[0]); // a replaced chunk moves to the end of the insertion order
    return index;
  }
  const kept = CHUNKS.filter((c) => c.id !== "old").reverse();
  const position = new Map(kept.map((c, i) => [c.id, i]));

  it("answers every lookup (scores and tie order) as the index it was exported from", () => {
    const index = built();
    const state = index.exportState((id) => position.get(id));
    expect(state).not.toBeNull();
    const loaded = ExactIndex.importState(state!, kept);
    expect(loaded.size).toBe(index.size);
    for (const q of QUERIES) expect([q, loaded.lookup(q)]).toEqual([q, index.lookup(q)]);
    expect(loaded.lookup("Article 4").map((h) => h.id)).toEqual(["a4-1", "a4-0"]);
    expect(loaded.lookup("Article 99")).toEqual([]);
    expect(loaded.toJSON().chunks).toEqual(index.toJSON().chunks);
    // The loaded index stays incremental.
    loaded.remove(["a4-1"]);
    loaded.addChunk({ id: "a5", sectionId: "Article 5" });
    expect(loaded.lookup("Article 4").map((h) => h.id)).toEqual(["a4-0"]);
    expect(loaded.lookup("Article 5").map((h) => h.id)).toEqual(["a5"]);
  });

  it("returns null when a chunk has no position, and rejects damaged data with E_INDEX_CORRUPT", () => {
    const index = built();
    expect(index.exportState((id) => (id === "s4" ? undefined : position.get(id)))).toBeNull();
    const state = index.exportState((id) => position.get(id))!;
    expect(() => ExactIndex.importState({ keys: state.keys, data: state.data.subarray(0, state.data.length - 1) }, kept)).toThrow(
      expect.objectContaining({ code: "E_INDEX_CORRUPT" }),
    );
    expect(() => ExactIndex.importState(state, kept.slice(0, 2))).toThrow(/chunk position \d+ out of range/);
  });
});

describe("ExactIndex.importState over a chunk list by position (served in place)", () => {
  const kept = CHUNKS.filter((c) => c.id !== "old");
  const position = new Map(kept.map((c, i) => [c.id, i]));
  /** The chunk list as a persisted catalog gives it: ids by position and position by id, counting the calls. */
  const list = () => {
    const calls = { chunkAt: 0 };
    const chunks: ExactChunkList = {
      count: kept.length,
      idAt: (p) => kept[p]?.id,
      positionOf: (id) => position.get(id),
      chunkAt: (p) => (calls.chunkAt++, kept[p]),
    };
    return { chunks, calls };
  };

  it("answers lookups, phrase scans and filters from the flat data without reading a chunk, then stays incremental without copying it", () => {
    const index = new ExactIndex({ text: (id) => (id === "s4" ? "The \"harbour master\" keeps it." : "other text") });
    for (const c of kept) index.addChunk(c);
    const state = index.exportState((id) => position.get(id))!;
    const { chunks, calls } = list();
    const loaded = ExactIndex.importState(state, chunks, { text: (id) => (id === "s4" ? "The \"harbour master\" keeps it." : "other text") });
    for (const q of [...QUERIES, "\"harbour master\"", "introduction"]) expect([q, loaded.lookup(q)]).toEqual([q, index.lookup(q)]);
    expect(loaded.lookup("\"harbour master\"").map((h) => h.id)).toEqual(["s4"]);
    const allow = new Set(["a4-1", "usc553"]);
    expect(loaded.lookup("Article 4", { allowIds: allow })).toEqual(index.lookup("Article 4", { allowIds: allow }));
    loaded.remove(["not-indexed"]);
    expect(calls.chunkAt).toBe(0);
    expect(loaded.size).toBe(kept.length);

    // Removed chunks are marked, added ones kept beside the flat data: still no chunk read.
    for (const i of [loaded, index]) {
      i.remove(["a4-0", "r214"]);
      i.addChunk({ id: "a4-2", sectionId: "Article 4" });
      i.addChunk({ id: "r214", sectionId: "Rule 2.14", unitIds: ["2.14(1)"] });
      i.addChunk({ id: "a17-0", sectionId: "Article 17", unitIds: [] });
    }
    expect(calls.chunkAt).toBe(0);
    expect(loaded.size).toBe(index.size);
    for (const q of [...QUERIES, "2.14(1)", "Article 17(3)(b)"]) expect([q, loaded.lookup(q)]).toEqual([q, index.lookup(q)]);
    expect(loaded.lookup("Article 4").map((h) => h.id)).toEqual(["a4-1", "a4-2"]);
    expect(loaded.toJSON().chunks).toEqual(index.toJSON().chunks);
    // Exported again (flat part and additions merged) for a new chunk list, it answers the same.
    const now = [...kept.filter((c) => !["a4-0", "r214", "a17-0"].includes(c.id)), { id: "a4-2", sectionId: "Article 4" }, { id: "r214", sectionId: "Rule 2.14", unitIds: ["2.14(1)"] }, { id: "a17-0", sectionId: "Article 17" }];
    const again = ExactIndex.importState(loaded.exportState((id) => now.findIndex((c) => c.id === id))!, now);
    for (const q of [...QUERIES, "2.14(1)", "Article 17(3)(b)"]) expect([q, again.lookup(q)]).toEqual([q, index.lookup(q)]);
    expect(again.toJSON().chunks).toEqual(index.toJSON().chunks);
  });

  it("rejects positions past the list with E_INDEX_CORRUPT", () => {
    const index = new ExactIndex();
    for (const c of kept) index.addChunk(c);
    const state = index.exportState((id) => position.get(id))!;
    const short: ExactChunkList = { ...list().chunks, count: 3 };
    expect(() => ExactIndex.importState(state, short)).toThrow(expect.objectContaining({ code: "E_INDEX_CORRUPT", message: expect.stringMatching(/chunk position \d+ out of range/) }));
  });
});
