import { describe, expect, it } from "@jest/globals";
import { SectionResolver, extractCrossReferences, sectionKey } from "@hierdoc/definitions";
import { fixture } from "./fixtures.js";

function refs(text: string, headings: Parameters<typeof fixture>[1]) {
  const f = fixture(text, headings);
  return { f, refs: extractCrossReferences(f.doc, f.sections, f.chunks) };
}

describe("extractCrossReferences", () => {
  it("reads article citations, points, paragraphs and ranges", () => {
    const { refs: r } = refs(
      `### Article 17 — Right to erasure

Processing under points (a) and (b) of Article 6(1), paragraph 3 of Article 9 and Articles 15 to 17 applies; see Chapter 3 and point (c) of paragraph 1.
`,
      [{ id: "Article 17", title: "Article 17 — Right to erasure", level: 3 }],
    );
    expect(r.map((x) => x.targetSectionId)).toEqual([
      "Article 6(1)(a)",
      "Article 6(1)(b)",
      "Article 9(3)",
      "Article 15",
      "Article 16",
      "Article 17",
      "Chapter 3",
      "Article 17(1)(c)",
    ]);
    expect(r.every((x) => x.fromSectionId === "Article 17" && !x.external)).toBe(true);
    expect(r[0].text).toBe("points (a) and (b) of Article 6(1)");
  });

  it("flags citations of other documents as external with the cited document", () => {
    const { f, refs: r } = refs(
      `## § 101. Definitions

See section 553 of title 5, section 802 of this title, 42 U.S.C. 11301, 18 U.S.C. Chapter 40 and subsection (b).

## 9.3.1. GET

As in Section 11.2 of [HTTP/1.1] and ([URI], Section 3.2.2), unlike Section 9.3.2 or § 4.2.
`,
      [
        { id: "§ 101", title: "§ 101. Definitions", level: 2 },
        { id: "9.3.1", title: "9.3.1. GET", level: 2 },
      ],
    );
    const view = r.map((x) => [x.text, x.targetSectionId, x.external, x.citedDocument ?? null, x.fromSectionId]);
    expect(view).toEqual([
      ["42 U.S.C. 11301", "§ 11301", true, "title 42", "§ 101"],
      ["18 U.S.C. Chapter 40", "Chapter 40", true, "title 18", "§ 101"],
      ["section 553 of title 5", "§ 553", true, "title 5", "§ 101"],
      ["section 802 of this title", "§ 802", false, null, "§ 101"],
      ["subsection (b)", "§ 101(b)", false, null, "§ 101"],
      ["Section 11.2 of [HTTP/1.1]", "11.2", true, "HTTP/1.1", "9.3.1"],
      ["Section 3.2.2", "3.2.2", true, "URI", "9.3.1"],
      ["Section 9.3.2", "§ 9.3.2", false, null, "9.3.1"],
      ["§ 4.2", "§ 4.2", false, null, "9.3.1"],
    ]);
    for (const x of r) expect(f.doc.text.slice(x.start, x.end)).toBe(x.text);
  });
});

describe("SectionResolver", () => {
  const resolver = new SectionResolver([
    { sourcePath: "gdpr.md", sectionId: "Article 6", aliases: ["Art. 6", "6"], chunkId: "gdpr.md_chunk_6" },
    { sourcePath: "gdpr.md", sectionId: "Chapter III", aliases: [], chunkId: "gdpr.md_chunk_2" },
    { sourcePath: "rfc.md", sectionId: "9.3.1", aliases: ["Section 9.3.1"], chunkId: "rfc.md_chunk_9" },
    { sourcePath: "GEN_VER08.txt", sectionId: "3.3.31", aliases: [], chunkId: "GEN_VER08.txt_chunk_4" },
    { sourcePath: "AML.txt", sectionId: "8.1.1.(2)", aliases: [], chunkId: "AML.txt_chunk_1" },
  ]);
  const ref = (targetSectionId: string, extra: Record<string, unknown> = {}) => ({
    text: targetSectionId,
    fromSectionId: "x",
    targetSectionId,
    external: false,
    ...extra,
  });

  it("resolves in the same document, falling back to the enclosing unit", () => {
    expect(resolver.resolve(ref("Article 6(1)(a)"), "gdpr.md")).toMatchObject({
      targetSectionId: "Article 6",
      targetChunkId: "gdpr.md_chunk_6",
      external: false,
    });
    expect(resolver.resolve(ref("§ 9.3.1"), "rfc.md").targetChunkId).toBe("rfc.md_chunk_9");
    expect(resolver.resolve(ref("Rule 8.1.1(2)(a)"), "AML.txt").targetSectionId).toBe("8.1.1.(2)");
  });

  it("does not cross documents or unit types for internal references", () => {
    expect(resolver.resolve(ref("9.3.1"), "gdpr.md")).toMatchObject({ external: true, targetChunkId: null });
    expect(resolver.resolve(ref("Chapter 6"), "gdpr.md").external).toBe(true);
  });

  it("resolves a citation naming another source of the corpus", () => {
    const r = resolver.resolve(ref("3.3.31", { external: true, citedDocument: "GEN" }), "AML.txt");
    expect(r).toMatchObject({ targetSectionId: "3.3.31", targetChunkId: "GEN_VER08.txt_chunk_4", external: false });
    expect(resolver.resolve(ref("11.2", { external: true, citedDocument: "HTTP/1.1" }), "rfc.md").external).toBe(true);
  });

  it("normalises ids to a type and a bare id", () => {
    expect(sectionKey("Art. 6(1)")).toEqual({ type: "article", bare: "6(1)" });
    expect(sectionKey("§ 478.11")).toEqual({ type: null, bare: "478.11" });
    expect(sectionKey("2.1.1.(1)")).toEqual({ type: null, bare: "2.1.1(1)" });
  });
});

describe("plain-text rulebooks", () => {
  it("reads bare rule numbers after a preposition, invisible marks and '(3) or (4)' lists", () => {
    const text = ["6.1.3.Guidance.7.\tA risk assessment under Rule \u200e6.1.1(b) applies.", "9.1.2.(1)\tWhen assessing under Rule 9.1.1(3) or (4), see also 7.1.2(1)(c) and 3.2.4 to 3.2.6 of 2.5% growth.", ""].join("\r\n");
    const f = fixture(text, [{ id: "6.1.3.Guidance.7.", title: "6.1.3.Guidance.7.", level: 1 }, { id: "9.1.2.(1)", title: "9.1.2.(1)", level: 1 }], { format: "text", sourcePath: "AML.txt" });
    const r = extractCrossReferences(f.doc, f.sections, f.chunks);
    expect(r.map((x) => [x.fromSectionId, x.targetSectionId])).toEqual([
      ["6.1.3.Guidance.7.", "6.1.1(b)"],
      ["9.1.2.(1)", "9.1.1(3)"],
      ["9.1.2.(1)", "9.1.1(4)"],
      ["9.1.2.(1)", "7.1.2(1)(c)"],
      ["9.1.2.(1)", "3.2.4"],
      ["9.1.2.(1)", "3.2.5"],
      ["9.1.2.(1)", "3.2.6"],
    ]);
    const cfr = fixture("## § 478.32 Prohibited.\n\nAs in paragraphs (a)(8)(i) and (d)(8)(i) of this section and paragraphs (a)(2), (a)(5), and (6) of this section, subsections (a)(4), (f), or (g), and a point 12 feet above.\n", [
      { id: "§ 478.32", title: "§ 478.32 Prohibited.", level: 2 },
    ]);
    expect(extractCrossReferences(cfr.doc, cfr.sections, cfr.chunks).map((x) => x.targetSectionId)).toEqual([
      "§ 478.32(a)(8)(i)",
      "§ 478.32(d)(8)(i)",
      "§ 478.32(a)(2)",
      "§ 478.32(a)(5)",
      "§ 478.32(a)(6)",
      "§ 478.32(a)(4)",
      "§ 478.32(f)",
      "§ 478.32(g)",
    ]);
  });

  it("reads section numbers from the Section column of a markdown table", () => {
    const text = `## 18.2. Method Registration

| Method | Safe | Section |
|---|---|---|
| GET | yes | 9.3.1 |
| HEAD | yes | 9.3.2 |
`;
    const { refs: r } = refs(text, [{ id: "18.2", title: "18.2. Method Registration", level: 2 }]);
    expect(r.map((x) => x.targetSectionId)).toEqual(["9.3.1", "9.3.2"]);
  });
});

describe("SectionResolver fallbacks", () => {
  it("resolves a rule that only exists through its numbered paragraphs to the first one", () => {
    const resolver = new SectionResolver([
      { sourcePath: "COBS.txt", sectionId: "19.10.1.(1)", aliases: [], chunkId: "c1" },
      { sourcePath: "COBS.txt", sectionId: "19.10.1.(2)", aliases: [], chunkId: "c2" },
      { sourcePath: "FUNDS.txt", sectionId: "PART 5.12.3.10", aliases: [], chunkId: "c3" },
    ]);
    const ref = (id: string) => ({ text: id, fromSectionId: "x", targetSectionId: id, external: false });
    expect(resolver.resolve(ref("19.10.1"), "COBS.txt")).toMatchObject({ targetSectionId: "19.10.1.(1)", targetChunkId: "c1" });
    expect(resolver.resolve(ref("12.3.10"), "FUNDS.txt")).toMatchObject({ targetSectionId: "PART 5.12.3.10", external: false });
  });
});

describe("citations of other instruments", () => {
  it("flags 'of such title', 'of that Code', named Acts, treaties and another rulebook's code as external", () => {
    const text = `## § 2706. Duties

Pay under section 5332 of such title, exempt under section 501(a) of that Code, section 20 of the National Institute of Standards and Technology Act, chapter 81 of title 5, some part(s) of it, Regulation (EU) No 182/2011, Article 179(1) TFEU, GEN Rule 5.2.14, the Companies Regulations 2015 and paragraphs 47-48 of the Guidance on Mining.
`;
    const { refs: r } = refs(text, [{ id: "§ 2706", title: "§ 2706. Duties", level: 2 }]);
    expect(r.map((x) => [x.targetSectionId, x.external, x.citedDocument ?? null])).toEqual([
      ["§ 5332", true, "such title"],
      ["§ 501(a)", true, "that Code"],
      ["§ 20", true, "National Institute of Standards and Technology Act"],
      ["Chapter 81", true, "title 5"],
      ["Article 179(1)", true, "TFEU"],
      ["§ 5.2.14", true, "GEN"],
      ["§ 47", true, "the Guidance on Mining"],
      ["§ 48", true, "the Guidance on Mining"],
    ]);
  });
});

describe("SectionResolver case and type rules", () => {
  it("keeps the case of bracketed points and keeps sections off chapters", () => {
    const resolver = new SectionResolver([
      { sourcePath: "usc.md", sectionId: "§ 1201", aliases: [], chunkId: "c0" },
      { sourcePath: "usc.md", sectionId: "§ 1201(a)", aliases: [], chunkId: "c1" },
      { sourcePath: "usc.md", sectionId: "Chapter 6", aliases: [], chunkId: "c6" },
    ]);
    const ref = (id: string) => ({ text: id, fromSectionId: "§ 1201", targetSectionId: id, external: false });
    expect(resolver.resolve(ref("§ 1201(A)"), "usc.md").targetSectionId).toBe("§ 1201");
    expect(resolver.resolve(ref("§ 1201(a)"), "usc.md").targetSectionId).toBe("§ 1201(a)");
    expect(resolver.resolve(ref("§ 6(b)(3)"), "usc.md").external).toBe(true);
  });
});
