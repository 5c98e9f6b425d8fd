import { readFileSync } from "node:fs";
import { convertFile, PptxConverter } from "@hierdoc/convert";
import { buildZip } from "./fixtures.js";
import { expectFileError } from "./helpers.js";
import { buildPptx, LAUGHS } from "./office-fixtures.js";

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/office/${name}`, import.meta.url)));

describe("PPTX converter", () => {
  it("reads a LibreOffice deck: one section per slide in order, the top text box as title, bullets and notes", async () => {
    const doc = await convertFile("training.pptx", fixture("training.pptx"));
    expect(doc).toMatchObject({ fileType: "pptx", format: "markdown", title: "Security Awareness Training" });
    expect(doc.text).toBe(
      "# Security Awareness Training\n\nAnnual refresher for all staff\n\n" +
        "# Password rules\n\n- Use at least 14 characters\n- Never reuse a password\n  - A password manager helps\n\n" +
        "Notes: Remind people that MFA is mandatory.\n\n" +
        "# Reporting incidents\n\n- Report phishing within one hour\n",
    );
    const pages = doc.sourceMap!.map((e) => [doc.text.slice(e.start, e.end).split("\n")[0], e.page]);
    expect(pages).toEqual([
      ["# Security Awareness Training", 1],
      ["# Password rules", 2],
      ["# Reporting incidents", 3],
    ]);
  });

  const deck = buildPptx(
    [
      {
        shapes: [
          { ph: "title", paragraphs: ["Retention &amp; deletion"] },
          { ph: "body", paragraphs: ["Keep invoices", { text: "ten years", lvl: 1 }] },
          { table: [["Record", "Period"], ["Ticket", "2 | 3 years"]] },
        ],
        notes: "Say why.",
      },
      { shapes: [{ box: ["# not a heading"], y: 5000 }, { box: ["Top box"], y: 1000 }, { box: ["Two", "lines"], y: 9000 }] },
      { shapes: [] },
    ],
    { order: [2, 1, 3] },
  );

  it("follows the presentation order, maps placeholders, tables and notes, titles by the top one-line text box, and names untitled slides", async () => {
    const doc = await convertFile("deck.pptx", deck);
    expect(doc.text).toBe(
      "# Top box\n\n\\# not a heading\n\nTwo\n\nlines\n\n" +
        "# Retention & deletion\n\n- Keep invoices\n  - ten years\n\n| Record | Period |\n| --- | --- |\n| Ticket | 2 \\| 3 years |\n\nNotes: Say why.\n\n" +
        "# Slide 3\n",
    );
    expect(doc.sourceMap!.map((e) => e.page)).toEqual([1, 2, 3]);
  });

  it("leaves notes out when asked", async () => {
    const doc = await new PptxConverter({ notes: false }).convert({ path: "deck.pptx", bytes: deck });
    expect(doc.text).not.toContain("Notes:");
  });

  it("is chosen by content for a zip holding ppt/presentation.xml", async () => {
    expect((await convertFile("upload.bin", deck)).fileType).toBe("pptx");
  });

  it("fails with E_PARSE for a .pptx that is not a zip or has no presentation", async () => {
    await expectFileError(() => convertFile("x.pptx", new TextEncoder().encode("hello")), "E_PARSE", "x.pptx");
    const err = await expectFileError(() => convertFile("y.pptx", buildZip([{ name: "a.xml", data: "<a/>" }])), "E_PARSE", "y.pptx");
    expect(err.message).toContain("ppt/presentation.xml");
  });

  it("fails with E_INPUT_EMPTY for a deck without text", async () => {
    await expectFileError(() => convertFile("e.pptx", buildPptx([{ shapes: [] }])), "E_INPUT_EMPTY", "e.pptx");
  });

  it("refuses a zip bomb whose headers lie", async () => {
    const bomb = buildPptx([{ shapes: [{ ph: "title", paragraphs: ["T"] }] }], {
      extra: [{ name: "ppt/media/zeros.bin", data: new Uint8Array(8 * 1024 * 1024), declaredSize: 10 }],
    });
    const err = await expectFileError(() => convertFile("bomb.pptx", bomb, { maxUncompressedBytes: 1024 * 1024 }), "E_INPUT_TOO_LARGE", "bomb.pptx");
    expect(err.details.limit).toBe(1024 * 1024);
  });

  it("refuses nested entity expansion and deep nesting in a slide, naming the part", async () => {
    const laughs = buildPptx([{ shapes: [], prolog: LAUGHS, raw: "<p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>&c;</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld>" }]);
    const err = await expectFileError(() => convertFile("laughs.pptx", laughs), "E_PARSE", "laughs.pptx");
    expect(err.details.entry).toBe("ppt/slides/slide1.xml");
    const deep = buildPptx([{ shapes: [], raw: `<p:cSld><p:spTree>${"<p:grpSp>".repeat(400)}${"</p:grpSp>".repeat(400)}</p:spTree></p:cSld>` }]);
    const deepErr = await expectFileError(() => convertFile("deep.pptx", deep), "E_PARSE", "deep.pptx");
    expect(deepErr.message).toMatch(/nested deeper/);
  });

  it("refuses more slides than maxSlides", async () => {
    const many = buildPptx(Array.from({ length: 3 }, () => ({ shapes: [{ ph: "title", paragraphs: ["T"] }] })));
    await expectFileError(() => new PptxConverter({ maxSlides: 2 }).convert({ path: "many.pptx", bytes: many }), "E_INPUT_TOO_LARGE", "many.pptx");
  });
});
