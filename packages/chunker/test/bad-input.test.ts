import { countTokens, parseDocument } from "@hierdoc/chunker";
import type { ConvertedDocument } from "@hierdoc/core";
import { isHierdocError } from "@hierdoc/core";

const md = (text: string): ConvertedDocument => ({ sourcePath: "bad.md", fileType: "markdown", format: "markdown", text });
const txt = (text: string): ConvertedDocument => ({ sourcePath: "bad.txt", fileType: "text", format: "text", text });

function assertChunks(doc: ConvertedDocument, max = 800): ReturnType<typeof parseDocument> {
  const parsed = parseDocument(doc, { maxChunkTokens: max });
  for (const c of parsed.chunks) {
    expect(doc.text.slice(c.start, c.end)).toBe(c.content);
    expect(c.tokens).toBeLessThanOrEqual(max);
  }
  return parsed;
}

describe("bad and extreme input", () => {
  it("empty and whitespace-only text give no sections and no chunks", () => {
    for (const text of ["", "   \n\n\t", "\uFEFF"]) {
      expect(parseDocument(md(text))).toMatchObject({ sections: [], chunks: [] });
      expect(parseDocument(txt(text))).toMatchObject({ sections: [], chunks: [] });
    }
  });

  it("1,000 numbered units nested 50 deep keep full parent chains (ids up to 110 chars are recognised)", () => {
    const lines: string[] = [];
    for (let top = 1; top <= 20; top++) {
      let id = String(top);
      for (let depth = 0; depth < 50; depth++) {
        lines.push(`${id}\tUnit text at depth ${depth}.`);
        id = `${id}.1`;
      }
    }
    const parsed = assertChunks(txt(lines.join("\n")));
    expect(parsed.sections).toHaveLength(1000);
    expect(parsed.sections[49].parentIds).toHaveLength(49);
    expect(parsed.sections[49].level).toBe(50);
    expect(parsed.sections[50]).toMatchObject({ sectionId: "2", level: 1, parentIds: [] });
    expect(parsed.sections[0].end).toBe(parsed.sections[50].start);
  });

  it("1,000 markdown headings with level jumps nest by level", () => {
    const text = Array.from({ length: 1000 }, (_, i) => `${"#".repeat((i % 6) + 1)} H${i}\n\nBody ${i}.`).join("\n\n");
    const parsed = assertChunks(md(text));
    expect(parsed.sections).toHaveLength(1000);
    expect(parsed.sections[5].parentChain).toEqual(["H0", "H1", "H2", "H3", "H4"]);
    expect(parsed.sections[6].parentChain).toEqual([]);
  });

  it("an unbalanced fence turns the rest into code: no headings inside it", () => {
    const text = "# Real\n\nText.\n\n```js\n# not a heading\n## nor this\n";
    const parsed = assertChunks(md(text));
    expect(parsed.sections.map((s) => s.title)).toEqual(["Real"]);
  });

  it("a code block is not split when it fits, even at a small limit", () => {
    const code = "```\n" + Array.from({ length: 12 }, (_, i) => `let value${i} = compute(${i});`).join("\n") + "\n```";
    const text = `# Code\n\n${"Intro sentence here. ".repeat(30)}\n\n${code}\n\nAfter.`;
    const parsed = assertChunks(md(text), 150);
    expect(parsed.chunks.some((c) => c.content.includes(code))).toBe(true);
  });

  it("CRLF text keeps exact offsets and the same structure as LF text", () => {
    const lf = "# A\n\n## B\n\n(a) First point.\n\n(b) Second point.\n";
    const crlf = lf.replace(/\n/g, "\r\n");
    const a = assertChunks(md(lf));
    const b = assertChunks(md(crlf));
    expect(b.sections.map((s) => s.sectionId)).toEqual(a.sections.map((s) => s.sectionId));
    expect(b.sections.map((s) => s.title)).toEqual(a.sections.map((s) => s.title));
  });

  it("a multi-megabyte single line without spaces or sentences is split within the limit", () => {
    const text = "x".repeat(1_000_000) + "é".repeat(200_000) + "😀".repeat(50_000);
    const parsed = assertChunks(txt(text), 400);
    expect(parsed.chunks.length).toBeGreaterThan(50);
    expect(parsed.chunks.map((c) => c.content).join("")).toBe(text);
    expect(countTokens(parsed.chunks[0].content)).toBeLessThanOrEqual(400);
  });

  it("rejects a token limit below 8 with a typed error", () => {
    expect.assertions(2);
    try {
      parseDocument(md("# A"), { maxChunkTokens: 2 });
    } catch (err) {
      expect(isHierdocError(err, "E_INVALID_ARGUMENT")).toBe(true);
      expect((err as Error).message).toContain("maxChunkTokens");
    }
  });
});
