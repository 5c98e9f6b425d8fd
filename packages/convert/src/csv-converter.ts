import type { ConvertInput, ConvertedDocument, Converter } from "@hierdoc/core";
import { parse } from "csv-parse/sync";
import { decodeText, normalizeNewlines } from "./decode-text.js";
import { fileError } from "./errors.js";
import { MarkdownWriter } from "./markdown-writer.js";
import { extensionOf } from "./sniff.js";
import { writeRows, type RowLimits } from "./table-text.js";

const CANDIDATES = [",", ";", "\t", "|"];

/**
 * Guesses the field delimiter from the first lines: the candidate (`,` `;` tab `|`) that occurs, outside
 * double quotes, in the most lines with the same count as the first line. Comma when nothing fits.
 */
export function sniffDelimiter(text: string): string {
  const lines = text.slice(0, 64 * 1024).split("\n", 21).slice(0, 20).filter((l) => l.trim() !== "");
  let best = ",";
  let bestScore = 0;
  for (const d of CANDIDATES) {
    const counts = lines.map((line) => {
      let n = 0;
      let quoted = false;
      for (const ch of line) {
        if (ch === '"') quoted = !quoted;
        else if (ch === d && !quoted) n++;
      }
      return n;
    });
    if (counts[0] === undefined || counts[0] === 0) continue;
    const score = counts.filter((c) => c === counts[0]).length * 1000 + counts[0];
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/**
 * CSV and TSV files (`.csv`, `.tsv`) → markdown: one `#` section named after the file, the first row as
 * the header and every later row as one paragraph "Header: value; Header: value". Parsed with csv-parse
 * (RFC 4180 quoting, ragged rows accepted); the delimiter of `.csv` is sniffed (`,` `;` tab `|`). Source
 * map: `anchor` = `row N` (1-based record number, the header is row 1). Rows beyond `maxRows` are counted
 * in a closing note instead of written.
 */
export class CsvConverter implements Converter {
  readonly id = "csv";

  constructor(private readonly limits: RowLimits = {}) {}

  canConvert(input: ConvertInput): boolean {
    const ext = extensionOf(input.path);
    return ext === "csv" || ext === "tsv";
  }

  /**
   * @throws HierdocError E_INPUT_* for bad text (see `decodeText`), E_PARSE naming the line of a broken
   *   quote, E_INPUT_EMPTY without any value.
   */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const { path } = input;
    const source = normalizeNewlines(decodeText(path, input.bytes));
    const delimiter = extensionOf(path) === "tsv" ? "\t" : sniffDelimiter(source);
    let rows: string[][];
    try {
      rows = parse(source, { delimiter, relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
    } catch (cause) {
      const line = (cause as { lines?: number }).lines;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw fileError("E_PARSE", path, `not valid CSV${line ? ` at line ${line}` : ""}: ${reason}`, {
        cause,
        details: line ? { line } : {},
      });
    }
    const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
    const w = new MarkdownWriter();
    w.heading(1, name);
    const { written } = writeRows(w, rows, (r) => `row ${r + 1}`, this.limits);
    const text = w.toString();
    if (written === 0 && rows.every((r) => r.every((c) => c.trim() === ""))) {
      throw fileError("E_INPUT_EMPTY", path, "the CSV file has no values");
    }
    return { sourcePath: path, fileType: "csv", format: "markdown", text, title: name, sourceMap: w.sourceMap };
  }
}
