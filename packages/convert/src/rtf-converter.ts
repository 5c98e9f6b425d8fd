import type { ConvertInput, ConvertedDocument, Converter } from "@hierdoc/core";
import { fileError } from "./errors.js";
import { MarkdownWriter, escapeBlock } from "./markdown-writer.js";
import { readRtf, type RtfBlock, type RtfLimits } from "./rtf-reader.js";
import { extensionOf, latin1Head } from "./sniff.js";
import { pipeTable } from "./table-text.js";

/** Heading level of an RTF paragraph: a "heading N" / "Title" style, else its outline level; undefined for body text. */
export function rtfHeadingLevel(block: { style?: string; outlineLevel?: number }): number | undefined {
  const named = /^heading\s*(\d)$/i.exec(block.style ?? "");
  if (named) return Math.max(1, Number(named[1]));
  if (/^title$/i.test(block.style ?? "")) return 1;
  if (block.outlineLevel !== undefined && block.outlineLevel >= 0 && block.outlineLevel < 9) return block.outlineLevel + 1;
  return undefined;
}

/**
 * Rich Text Format (`.rtf`, or text starting with `{\rtf`) → markdown with {@link readRtf}: paragraphs, headings
 * from heading styles or outline levels, `-` lists indented by level, tables as pipe tables. No source map
 * (RTF has no element ids). Guards: group nesting depth, `\bin` skipped by length, no external resources.
 */
export class RtfConverter implements Converter {
  readonly id = "rtf";

  constructor(private readonly limits: RtfLimits = {}) {}

  canConvert(input: ConvertInput): boolean {
    return extensionOf(input.path) === "rtf" || /^\s*\{\\rtf/.test(latin1Head(input.bytes, 32));
  }

  /** @throws HierdocError E_PARSE for text that is not RTF or nests too deep, E_INPUT_EMPTY without text. */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const { path, bytes } = input;
    const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
    const doc = readRtf(path, source, this.limits);
    const w = new MarkdownWriter();
    let list: string[] = [];
    let rows: string[][] = [];
    let firstHeading: string | undefined;
    const flush = (): void => {
      if (list.length > 0) w.block(list.join("\n"));
      if (rows.length > 0) w.block(pipeTable(rows));
      list = [];
      rows = [];
    };
    for (const b of doc.blocks as RtfBlock[]) {
      if (b.kind === "row") {
        if (list.length > 0) flush();
        rows.push(b.cells);
        continue;
      }
      const level = rtfHeadingLevel(b);
      if (level === undefined && b.listLevel !== undefined) {
        if (rows.length > 0) flush();
        list.push(`${"  ".repeat(Math.min(8, b.listLevel))}- ${b.text.replace(/\n/g, " ")}`);
        continue;
      }
      flush();
      if (level !== undefined) {
        w.heading(level, b.text);
        firstHeading ??= b.text.replace(/\s+/g, " ");
      } else w.block(escapeBlock(b.text));
    }
    flush();
    const text = w.toString();
    if (text.trim() === "") throw fileError("E_INPUT_EMPTY", path, "the RTF document has no text");
    const title = doc.title ?? firstHeading;
    return { sourcePath: path, fileType: "rtf", format: "markdown", text, ...(title ? { title } : {}) };
  }
}
