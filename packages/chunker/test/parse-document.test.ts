import { countTokens, parseDocument } from "@hierdoc/chunker";
import type { ConvertedDocument } from "@hierdoc/core";

const md = (text: string, sourcePath = "doc.md"): ConvertedDocument => ({ sourcePath, fileType: "markdown", format: "markdown", text });
const txt = (text: string, sourcePath = "doc.txt"): ConvertedDocument => ({ sourcePath, fileType: "text", format: "text", text });

function expectExactSlices(doc: ConvertedDocument, max = 800): void {
  const parsed = parseDocument(doc, { maxChunkTokens: max });
  parsed.chunks.forEach((c, i) => {
    expect(doc.text.slice(c.start, c.end)).toBe(c.content);
    expect(c.id).toBe(`${doc.sourcePath}_chunk_${i}`);
    expect(countTokens(c.content)).toBeLessThanOrEqual(max);
    expect(c.tokens).toBe(countTokens(c.content));
  });
}

describe("parseDocument on markdown", () => {
  const text = [
    "---",
    "title: Test",
    "---",
    "# Regulation",
    "",
    "## CHAPTER I — General",
    "",
    "### Article 4 — Definitions",
    "",
    "(1) ‘personal data’ means any information;",
    "",
    "(2) ‘processing’ means any operation:",
    "",
    "(a) collection;",
    "",
    "(b) recording.",
    "",
    "### Article 5 — Principles",
    "",
    "Personal data shall be processed lawfully.",
    "",
    "```",
    "# not a heading",
    "```",
  ].join("\n");
  const parsed = parseDocument(md(text));

  it("builds parent chains and ids from headings", () => {
    const art5 = parsed.sections.find((s) => s.sectionId === "Article 5");
    expect(art5?.parentChain).toEqual(["Regulation", "CHAPTER I — General"]);
    expect(art5?.parentIds).toEqual(["Regulation", "Chapter I"]);
    expect(text.slice(art5!.start, art5!.end).startsWith("### Article 5")).toBe(true);
  });

  it("nests points (n) and (a) under their article with compound ids", () => {
    const ids = parsed.sections.map((s) => s.sectionId);
    expect(ids).toEqual(expect.arrayContaining(["Article 4(1)", "Article 4(2)", "Article 4(2)(a)", "Article 4(2)(b)"]));
    const point = parsed.sections.find((s) => s.sectionId === "Article 4(2)(b)");
    expect(point?.aliases).toContain("Art. 4(2)(b)");
    expect(point?.parentIds).toEqual(["Regulation", "Chapter I", "Article 4", "Article 4(2)"]);
  });

  it("never makes a heading from fenced code or front matter", () => {
    expect(parsed.sections.some((s) => s.title.includes("not a heading"))).toBe(false);
    expect(parsed.sections.some((s) => s.title === "title: Test")).toBe(false);
    expect(parsed.chunks.some((c) => c.content.includes("title: Test"))).toBe(false);
  });

  it("lists paragraph units in chunks and classifies them", () => {
    const art4 = parsed.chunks.find((c) => c.sectionId === "Article 4");
    expect(art4?.unitIds).toEqual(["Article 4(1)", "Article 4(2)", "Article 4(2)(a)", "Article 4(2)(b)"]);
    expect(art4?.chunkType).toBe("definition");
    expect(parsed.chunks.find((c) => c.sectionId === "Article 5")?.chunkType).toBe("requirement");
    expectExactSlices(md(text));
  });
});

describe("parseDocument on plain text", () => {
  it("reads ObliQA-style unit lines with TAB or space and nests them by id", () => {
    const text = "1.\tINTRODUCTION\r\n1.1\tApplication\r\n1.1.1\tThis Rulebook applies.\r\n1.1.1.(1) A Person must comply.\r\n(a)\tfirst;\r\n2.\tOTHER\r\n2.1\tScope\r\n";
    const parsed = parseDocument(txt(text));
    const unit = parsed.sections.find((s) => s.sectionId === "1.1.1.(1)");
    expect(unit?.parentIds).toEqual(["1.", "1.1", "1.1.1"]);
    expect(text.slice(unit!.start, unit!.end)).toContain("A Person must comply.\r\n(a)\tfirst;");
    expect(parsed.sections.find((s) => s.sectionId === "2.1")?.parentIds).toEqual(["2."]);
    expectExactSlices(txt(text));
  });

  it("splits a long section at sentence boundaries within the token limit", () => {
    const sentence = "The operator shall keep a record of every transfer made under this section. ";
    const text = "Part 1 General\n\n" + sentence.repeat(200);
    const parsed = parseDocument(txt(text), { maxChunkTokens: 100 });
    expect(parsed.chunks.length).toBeGreaterThan(10);
    for (const c of parsed.chunks.slice(1, -1)) expect(c.content.endsWith(".")).toBe(true);
    expectExactSlices(txt(text), 100);
  });

  it("merges numbered paragraphs of an over-long section in order up to targetChunkTokens", () => {
    const para = (i: number): string => `(${i}) The licensee shall keep a record of every transfer of firearms made under this paragraph number ${i}, and retain it for five years.`;
    const text = "# § 10. Records\n\n" + Array.from({ length: 40 }, (_, i) => para(i + 1)).join("\n\n");
    const parsed = parseDocument(md(text), { maxChunkTokens: 800, targetChunkTokens: 200 });
    const chunks = parsed.chunks.filter((c) => c.sectionId === "§ 10");
    expect(chunks.length).toBeGreaterThan(4);
    const units = chunks.flatMap((c) => c.unitIds);
    expect(units).toEqual(Array.from({ length: 40 }, (_, i) => `§ 10(${i + 1})`));
    for (const c of chunks) {
      expect(c.tokens).toBeLessThanOrEqual(230);
      expect(c.parentChain).toEqual([]);
    }
    const whole = parseDocument(md(text.slice(0, 600)), { maxChunkTokens: 800, targetChunkTokens: 200 });
    expect(whole.chunks).toHaveLength(1);
  });
});
