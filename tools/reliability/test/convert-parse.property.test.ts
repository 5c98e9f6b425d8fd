import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { HierdocError, isHierdocError } from "@hierdoc/core";
import { convertFile } from "@hierdoc/convert";
import { parseDocument, sectionIdFromHeading } from "@hierdoc/chunker";
import { billionLaughs, zipBomb } from "../src/index.js";

// Property: any bytes under any document extension either convert + parse into chunks whose content is
// exactly the converted text between their offsets, or fail with one HierdocError naming the file.
// Never a bare error, never a crash. HIERDOC_PROPERTY_RUNS raises the run count (default 300 per property).
const RUNS = Number(process.env.HIERDOC_PROPERTY_RUNS ?? 300);
const EXTENSIONS = ["md", "txt", "html", "xml", "pdf", "docx", "bin", ""];

async function convertAndParse(name: string, bytes: Uint8Array): Promise<"parsed" | string> {
  const path = `/virtual/${name}`;
  let doc;
  try {
    doc = await convertFile(path, bytes);
  } catch (err) {
    if (!(err instanceof HierdocError)) throw new Error(`${name}: not a HierdocError: ${String(err)}`);
    expect(err.details.file).toBe(path);
    expect(err.message).toContain(path);
    return err.code;
  }
  const parsed = parseDocument(doc, { maxChunkTokens: 200 });
  for (const c of parsed.chunks) {
    expect(c.start).toBeGreaterThanOrEqual(0);
    expect(c.end).toBeLessThanOrEqual(doc.text.length);
    expect(c.content).toBe(doc.text.slice(c.start, c.end));
    expect(c.sourcePath).toBe(path);
  }
  for (const s of parsed.sections) expect(s.end).toBeLessThanOrEqual(doc.text.length);
  expect(new Set(parsed.chunks.map((c) => c.id)).size).toBe(parsed.chunks.length);
  return "parsed";
}

/** Markdown-ish and numbered-text-ish lines: headings, fences, lists, numbered units, tables, HTML. */
const structuredLine = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 8 }), fc.string({ maxLength: 20 })).map(([n, t]) => `${"#".repeat(n)} ${t}`),
  fc.constantFrom("```", "~~~", "````js", "```\t", "    code", "> quote", "---", "| a | b |", "|---|---|", "<div>", "</div>", "<!--", "-->", "[^1]: note", "* * *"),
  fc.tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom("- ", "* ", "1. ", "(a) ", "(iv) "), fc.string({ maxLength: 15 })).map(([d, m, t]) => `${" ".repeat(d)}${m}${t}`),
  fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 1, maxLength: 30 }).map((ns) => `${ns.join(".")} ${ns.length % 2 ? "(1)" : "Title"} text`),
  fc.constantFrom("Section 4(2)(a)", "§ 478.11 Meaning of terms.", "Article 17 — Erasure", "CHAPTER II", "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1", "\uFEFF# bom", "\r", ""),
  fc.string({ maxLength: 40, unit: "grapheme" }),
);
const structuredDoc = fc.tuple(fc.array(structuredLine, { maxLength: 60 }), fc.constantFrom("\n", "\r\n", "\r")).map(([lines, nl]) => lines.join(nl));

describe("convert + parse on generated inputs", () => {
  it("random bytes under every extension: a parse or a HierdocError naming the file", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), fc.constantFrom(...EXTENSIONS), async (bytes, ext) => {
        await convertAndParse(`f.${ext}`, bytes);
      }),
      { numRuns: RUNS },
    );
  });

  it("arbitrary Unicode text (UTF-8, UTF-16 LE/BE with BOM): parses, offsets exact", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", minLength: 1, maxLength: 400 }).filter((s) => /\S/.test(s) && !/[\0-\x08\x0e-\x1a]/.test(s)), fc.constantFrom("utf8", "utf16le", "utf16be"), fc.constantFrom("md", "txt"), async (text, enc, ext) => {
        let bytes: Buffer;
        if (enc === "utf8") bytes = Buffer.from(text, "utf8");
        else {
          const le = Buffer.from(text, "utf16le");
          if (enc === "utf16be") le.swap16();
          bytes = Buffer.concat([Buffer.from(enc === "utf16le" ? [0xff, 0xfe] : [0xfe, 0xff]), le]);
        }
        expect(await convertAndParse(`t.${ext}`, bytes)).toBe("parsed");
      }),
      { numRuns: RUNS },
    );
  });

  it("structured markdown / numbered text with mixed line ends: parses, offsets exact", async () => {
    await fc.assert(
      fc.asyncProperty(structuredDoc.filter((s) => /\S/.test(s)), fc.constantFrom("md", "txt"), async (text, ext) => {
        const result = await convertAndParse(`s.${ext}`, Buffer.from(text, "utf8"));
        expect(["parsed", "E_INPUT_BINARY"]).toContain(result);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it("text with invalid UTF-8 spliced in fails with E_INPUT_ENCODING naming the file", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 200 }).filter((s) => !/[\0-\x08\x0e-\x1a]/.test(s)), fc.constantFrom([0xc3, 0x28], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xff]), fc.nat(), async (text, bad, at) => {
        const cut = at % (text.length + 1);
        const bytes = Buffer.concat([Buffer.from(text.slice(0, cut), "utf8"), Buffer.from(bad), Buffer.from(text.slice(cut), "utf8")]);
        expect(await convertAndParse("bad.md", bytes)).toBe("E_INPUT_ENCODING");
      }),
      { numRuns: RUNS },
    );
  });

  it("zip bombs of any size over the limit are refused before inflating past it", async () => {
    for (const size of [300 * 2 ** 20, 2 ** 30, 4 * 2 ** 30]) {
      const t0 = performance.now();
      const err = await convertFile("/virtual/bomb.docx", zipBomb(size)).catch((e: unknown) => e);
      expect(isHierdocError(err, "E_INPUT_TOO_LARGE")).toBe(true);
      expect(performance.now() - t0).toBeLessThan(20_000);
    }
  }, 90_000);

  it("billion laughs in USLM and xml2rfc documents is refused (nested entities)", async () => {
    for (const root of ["rfc", "uscDoc"]) {
      const err = await convertFile(`/virtual/${root}.xml`, Buffer.from(billionLaughs(root))).catch((e: unknown) => e);
      expect(isHierdocError(err, "E_PARSE")).toBe(true);
      expect((err as HierdocError).message).toMatch(/entit/);
    }
  });

  // Regression: the chunker's unit-label regex had nested quantifiers; a 50-level label "1.1.…1 Level"
  // took 106 s in it (exponential backtracking) and one such heading stalled a whole ingest.
  it("long repetitive heading labels are identified in linear time (no catastrophic backtracking)", () => {
    for (const depth of [50, 1000, 10_000]) {
      const label = Array.from({ length: depth }, () => "1").join(".");
      expect(sectionIdFromHeading(`${label} Level`)?.id).toBe(label);
      expect(sectionIdFromHeading(`${label}(a) Level`)?.id).toBe(`${label}(a)`);
      expect(sectionIdFromHeading(`Art 5a.${label}x (`)).not.toBeUndefined();
    }
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("1", ".", "1.", "a", "A", "(", ")", "(a)", " ", "§", "Article ", "Section ", "-", "_"), { minLength: 20, maxLength: 400 }),
        fc.integer({ min: 1, max: 20 }),
        (parts, repeat) => {
          const heading = parts.join("").repeat(repeat);
          const t0 = performance.now();
          sectionIdFromHeading(heading);
          parseDocument({ sourcePath: "/virtual/h.md", fileType: "markdown", format: "markdown", text: `# ${heading}\n\n${heading}\n` });
          parseDocument({ sourcePath: "/virtual/h.txt", fileType: "text", format: "text", text: `${heading}\n\n${heading}\n` });
          // A guard against super-linear blow-ups, not a speed target: linear work here is ~1 ms.
          expect(performance.now() - t0).toBeLessThan(2_000);
        },
      ),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  }, 60_000);
});
