import type { ConvertInput, ConvertedDocument, Converter } from "@hierdoc/core";
import { decodeText, normalizeNewlines } from "./decode-text.js";
import { extensionOf } from "./sniff.js";

const MARKDOWN_EXTENSIONS = new Set(["md", "markdown", "mdown", "mkd", "mdx"]);

/** Text of the first ATX or setext heading of a markdown text, outside front matter, or undefined. */
export function firstMarkdownHeading(text: string): string | undefined {
  let body = text;
  if (body.startsWith("---\n")) {
    const end = body.indexOf("\n---", 4);
    if (end !== -1) body = body.slice(end + 4);
  }
  const lines = body.slice(0, 200_000).split("\n");
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const atx = /^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/.exec(line);
    if (atx && atx[1].trim()) return atx[1].trim();
    const next = lines[i + 1];
    if (line.trim() && next !== undefined && /^ {0,3}(=+|-+)[ \t]*$/.test(next) && !/^ {0,3}[-*+] /.test(line)) {
      return line.trim();
    }
  }
  return undefined;
}

/**
 * Markdown files (`.md`, `.markdown`, …): the text as is after strict decoding (BOM removed, CRLF → LF).
 * Format `markdown`; the title is the first heading.
 */
export class MarkdownConverter implements Converter {
  readonly id = "markdown";

  canConvert(input: ConvertInput): boolean {
    return MARKDOWN_EXTENSIONS.has(extensionOf(input.path));
  }

  /** @throws HierdocError E_INPUT_ENCODING / E_INPUT_BINARY / E_INPUT_EMPTY (see {@link decodeText}). */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const text = normalizeNewlines(decodeText(input.path, input.bytes));
    return {
      sourcePath: input.path,
      fileType: "markdown",
      format: "markdown",
      text,
      title: firstMarkdownHeading(text),
    };
  }
}
