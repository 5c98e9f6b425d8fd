import { convertFile } from "@hierdoc/convert";
import { buildPdf } from "./fixtures.js";
import { expectFileError, utf8 } from "./helpers.js";

describe("PDF converter", () => {
  const pdf = buildPdf(
    [
      ["1. Scope", "This part applies to (licensed) dealers."],
      ["2. Definitions", "Dealer means a person."],
    ],
    { title: "Dealer Rules" },
  );

  it("extracts text per page with a page source map", async () => {
    const doc = await convertFile("rules.pdf", pdf);
    expect(doc).toMatchObject({ fileType: "pdf", format: "text", title: "Dealer Rules" });
    expect(doc.text).toBe("1. Scope\nThis part applies to (licensed) dealers.\n\n2. Definitions\nDealer means a person.\n");
    expect(doc.sourceMap).toHaveLength(2);
    const [p1, p2] = doc.sourceMap!;
    expect(p1.page).toBe(1);
    expect(doc.text.slice(p1.start, p1.end)).toBe("1. Scope\nThis part applies to (licensed) dealers.");
    expect(p2.page).toBe(2);
    expect(doc.text.slice(p2.start, p2.end)).toBe("2. Definitions\nDealer means a person.");
  });

  it("is chosen by the %PDF- header whatever the extension", async () => {
    expect((await convertFile("scan.bin", pdf)).fileType).toBe("pdf");
  });

  it("fails with E_PARSE for a truncated PDF", async () => {
    await expectFileError(() => convertFile("cut.pdf", pdf.subarray(0, 120)), "E_PARSE", "cut.pdf");
  });

  it("fails with E_PARSE for a .pdf that is not a PDF", async () => {
    const err = await expectFileError(() => convertFile("fake.pdf", utf8("hello world")), "E_PARSE", "fake.pdf");
    expect(err.message).toContain("%PDF-");
  });

  it("fails with E_PARSE for garbage after a PDF header", async () => {
    const junk = new Uint8Array([...utf8("%PDF-1.7\n"), ...Array.from({ length: 500 }, (_, i) => (i * 37) % 256)]);
    await expectFileError(() => convertFile("junk.pdf", junk), "E_PARSE", "junk.pdf");
  });

  it("reports a PDF without a text layer as empty", async () => {
    await expectFileError(() => convertFile("blank.pdf", buildPdf([[]])), "E_INPUT_EMPTY", "blank.pdf");
  });

  it("enforces the page limit", async () => {
    const { PdfConverter } = await import("@hierdoc/convert");
    await expectFileError(
      () => convertFile("many.pdf", pdf, { converters: [new PdfConverter({ maxPages: 1 })] }),
      "E_INPUT_TOO_LARGE",
      "many.pdf",
    );
  });
});
