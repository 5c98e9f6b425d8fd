import { convertFile, MarkdownConverter, TextConverter } from "@hierdoc/convert";
import { expectFileError, utf8 } from "./helpers.js";

describe("markdown and text converters", () => {
  it("keeps markdown as is and takes the first heading as title", async () => {
    const md = "---\ntitle: x\n---\n```\n# not a heading\n```\n# Real Title\n\nBody § 1.\n";
    const doc = await convertFile("docs/a.md", utf8(md));
    expect(doc).toMatchObject({ sourcePath: "docs/a.md", fileType: "markdown", format: "markdown", text: md });
    expect(doc.title).toBe("Real Title");
  });

  it("accepts .markdown and setext headings", async () => {
    const doc = await convertFile("b.markdown", utf8("Intro\n=====\n\ntext\n"));
    expect(doc.format).toBe("markdown");
    expect(doc.title).toBe("Intro");
  });

  it("normalises CRLF and lone CR to LF so offsets refer to the converted text", async () => {
    const doc = await convertFile("c.txt", utf8("Part 1\r\n\r\n1.1\tScope\rEnd\r\n"));
    expect(doc).toMatchObject({ fileType: "text", format: "text", text: "Part 1\n\n1.1\tScope\nEnd\n", title: "Part 1" });
    expect(doc.text.indexOf("Scope")).toBe(12);
  });

  it("treats unknown text extensions and no extension as plain text", async () => {
    expect((await convertFile("README", utf8("hello"))).fileType).toBe("text");
    expect((await convertFile("notes.rst", utf8("Title\n"))).format).toBe("text");
  });

  it("decodes a UTF-16 markdown file with a BOM", async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("# Ü\r\nx", "utf16le")]);
    const doc = await convertFile("u.md", bytes);
    expect(doc.text).toBe("# Ü\nx");
    expect(doc.title).toBe("Ü");
  });

  it("fails per file with a clear code on bad text", async () => {
    await expectFileError(() => convertFile("bad.md", new Uint8Array([0x23, 0x20, 0xff])), "E_INPUT_ENCODING", "bad.md");
    await expectFileError(() => convertFile("bin.txt", new Uint8Array([1, 2, 0, 4])), "E_INPUT_BINARY", "bin.txt");
    await expectFileError(() => convertFile("empty.txt", new Uint8Array()), "E_INPUT_EMPTY", "empty.txt");
    await expectFileError(() => convertFile("blank.md", utf8("\n\n  \n")), "E_INPUT_EMPTY", "blank.md");
  });

  it("refuses known binary formats as unsupported types", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const err = await expectFileError(() => convertFile("img.txt", png), "E_UNSUPPORTED_TYPE", "img.txt");
    expect(err.message).toContain("PNG");
    await expectFileError(() => convertFile("photo.jpg", utf8("not really")), "E_UNSUPPORTED_TYPE", "photo.jpg");
  });

  it("enforces maxBytes before decoding", async () => {
    const err = await expectFileError(
      () => convertFile("big.txt", utf8("x".repeat(100)), { maxBytes: 10 }),
      "E_INPUT_TOO_LARGE",
      "big.txt",
    );
    expect(err.details.limit).toBe(10);
  });

  it("converts a 50 MB single-line file", async () => {
    const bytes = new Uint8Array(50 * 1024 * 1024).fill(0x61);
    const doc = await convertFile("long.txt", bytes);
    expect(doc.text.length).toBe(bytes.length);
    expect(doc.title?.length).toBe(200);
  });

  it("uses the converters it is given, in order", async () => {
    const doc = await convertFile("x.md", utf8("# A"), { converters: [new TextConverter(), new MarkdownConverter()] });
    expect(doc.format).toBe("text");
    await expectFileError(() => convertFile("x.md", utf8("# A"), { converters: [] }), "E_UNSUPPORTED_TYPE", "x.md");
  });
});
