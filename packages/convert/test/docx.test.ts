import { convertFile, readZipEntries } from "@hierdoc/convert";
import { buildDocx, buildZip } from "./fixtures.js";
import { expectFileError, utf8 } from "./helpers.js";

describe("DOCX converter", () => {
  const docx = buildDocx([
    { text: "Regulation", style: "Heading1" },
    { text: "Article 1 applies." },
    { text: "Definitions", style: "Heading2" },
    { text: "“Data” means facts &amp; figures." },
  ]);

  it("maps Word heading styles to markdown headings", async () => {
    const doc = await convertFile("docs/reg.docx", docx);
    expect(doc).toMatchObject({ fileType: "docx", format: "markdown", title: "Regulation" });
    expect(doc.text).toBe("# Regulation\n\nArticle 1 applies.\n\n## Definitions\n\n“Data” means facts & figures.\n");
  });

  it("is chosen by content for a zip holding word/document.xml", async () => {
    expect(readZipEntries(docx)?.map((e) => e.name)).toContain("word/document.xml");
    expect((await convertFile("upload.bin", docx)).fileType).toBe("docx");
  });

  it("fails with E_PARSE when a .docx is not a zip", async () => {
    const err = await expectFileError(() => convertFile("fake.docx", utf8("just text")), "E_PARSE", "fake.docx");
    expect(err.message).toMatch(/not a zip/);
  });

  it("fails with E_PARSE when a .docx zip has no document part", async () => {
    await expectFileError(() => convertFile("empty.docx", buildZip([{ name: "a.txt", data: "x" }])), "E_PARSE", "empty.docx");
  });

  it("fails with E_PARSE for a truncated DOCX", async () => {
    await expectFileError(() => convertFile("cut.docx", docx.subarray(0, Math.floor(docx.length / 2))), "E_PARSE", "cut.docx");
  });

  it("refuses a zip bomb by its declared size", async () => {
    const bomb = buildZip([
      { name: "word/document.xml", data: "<w:document/>" },
      { name: "word/media/big.bin", data: new Uint8Array(1024), declaredSize: 0xfffffff0 },
    ]);
    await expectFileError(() => convertFile("bomb.docx", bomb), "E_INPUT_TOO_LARGE", "bomb.docx");
  });

  it("refuses a zip bomb whose headers lie, by inflating with a cap", async () => {
    const bomb = buildZip([
      { name: "word/document.xml", data: "<w:document/>" },
      { name: "word/media/zeros.bin", data: new Uint8Array(8 * 1024 * 1024), declaredSize: 10 },
    ]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const err = await expectFileError(
      () => convertFile("liar.docx", bomb, { maxUncompressedBytes: 1024 * 1024 }),
      "E_INPUT_TOO_LARGE",
      "liar.docx",
    );
    expect(err.details.limit).toBe(1024 * 1024);
  });

  it("treats a zip that is not a Word document as an unsupported type", async () => {
    const zip = buildZip([{ name: "readme.txt", data: "hello" }]);
    const err = await expectFileError(() => convertFile("archive.zip", zip), "E_UNSUPPORTED_TYPE", "archive.zip");
    expect(err.message).toContain("zip");
    await expectFileError(() => convertFile("noext", zip), "E_UNSUPPORTED_TYPE", "noext");
  });
});
