import type { ConvertInput, ConvertedDocument, Converter, SourceMapEntry } from "@hierdoc/core";
import { extractText, getDocumentProxy } from "unpdf";
import { fileError } from "./errors.js";
import { extensionOf, isPdf } from "./sniff.js";

/** Most pages read from one PDF by default. */
const DEFAULT_MAX_PAGES = 10_000;

function cleanPage(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t\f\v\u00a0]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * PDF files (`.pdf`, or bytes starting with `%PDF-`) → plain text page by page with unpdf (PDF.js), pages separated by a blank line; the source map
 * gives each page's `[start, end)` and 1-based page number. Format `text` (the chunker infers numbering).
 * Scanned PDFs without a text layer yield E_INPUT_EMPTY (no OCR).
 */
export class PdfConverter implements Converter {
  readonly id = "pdf";

  constructor(private readonly limits: { maxPages?: number } = {}) {}

  canConvert(input: ConvertInput): boolean {
    const b = input.bytes;
    const magic = b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d; // "%PDF-"
    return extensionOf(input.path) === "pdf" || magic;
  }

  /** @throws HierdocError E_PARSE for a truncated, encrypted or non-PDF file; E_INPUT_EMPTY when no page has text. */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const { path, bytes } = input;
    if (!isPdf(bytes)) throw fileError("E_PARSE", path, "not a PDF file: no %PDF- header");
    let pages: string[];
    let title: string | undefined;
    try {
      const pdf = await getDocumentProxy(new Uint8Array(bytes), {
        verbosity: 0,
        isEvalSupported: false,
        stopAtErrors: true,
        disableFontFace: true,
        useSystemFonts: false,
      });
      try {
        const maxPages = this.limits.maxPages ?? DEFAULT_MAX_PAGES;
        if (pdf.numPages > maxPages) {
          throw fileError("E_INPUT_TOO_LARGE", path, `PDF has ${pdf.numPages} pages; the limit is ${maxPages}`);
        }
        const info = (await pdf.getMetadata().catch(() => null))?.info as { Title?: unknown } | undefined;
        if (typeof info?.Title === "string" && info.Title.trim()) title = info.Title.trim();
        pages = (await extractText(pdf, { mergePages: false })).text;
      } finally {
        await pdf.destroy().catch(() => undefined);
      }
    } catch (err) {
      if (err instanceof Error && err.name === "HierdocError") throw err;
      const reason = err instanceof Error ? err.message : String(err);
      const code = /password/i.test(reason) ? "encrypted PDF (password required)" : reason;
      throw fileError("E_PARSE", path, `cannot read PDF: ${code}`, { cause: err });
    }
    const sourceMap: SourceMapEntry[] = [];
    let text = "";
    pages.forEach((raw, i) => {
      const page = cleanPage(raw);
      if (!page) return;
      if (text) text += "\n\n";
      sourceMap.push({ start: text.length, end: text.length + page.length, page: i + 1 });
      text += page;
    });
    if (!text) throw fileError("E_INPUT_EMPTY", path, "the PDF has no extractable text (scanned pages need OCR)");
    text += "\n";
    return {
      sourcePath: path,
      fileType: "pdf",
      format: "text",
      text,
      title: title ?? text.split("\n", 1)[0].trim().slice(0, 200),
      sourceMap,
    };
  }
}
