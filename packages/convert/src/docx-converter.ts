import type { ConvertInput, ConvertedDocument, Converter } from "@hierdoc/core";
import mammoth from "mammoth";
import { fileError, parseError } from "./errors.js";
import { htmlToMarkdown } from "./html-to-markdown.js";
import { firstMarkdownHeading } from "./markdown-converter.js";
import { extensionOf, isZip } from "./sniff.js";
import { checkZipBomb, readZipEntries } from "./zip-guard.js";

/** Default zip-bomb limit of the DOCX converter: 256 MiB uncompressed. */
const DEFAULT_LIMIT = 256 * 1024 * 1024;

/**
 * Word documents (`.docx`, or any zip holding `word/document.xml`) → HTML with mammoth (Word heading styles
 * become `<h1>`…) → markdown with turndown. The archive is checked for zip bombs first.
 */
export class DocxConverter implements Converter {
  readonly id = "docx";

  constructor(private readonly limits: { maxUncompressedBytes?: number } = {}) {}

  canConvert(input: ConvertInput): boolean {
    if (extensionOf(input.path) === "docx") return true;
    if (!isZip(input.bytes)) return false;
    return readZipEntries(input.bytes)?.some((e) => e.name === "word/document.xml") ?? false;
  }

  /**
   * @throws HierdocError E_PARSE when the file is not a zip or not a Word document, E_INPUT_TOO_LARGE for a zip
   *   bomb, E_INPUT_EMPTY when the document has no text.
   */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const { path, bytes } = input;
    const entries = isZip(bytes) ? readZipEntries(bytes) : null;
    if (!entries) throw fileError("E_PARSE", path, "not a DOCX file: the bytes are not a zip archive");
    if (!entries.some((e) => e.name === "word/document.xml")) {
      throw fileError("E_PARSE", path, "not a DOCX file: the archive has no word/document.xml");
    }
    checkZipBomb(path, bytes, entries, { maxUncompressedBytes: this.limits.maxUncompressedBytes ?? DEFAULT_LIMIT });
    let html: string;
    try {
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      html = (await mammoth.convertToHtml({ buffer })).value;
    } catch (err) {
      throw parseError(path, "DOCX", err);
    }
    const text = htmlToMarkdown(html);
    if (text.trim() === "") throw fileError("E_INPUT_EMPTY", path, "the DOCX document has no text");
    return { sourcePath: path, fileType: "docx", format: "markdown", text, title: firstMarkdownHeading(text) };
  }
}
