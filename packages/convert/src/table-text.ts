import { escapeBlock, MarkdownWriter } from "./markdown-writer.js";

/** Writes one table cell as a single line of pipe-table text (pipes escaped, whitespace collapsed). */
function cell(text: string): string {
  return text.replace(/\s+/g, " ").trim().replace(/\|/g, "\\|");
}

/** A markdown pipe table; the first row is the header. Returns "" for a table without text. */
export function pipeTable(rows: string[][]): string {
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0 || rows.every((r) => r.every((c) => c.trim() === ""))) return "";
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => cell(r[i] ?? "")).join(" | ")} |`;
  return [line(rows[0]), `|${" --- |".repeat(width)}`, ...rows.slice(1).map(line)].join("\n");
}

/** Options of {@link writeRows}. */
export interface RowLimits {
  /** Most data rows written per sheet (default 10,000); the rest are counted in a closing note. */
  maxRows?: number;
  /** Longest cell text kept, in characters (default 2,000); longer cells end with "…". */
  maxCellChars?: number;
}

/** Default {@link RowLimits.maxRows}. */
export const DEFAULT_MAX_ROWS = 10_000;

/** Text of one spreadsheet value: strings as is, numbers without float noise, dates as ISO dates. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.replace(".000Z", "Z");
  }
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
  return String(value);
}

/**
 * Writes the rows of one table as readable lines under the current heading: the first non-empty row is
 * the header, every later row becomes one paragraph "Header: value; Header: value" (empty cells left out;
 * a column without a header is named by its letter). Rows beyond `maxRows` are not written; a final note
 * says how many were left out, so a reader knows the section is incomplete.
 *
 * `anchor(rowIndex)` names each row's origin in the source map (e.g. `Sheet1!12`, `row 12`).
 *
 * @returns how many data rows were written and how many were left out.
 */
export function writeRows(
  w: MarkdownWriter,
  rows: unknown[][],
  anchor: (rowIndex: number) => string,
  limits: RowLimits = {},
): { written: number; omitted: number } {
  const maxRows = limits.maxRows ?? DEFAULT_MAX_ROWS;
  const maxCell = limits.maxCellChars ?? 2000;
  const text = (v: unknown) => {
    const t = cellText(v).replace(/\s+/g, " ").trim();
    return t.length > maxCell ? `${t.slice(0, maxCell)}…` : t;
  };
  const headerIndex = rows.findIndex((r) => r.some((v) => text(v) !== ""));
  if (headerIndex === -1) return { written: 0, omitted: 0 };
  const header = rows[headerIndex].map(text);
  const name = (i: number) => header[i] || `Column ${columnLetter(i)}`;
  let written = 0;
  let omitted = 0;
  let lastData = -1;
  for (let r = headerIndex + 1; r < rows.length; r++) {
    const parts: string[] = [];
    rows[r].forEach((v, i) => {
      const t = text(v);
      if (t !== "") parts.push(`${name(i)}: ${t}`);
    });
    if (parts.length === 0) continue;
    if (written >= maxRows) {
      omitted++;
      continue;
    }
    w.block(escapeBlock(parts.join("; ")), { anchor: anchor(r) });
    written++;
    lastData = r;
  }
  if (written === 0) w.block(escapeBlock(`Columns: ${header.filter((h) => h !== "").join("; ")}`), { anchor: anchor(headerIndex) });
  if (omitted > 0) {
    w.block(`(${omitted} more rows after row ${lastData + 1} not included: the limit is ${maxRows} rows per sheet)`);
  }
  return { written, omitted };
}

/** Spreadsheet column letter of a 0-based index (0 → A, 26 → AA). */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = "";
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}
