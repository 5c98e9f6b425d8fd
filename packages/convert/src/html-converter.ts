import type { ConvertInput, ConvertedDocument, Converter } from "@hierdoc/core";
import { decodeText, normalizeNewlines } from "./decode-text.js";
import { fileError, parseError } from "./errors.js";
import { htmlTitle, htmlToMarkdownWithMap, type HtmlMarkdown } from "./html-to-markdown.js";
import { firstMarkdownHeading } from "./markdown-converter.js";
import { extensionOf, textHead } from "./sniff.js";

const HTML_EXTENSIONS = new Set(["html", "htm", "xhtml"]);
/** Extensions that say "read me as written" even when the content starts like HTML. */
const TEXT_EXTENSIONS = new Set(["md", "markdown", "mdown", "mkd", "mdx", "txt", "text"]);

/**
 * HTML pages (`.html`, `.htm`, `.xhtml`, or content that starts like HTML unless named `.md` / `.txt`) → markdown via turndown, with real
 * `#` headings from `<h1>`…`<h6>`; script, style and embedded objects are dropped. Format `markdown`.
 */
export class HtmlConverter implements Converter {
  readonly id = "html";

  canConvert(input: ConvertInput): boolean {
    const ext = extensionOf(input.path);
    if (HTML_EXTENSIONS.has(ext)) return true;
    if (TEXT_EXTENSIONS.has(ext)) return false;
    return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html[\s>])/i.test(textHead(input.bytes, 2048));
  }

  /** @throws HierdocError E_INPUT_* for bad text, E_PARSE when the HTML cannot be converted, E_INPUT_EMPTY when it has no text. */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const html = normalizeNewlines(decodeText(input.path, input.bytes));
    let converted: HtmlMarkdown;
    try {
      converted = htmlToMarkdownWithMap(html);
    } catch (err) {
      throw parseError(input.path, "HTML", err);
    }
    const { text, sourceMap } = converted;
    if (text.trim() === "") throw fileError("E_INPUT_EMPTY", input.path, "the HTML has no text content");
    return {
      sourcePath: input.path,
      fileType: "html",
      format: "markdown",
      text,
      title: htmlTitle(html) ?? firstMarkdownHeading(text),
      ...(sourceMap.length > 0 ? { sourceMap } : {}),
    };
  }
}
