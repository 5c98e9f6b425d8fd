import { HierdocError } from "@hierdoc/core";
import { convertFile, createConverters, defaultConverters, SUPPORTED_EXTENSIONS } from "@hierdoc/convert";
import fc from "fast-check";
import { buildDocx, buildPdf, buildZip } from "./fixtures.js";
import { expectFileError, utf8 } from "./helpers.js";

describe("convertFile: choosing a converter", () => {
  const cases: [string, Uint8Array, string][] = [
    ["a.md", utf8("# A\n"), "markdown"],
    ["a.txt", utf8("1.1\tScope\n"), "text"],
    ["a.html", utf8("<h1>A</h1>"), "html"],
    ["a.docx", buildDocx([{ text: "A" }]), "docx"],
    ["a.pdf", buildPdf([["A"]]), "pdf"],
    ["usc.xml", utf8('<uscDoc xmlns="http://xml.house.gov/schemas/uslm/1.0"><main><section><num>§ 1.</num><heading> A</heading></section></main></uscDoc>'), "uslm-xml"],
    ["r.xml", utf8('<rfc><middle><section title="A"><t>x</t></section></middle></rfc>'), "rfc-xml"],
    ["data.xml", utf8("<catalog><item>x</item></catalog>"), "text"],
  ];

  it.each(cases.map(([path, bytes, fileType]) => ({ path, bytes, fileType })))("$path → $fileType", async ({ path, bytes, fileType }) => {
    const doc = await convertFile(path, bytes);
    expect(doc.fileType).toBe(fileType);
    expect(doc.sourcePath).toBe(path);
    expect(doc.text.trim()).not.toBe("");
  });

  it("sniffs content only where it is unambiguous", async () => {
    const md = "# About PDFs\n\nA PDF starts with %PDF-1.7 and an RFC source with <rfc number=\"1\">.\n";
    expect((await convertFile("notes.md", utf8(md))).fileType).toBe("markdown");
    expect((await convertFile("notes", utf8(md))).fileType).toBe("text");
    expect((await convertFile("page.md", utf8("<!doctype html><h1>x</h1>"))).fileType).toBe("markdown");
    const rfcWithProlog = '<?xml version="1.0"?>\n<!-- c -->\n<!DOCTYPE rfc [<!ENTITY a "b">]>\n<?rfc toc="yes"?>\n<rfc><front><title>&a;</title></front></rfc>';
    expect((await convertFile("x.xml", utf8(rfcWithProlog))).fileType).toBe("rfc-xml");
  });

  it("exposes the default converters in the order they are tried", () => {
    expect(defaultConverters.map((c) => c.id)).toEqual([
      "pdf", "docx", "pptx", "xlsx", "odt", "epub", "rtf", "uslm-xml", "rfc-xml", "csv", "code", "html", "markdown", "text",
    ]);
    expect(createConverters({ maxUncompressedBytes: 1 }).map((c) => c.id)).toEqual(defaultConverters.map((c) => c.id));
  });

  it("lists as SUPPORTED_EXTENSIONS exactly what a dedicated converter claims by name", () => {
    const bytes = new TextEncoder().encode("x");
    const claimedBy = (ext: string) => defaultConverters.find((c) => c.canConvert({ path: `f${ext}`, bytes }))?.id;
    for (const ext of SUPPORTED_EXTENSIONS) {
      expect([ext, claimedBy(ext)]).toEqual([ext, [".xml", ".txt", ".text"].includes(ext) ? "text" : expect.not.stringMatching(/^text$/)]);
    }
    expect(SUPPORTED_EXTENSIONS).toEqual(expect.arrayContaining([".pptx", ".xlsx", ".csv", ".tsv", ".epub", ".odt", ".rtf", ".py", ".java", ".rs", ".cpp", ".h", ".c", ".go", ".rb", ".cs", ".ts"]));
    expect(claimedBy(".png")).toBeUndefined();
  });

  it("names the file and the detected type for unsupported binaries", async () => {
    const gz = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]);
    const err = await expectFileError(() => convertFile("logs/x.txt.gz", gz), "E_UNSUPPORTED_TYPE", "logs/x.txt.gz");
    expect(err.message).toContain("gzip");
    await expectFileError(() => convertFile("notes.zip", buildZip([{ name: "a.md", data: "# A" }])), "E_UNSUPPORTED_TYPE", "notes.zip");
  });

  it("wraps an unexpected converter failure as E_PARSE naming the file", async () => {
    const broken = { id: "broken", canConvert: () => true, convert: async () => { throw new TypeError("boom"); } };
    const err = await expectFileError(() => convertFile("x.md", utf8("# x"), { converters: [broken] }), "E_PARSE", "x.md");
    expect(err.message).toContain("boom");
    expect(err.cause).toBeInstanceOf(TypeError);
  });

  it("never throws anything but a HierdocError on random bytes under any name", async () => {
    const names = ["a.txt", "a.md", "a.html", "a.xml", "a.pdf", "a.docx", "a"];
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(...names), async (bytes, name) => {
        try {
          const doc = await convertFile(name, bytes);
          expect(typeof doc.text).toBe("string");
        } catch (err) {
          expect(err).toBeInstanceOf(HierdocError);
          expect((err as HierdocError).details.file).toBe(name);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("never throws anything but a HierdocError on mutated real documents", async () => {
    const seeds = [
      { name: "m.pdf", bytes: buildPdf([["1. Scope", "Text"]]) },
      { name: "m.docx", bytes: buildDocx([{ text: "Head", style: "Heading1" }, { text: "Body" }]) },
      { name: "m.xml", bytes: utf8('<rfc><middle><section title="A"><t>x &amp; y</t></section></middle></rfc>') },
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...seeds), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), async (seed, cut, at, value) => {
        const bytes = seed.bytes.slice(0, 1 + (cut % seed.bytes.length));
        if (bytes.length > 0) bytes[at % bytes.length] = value;
        await convertFile(seed.name, bytes).catch((err: unknown) => {
          expect(err).toBeInstanceOf(HierdocError);
        });
      }),
      { numRuns: 150 },
    );
  });
});
