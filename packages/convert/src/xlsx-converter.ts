import type { ConvertInput, ConvertedDocument, Converter } from "@hierdoc/core";
import { fileError, parseError } from "./errors.js";
import { MarkdownWriter } from "./markdown-writer.js";
import { OfficeArchive, zipHasEntry, type ArchiveLimits } from "./office-zip.js";
import { extensionOf } from "./sniff.js";
import { writeRows, type RowLimits } from "./table-text.js";
import { firstChild, textOf } from "./xml-tree.js";

/** Options of {@link XlsxConverter}. */
export interface XlsxOptions extends ArchiveLimits, RowLimits {
  /** Largest uncompressed worksheet part in bytes (default 64 MiB); larger sheets fail with E_INPUT_TOO_LARGE. */
  maxSheetBytes?: number;
}

/**
 * Excel workbooks (`.xlsx`, or a zip holding `xl/workbook.xml`) → markdown: one `#` section per sheet in
 * workbook order, the first non-empty row as the header, every later row one paragraph
 * "Header: value; Header: value" (formulas as their cached values, dates as ISO dates). Read with
 * read-excel-file (loaded on first use) after the zip-bomb guard; parts with a DOCTYPE are refused (OOXML never has one, and it is
 * how entity-expansion attacks start). Source map: `anchor` = `Sheet!row N`. Rows beyond `maxRows` per
 * sheet are counted in a closing note instead of written.
 */
export class XlsxConverter implements Converter {
  readonly id = "xlsx";

  constructor(private readonly options: XlsxOptions = {}) {}

  canConvert(input: ConvertInput): boolean {
    return extensionOf(input.path) === "xlsx" || zipHasEntry(input.bytes, "xl/workbook.xml");
  }

  /**
   * @throws HierdocError E_PARSE for a file that is not a workbook or a part with a DOCTYPE, E_INPUT_TOO_LARGE
   *   for a zip bomb or an oversized sheet, E_INPUT_EMPTY when no sheet has a value.
   */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const { path, bytes } = input;
    const zip = OfficeArchive.open(path, bytes, "XLSX", this.options);
    if (!zip.has("xl/workbook.xml")) throw fileError("E_PARSE", path, "not an XLSX file: the archive has no xl/workbook.xml");
    const maxSheet = this.options.maxSheetBytes ?? 64 * 1024 * 1024;
    for (const e of zip.entries) {
      if (!/\.(xml|rels)$/i.test(e.name)) continue;
      if (/^xl\/worksheets\//i.test(e.name) && e.uncompressedSize > maxSheet) {
        throw fileError("E_INPUT_TOO_LARGE", path, `${e.name} is ${e.uncompressedSize} bytes; the limit is ${maxSheet} (maxSheetBytes)`);
      }
      const head = new TextDecoder().decode(zip.bytesOf(e.name)?.subarray(0, 4096));
      if (/<!DOCTYPE|<!ENTITY/i.test(head)) {
        throw fileError("E_PARSE", path, `${e.name} declares a DOCTYPE; refused (entity expansion)`, { details: { entry: e.name } });
      }
    }
    let sheets: Array<{ sheet: string; data: unknown[][] }>;
    try {
      const { default: readXlsxFile } = await import("read-excel-file/node");
      sheets = (await readXlsxFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) as typeof sheets;
    } catch (err) {
      throw parseError(path, "XLSX", err);
    }
    const w = new MarkdownWriter();
    let values = 0;
    for (const { sheet, data } of sheets) {
      const before = w.sourceMap.length;
      w.heading(1, sheet, { anchor: sheet });
      const { written } = writeRows(w, data, (r) => `${sheet}!row ${r + 1}`, this.options);
      values += written + (w.sourceMap.length > before + 1 ? 1 : 0);
    }
    if (values === 0) throw fileError("E_INPUT_EMPTY", path, "the workbook has no values");
    const core = zip.xml("docProps/core.xml");
    const title = (core && textOf(firstChild(core, "title"))) || sheets[0]?.sheet;
    return { sourcePath: path, fileType: "xlsx", format: "markdown", text: w.toString(), ...(title ? { title } : {}), sourceMap: w.sourceMap };
  }
}
