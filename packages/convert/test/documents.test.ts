import { readFileSync } from "node:fs";
import { convertFile, EpubConverter, readRtf } from "@hierdoc/convert";
import { buildZip } from "./fixtures.js";
import { expectFileError, utf8 } from "./helpers.js";
import { buildEpub, buildOdt, LAUGHS } from "./office-fixtures.js";

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/office/${name}`, import.meta.url)));

/** What LibreOffice's policy.fodt holds, converted: headings at their outline level, a nested list, a table. */
const POLICY =
  "# Data Retention Policy\n\nThis policy sets how long personal data is kept.\n\n## 1. Scope\n\n" +
  "It applies to all customer records held by the company.\n\n" +
  "- Invoices are kept for ten years.\n- Support tickets are kept for two years.\n  - Attachments are deleted after ninety days.\n\n" +
  "## 2. Retention periods\n\n| Record | Period |\n| --- | --- |\n| Invoice | 10 years |\n| Ticket | 2 years |\n\n" +
  "### 2.1 Exceptions\n\nA legal hold suspends deletion until it is lifted.\n\n" +
  "# Deletion Procedure\n\nRecords past their period are deleted every month.\n\n## 3. Verification\n\n" +
  "The data protection officer signs the deletion log.\n";

describe("ODT converter", () => {
  it("reads a LibreOffice document: headings, nested lists, tables, the meta title", async () => {
    const doc = await convertFile("policy.odt", fixture("policy.odt"));
    expect(doc).toMatchObject({ fileType: "odt", format: "markdown", title: "Data Retention Policy", text: POLICY });
  });

  it("keeps text:s spaces, tabs and line breaks; leaves footnotes out; is chosen by its mimetype", async () => {
    const odt = buildOdt(
      '<text:h text:outline-level="2">Rule<text:s text:c="2"/>7</text:h><text:p>a<text:tab/>b<text:line-break/>c' +
        "<text:note><text:note-body><text:p>foot</text:p></text:note-body></text:note></text:p><text:p># hash</text:p>",
    );
    const doc = await convertFile("upload.bin", odt);
    expect(doc.fileType).toBe("odt");
    expect(doc.text).toBe("## Rule 7\n\na\tb\nc\n\n\\# hash\n");
  });

  it("refuses nested entities, a zip bomb and a non-zip, naming the file", async () => {
    const laughs = buildOdt("<text:p>&c;</text:p>", LAUGHS);
    const err = await expectFileError(() => convertFile("l.odt", laughs), "E_PARSE", "l.odt");
    expect(err.details.entry).toBe("content.xml");
    const bomb = buildZip([
      { name: "mimetype", data: "application/vnd.oasis.opendocument.text", store: true },
      { name: "content.xml", data: "<a/>" },
      { name: "Pictures/z.bin", data: new Uint8Array(8 * 1024 * 1024), declaredSize: 10 },
    ]);
    await expectFileError(() => convertFile("b.odt", bomb, { maxUncompressedBytes: 1024 * 1024 }), "E_INPUT_TOO_LARGE", "b.odt");
    await expectFileError(() => convertFile("n.odt", utf8("plain")), "E_PARSE", "n.odt");
    await expectFileError(() => convertFile("e.odt", buildOdt("<text:p> </text:p>")), "E_INPUT_EMPTY", "e.odt");
  });
});

describe("EPUB converter", () => {
  it("reads a LibreOffice EPUB: chapters in spine order titled from the navigation document", async () => {
    const doc = await convertFile("policy.epub", fixture("policy.epub"));
    expect(doc).toMatchObject({ fileType: "epub", format: "markdown", title: "Data Retention Policy" });
    expect(doc.text.match(/^# .*$/gm)).toEqual(["# Data Retention Policy", "# Deletion Procedure"]);
    expect(doc.text).toContain("| Invoice | 10 years |");
    const chapters = doc.sourceMap!.map((e) => [e.anchor, doc.text.slice(e.start, e.end).split("\n")[0]]);
    expect(chapters).toEqual([
      ["OEBPS/sections/section0001.xhtml", "# Data Retention Policy"],
      ["OEBPS/sections/section0002.xhtml", "# Deletion Procedure"],
    ]);
  });

  const book = buildEpub(
    [
      { id: "c2", label: "Second", body: "<h1>Part Two</h1><p>Body two.</p><script>alert(1)</script>" },
      { id: "cover", label: "Cover", body: "<p>cover art</p>", linear: false },
      { id: "c1", label: "Untitled chapter", body: "<p>No heading here.</p>" },
    ],
    "Handbook",
  );

  it("keeps the spine order, skips non-linear items and adds a heading only where a chapter has none", async () => {
    const doc = await convertFile("book.epub", book);
    expect(doc.title).toBe("Handbook");
    expect(doc.text).toBe("# Part Two\n\nBody two.\n\n# Untitled chapter\n\nNo heading here.\n");
    expect(doc.sourceMap!.map((e) => e.anchor)).toEqual(["OPS/text/c2.xhtml", "OPS/text/c1.xhtml"]);
    expect((await convertFile("upload.bin", book)).fileType).toBe("epub");
  });

  it("refuses a chapter nested deeper than 1,000 elements", async () => {
    const deep = buildEpub([{ id: "d", label: "Deep", body: `${"<span>".repeat(20_000)}x${"</span>".repeat(20_000)}` }]);
    const err = await expectFileError(() => convertFile("deep.epub", deep), "E_PARSE", "deep.epub");
    expect(err.message).toMatch(/EPUB chapter OPS\/text\/d.xhtml: elements nested deeper than 1000/);
  });

  it("takes chapter labels from an EPUB 2 NCX when there is no nav document", async () => {
    const page = (body: string) => `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>${body}</body></html>`;
    const epub2 = buildZip([
      { name: "mimetype", data: "application/epub+zip", store: true },
      {
        name: "META-INF/container.xml",
        data: '<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>',
      },
      {
        name: "content.opf",
        data:
          '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0"><metadata/><manifest>' +
          '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/><item id="a" href="a%20b.html" media-type="application/xhtml+xml"/>' +
          '</manifest><spine toc="ncx"><itemref idref="a"/></spine></package>',
      },
      {
        name: "toc.ncx",
        data: '<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/"><navMap><navPoint id="p"><navLabel><text>Article 5 Principles</text></navLabel><content src="a%20b.html#start"/></navPoint></navMap></ncx>',
      },
      { name: "a b.html", data: page("<p>Personal data shall be processed lawfully.</p>") },
    ]);
    const doc = await convertFile("old.epub", epub2);
    expect(doc.text).toBe("# Article 5 Principles\n\nPersonal data shall be processed lawfully.\n");
    expect(doc.title).toBe("Article 5 Principles");
  });

  it("fails with E_PARSE without a container, E_INPUT_TOO_LARGE over maxChapters", async () => {
    const noContainer = buildZip([{ name: "mimetype", data: "application/epub+zip", store: true }]);
    const err = await expectFileError(() => convertFile("n.epub", noContainer), "E_PARSE", "n.epub");
    expect(err.message).toContain("META-INF/container.xml");
    await expectFileError(() => new EpubConverter({ maxChapters: 1 }).convert({ path: "m.epub", bytes: book }), "E_INPUT_TOO_LARGE", "m.epub");
  });
});

describe("RTF converter", () => {
  it("reads a LibreOffice RTF like its ODT: heading styles, list levels, tables, the info title", async () => {
    const doc = await convertFile("policy.rtf", fixture("policy.rtf"));
    expect(doc).toMatchObject({ fileType: "rtf", format: "markdown", title: "Data Retention Policy", text: POLICY });
  });

  it("decodes \\u with its fallback, \\'hh in the code page, symbols, and keeps field results", () => {
    const rtf =
      "{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Arial;}}\\uc1 Caf\\'e9 \\u8364? \\ldblquote q\\rdblquote\\~x " +
      "{\\field{\\*\\fldinst HYPERLINK \"http://e\"}{\\fldrslt link}}{\\*\\unknown hidden}\\par}";
    expect(readRtf("a.rtf", rtf).blocks).toEqual([{ kind: "paragraph", text: "Café € “q” x link" }]);
  });

  it("takes headings from outline levels and Heading styles, and skips \\bin data", async () => {
    const rtf =
      "{\\rtf1{\\stylesheet{\\s0 Normal;}{\\s5 heading 2;}}\\pard\\outlinelevel0 Top\\par\\pard\\s5 Sub\\par" +
      "\\pard\\s0 {\\*\\blipuid x}{\\pict\\bin6 }}{{}}}\\par text\\par}";
    const doc = await convertFile("h.rtf", utf8(rtf));
    expect(doc.text).toBe("# Top\n\n## Sub\n\ntext\n");
  });

  it("fails with E_PARSE for non-RTF and for groups nested too deep; E_INPUT_EMPTY without text", async () => {
    await expectFileError(() => convertFile("x.rtf", utf8("plain")), "E_PARSE", "x.rtf");
    const deep = `{\\rtf1 ${"{".repeat(1000)}x${"}".repeat(1000)}}`;
    const err = await expectFileError(() => convertFile("d.rtf", utf8(deep)), "E_PARSE", "d.rtf");
    expect(err.message).toMatch(/nested deeper than 256/);
    await expectFileError(() => convertFile("e.rtf", utf8("{\\rtf1{\\fonttbl{\\f0 Arial;}}\\par}")), "E_INPUT_EMPTY", "e.rtf");
  });

  it("is chosen by content for text starting with {\\rtf", async () => {
    expect((await convertFile("upload.bin", utf8("{\\rtf1 Hello\\par}"))).fileType).toBe("rtf");
  });
});
