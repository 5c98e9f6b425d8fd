import type { ConvertInput, ConvertedDocument, Converter } from "@hierdoc/core";
import { fileError } from "./errors.js";
import { MarkdownWriter, escapeBlock } from "./markdown-writer.js";
import { OfficeArchive, zipMimetype, type ArchiveLimits } from "./office-zip.js";
import { extensionOf } from "./sniff.js";
import { pipeTable } from "./table-text.js";
import { childElements, firstChild, textOf, type XmlElement } from "./xml-tree.js";

const ODT_MIME = "application/vnd.oasis.opendocument.text";
/** Inline elements whose content is not running text (footnotes, comments, change-tracking, frames). */
const SKIP_INLINE = new Set(["note", "annotation", "tracked-changes", "frame", "bookmark-ref", "sequence-decls"]);

/** Running text of an ODF paragraph or heading: spans and links, `text:s` spaces, tabs, line breaks. */
export function odfInlineText(el: XmlElement): string {
  const parts: string[] = [];
  const walk = (node: XmlElement): void => {
    for (const c of node.children) {
      if (typeof c === "string") parts.push(c.replace(/\s+/g, " "));
      else if (c.name === "s") parts.push(" ".repeat(Math.min(100, Math.max(1, Number(c.attrs["text:c"] ?? 1) || 1))));
      else if (c.name === "tab") parts.push("\t");
      else if (c.name === "line-break") parts.push("\n");
      else if (!SKIP_INLINE.has(c.name)) walk(c);
    }
  };
  walk(el);
  return parts.join("").replace(/ *\n */g, "\n").trim();
}

function tableRows(table: XmlElement): string[][] {
  const rows: string[][] = [];
  const visit = (el: XmlElement): void => {
    for (const c of childElements(el)) {
      if (c.name === "table-row") {
        const cells: string[] = [];
        for (const cell of childElements(c)) {
          if (cell.name !== "table-cell" && cell.name !== "covered-table-cell") continue;
          const text = childElements(cell).map(blockText).filter((t) => t !== "").join(" ");
          const repeat = text === "" ? 1 : Math.min(64, Math.max(1, Number(cell.attrs["table:number-columns-repeated"] ?? 1) || 1));
          for (let r = 0; r < repeat; r++) cells.push(text);
        }
        while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
        if (cells.length > 0) rows.push(cells);
      } else if (c.name === "table-header-rows" || c.name === "table-rows" || c.name === "table-row-group") visit(c);
    }
  };
  visit(table);
  return rows;
}

/** Flat text of any block (paragraph, list, nested table) for a table cell. */
function blockText(el: XmlElement): string {
  if (el.name === "p" || el.name === "h") return odfInlineText(el).replace(/\s+/g, " ");
  return childElements(el).map(blockText).filter((t) => t !== "").join(" ");
}

function listLines(list: XmlElement, depth: number, out: string[]): void {
  for (const item of childElements(list)) {
    if (item.name !== "list-item" && item.name !== "list-header") continue;
    let first = true;
    for (const c of childElements(item)) {
      if (c.name === "list") listLines(c, depth + 1, out);
      else {
        const text = blockText(c);
        if (text === "") continue;
        out.push(first ? `${"  ".repeat(Math.min(8, depth))}- ${text}` : `${"  ".repeat(Math.min(8, depth) + 1)}${text}`);
        first = false;
      }
    }
  }
}

function writeBlocks(w: MarkdownWriter, parent: XmlElement): void {
  for (const el of childElements(parent)) {
    switch (el.name) {
      case "h": {
        const level = Math.max(1, Number(el.attrs["text:outline-level"] ?? 1) || 1);
        w.heading(level, odfInlineText(el));
        break;
      }
      case "p":
        w.block(escapeBlock(odfInlineText(el)));
        break;
      case "list": {
        const lines: string[] = [];
        listLines(el, 0, lines);
        w.block(lines.join("\n"));
        break;
      }
      case "table":
        w.block(pipeTable(tableRows(el)));
        break;
      case "section":
      case "index-body":
        writeBlocks(w, el);
        break;
      default:
        break;
    }
  }
}

/**
 * OpenDocument text (`.odt`, or a zip whose `mimetype` is `application/vnd.oasis.opendocument.text`) →
 * markdown: `text:h` headings at their outline level, paragraphs, nested `-` lists, tables as pipe tables,
 * sections flattened; footnotes, comments and tables of contents left out. No source map (ODF paragraphs
 * have no ids). Guards: zip bomb, entry count, XML entities and depth (see {@link OfficeArchive}).
 */
export class OdtConverter implements Converter {
  readonly id = "odt";

  constructor(private readonly limits: ArchiveLimits = {}) {}

  canConvert(input: ConvertInput): boolean {
    return extensionOf(input.path) === "odt" || zipMimetype(input.bytes) === ODT_MIME;
  }

  /**
   * @throws HierdocError E_PARSE when the file is not a zip or has no content.xml, or a part is not
   *   well-formed; E_INPUT_TOO_LARGE for a zip bomb; E_INPUT_EMPTY without text.
   */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const { path } = input;
    const zip = OfficeArchive.open(path, input.bytes, "ODT", this.limits);
    const content = zip.xml("content.xml", true);
    const body = firstChild(firstChild(content, "body") ?? content, "text");
    if (!body) throw fileError("E_PARSE", path, "not an ODT text document: content.xml has no office:text body");
    const w = new MarkdownWriter();
    writeBlocks(w, body);
    const text = w.toString();
    if (text.trim() === "") throw fileError("E_INPUT_EMPTY", path, "the ODT document has no text");
    const meta = zip.xml("meta.xml");
    const title = (meta && textOf(firstChild(firstChild(meta, "meta") ?? meta, "title"))) || firstHeading(text);
    return { sourcePath: path, fileType: "odt", format: "markdown", text, ...(title ? { title } : {}) };
  }
}

function firstHeading(text: string): string | undefined {
  return /^#{1,6} (.+)$/m.exec(text)?.[1];
}
