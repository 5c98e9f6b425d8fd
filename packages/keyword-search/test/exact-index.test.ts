import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExactIndex, findSectionIds } from "@hierdoc/keyword-search";

describe("findSectionIds", () => {
  const cases: Array<[string, Array<[string | null, string]>]> = [
    ["what does Article 17(3)(b) exempt?", [["article", "17(3)(b)"]]],
    ["Section 203(a)(1)", [["section", "203(a)(1)"]]],
    ["s. 203(a)(1)", [["section", "203(a)(1)"]]],
    ["§203(a)(1)", [["section", "203(a)(1)"]]],
    ["203(a)(1)", [[null, "203(a)(1)"]]],
    ["Art. 4(11)", [["article", "4(11)"]]],
    ["Rule 2.14", [["rule", "2.14"]]],
    ["section 9.3.1 of RFC 9110", [["section", "9.3.1"]]],
    ["para. 3 of Sch. 2", [["paragraph", "3"], ["schedule", "2"]]],
    ["HTTP/1.1 message framing", []],
    ["top 10 processes. 4 items", []],
    ["see 2.1.1.(1)", [[null, "2.1.1(1)"]]],
    ["what does 35 U.S.C. § 101 cover?", [["section", "101"]]],
    ["27 C.F.R. 478.11(a)", [["section", "478.11(a)"]]],
    ["U.S.C. only", []],
    ["Under Rule \u200e6.2.1(a)(i), what must", [["rule", "6.2.1(a)(i)"]]],
    ["Appendix B.8 of RFC 9110", [["appendix", "b.8"]]],
  ];
  it.each(cases)("%s", (query, expected) => {
    expect(findSectionIds(query).map((f) => [f.kind, f.number])).toEqual(expected);
  });
});

describe("ExactIndex", () => {
  function gdprLike(): ExactIndex {
    const texts: Record<string, string> = {
      "a4-0": "Article 4 Definitions. 'personal data' means any information",
      "a4-1": "(11) 'consent' of the data subject means any freely given indication",
      "a17-0": "Article 17 Right to erasure ('right to be forgotten')",
      "a17-1": "3. Paragraphs 1 and 2 shall not apply to the extent that processing is necessary",
      "s4": "Section 4 of something else",
      "r4": "4. Bare numbered heading",
    };
    const index = new ExactIndex({ text: (id) => texts[id] });
    index.addChunk({ id: "a4-0", sectionId: "Article 4", sectionAliases: ["Art. 4"], unitIds: ["4(1)"] });
    index.addChunk({ id: "a4-1", sectionId: "Article 4", sectionAliases: ["Art. 4"], unitIds: ["4(11)"] });
    index.addChunk({ id: "a17-0", sectionId: "Article 17", sectionAliases: ["Art. 17"], unitIds: ["17(1)"] });
    index.addChunk({ id: "a17-1", sectionId: "Article 17", sectionAliases: ["Art. 17"], unitIds: ["17(3)"] });
    index.addChunk({ id: "s4", sectionId: "§ 4", unitIds: [] });
    index.addChunk({ id: "r4", sectionId: "4", unitIds: [] });
    return index;
  }

  it("ranks own-section kind matches above bare numbers and excludes other kinds", () => {
    const ids = gdprLike().lookup("Article 4").map((h) => h.id);
    expect(ids).toEqual(["a4-0", "a4-1", "r4"]);
  });

  it("maps unit ids to the chunk they start in, across surface forms", () => {
    const index = gdprLike();
    for (const q of ["Art. 4(11)", "what is Article 4(11)?", "4(11)"]) expect(index.lookup(q)[0].id).toBe("a4-1");
  });

  it("falls back to the longest present prefix", () => {
    const index = gdprLike();
    expect(index.lookup("what does Article 17(3)(b) exempt?").map((h) => h.id)).toEqual(["a17-1"]);
    expect(index.lookup("Article 17(9)").map((h) => h.id)).toEqual(["a17-0", "a17-1"]);
  });

  it("finds quoted phrases through the text accessor, below id matches", () => {
    const hits = gdprLike().lookup('Article 17 and "freely given"');
    expect(hits.map((h) => h.id)).toEqual(["a17-0", "a17-1", "a4-1"]);
    expect(hits[2].score).toBeLessThan(hits[1].score);
  });

  it("removes chunks, honours allowIds, and round-trips through save/load", async () => {
    const index = gdprLike();
    index.remove(["a4-0"]);
    expect(index.lookup("Article 4").map((h) => h.id)).toEqual(["a4-1", "r4"]);
    expect(index.lookup("Article 4", { allowIds: new Set(["r4"]) }).map((h) => h.id)).toEqual(["r4"]);
    const dir = await mkdtemp(join(tmpdir(), "exact-"));
    try {
      await index.save(dir, { fingerprint: "f1" });
      const loaded = await ExactIndex.load(dir);
      expect(loaded!.fingerprint).toBe("f1");
      expect(loaded!.lookup("Section 4").map((h) => h.id)).toEqual(["s4", "r4"]);
      expect(loaded!.lookup("Article 17(3)")).toEqual(index.lookup("Article 17(3)"));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("re-adding a chunk replaces its ids; lists and ranges of ids are indexed per number", () => {
    const index = gdprLike();
    index.add("a17-1", ["Article 18"]);
    expect(index.lookup("Article 17(3)").map((h) => h.id)).toEqual(["a17-0"]);
    expect(index.lookup("Article 18").map((h) => h.id)).toEqual(["a17-1"]);
    index.add("rep", ["§§ 155, 155A"]);
    index.add("range", ["§§ 3304 to 3307"]);
    expect(index.lookup("Section 155A")[0].id).toBe("rep");
    expect(index.lookup("§ 3305")[0].id).toBe("range");
    index.remove(["rep"]);
    expect(index.lookup("Section 155A")).toEqual([]);
  });

  it("treats title / chapter / part next to a specific id as a qualifier", () => {
    const index = new ExactIndex();
    index.add("t35", ["Title 35"]);
    index.add("s101", ["§ 101"]);
    expect(index.lookup("title 35 section 101").map((h) => h.id)).toEqual(["s101"]);
    expect(index.lookup("Title 35").map((h) => h.id)).toEqual(["t35"]);
  });

  it("returns nothing for queries without an indexed id", () => {
    expect(gdprLike().lookup("right to erasure")).toEqual([]);
    expect(gdprLike().lookup("Article 99")).toEqual([]);
  });
});
