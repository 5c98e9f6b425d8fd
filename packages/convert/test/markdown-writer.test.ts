import { escapeBlock, MarkdownWriter } from "@hierdoc/convert";

describe("MarkdownWriter", () => {
  it("separates blocks by one blank line and records merged source-map spans", () => {
    const w = new MarkdownWriter();
    w.heading(2, "  § 1.   Scope ", { anchor: "s1" });
    w.block("(a) text", { anchor: "s1" });
    w.block("\n\n\n", { anchor: "s1" });
    w.block("(b) more", { anchor: "s1/b" });
    w.heading(9, "Deep");
    const text = w.toString();
    expect(text).toBe("## § 1. Scope\n\n(a) text\n\n(b) more\n\n###### Deep\n");
    expect(w.sourceMap).toEqual([
      { start: 0, end: 23, anchor: "s1" },
      { start: 25, end: 33, anchor: "s1/b" },
    ]);
    expect(text.slice(0, 23)).toBe("## § 1. Scope\n\n(a) text");
  });

  it("escapes only line starts that would create headings or fences", () => {
    expect(escapeBlock("# not a heading\n```\n===\n---\n1. list stays\n(a) label\n> quote")).toBe(
      "\\# not a heading\n\\```\n\\===\n\\---\n1. list stays\n(a) label\n> quote",
    );
  });
});
