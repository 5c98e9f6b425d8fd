/** Column alignment of a markdown table. */
export type Align = "left" | "right";

/**
 * A GitHub-flavoured markdown table. Cells are escaped (`|` → `\|`, newlines → spaces); numbers are
 * right-aligned by default, text left-aligned, unless `align` says otherwise.
 * @throws RangeError when a row has a different number of cells than the header.
 */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>, align?: readonly Align[]): string {
  for (const [i, row] of rows.entries()) {
    if (row.length !== header.length) throw new RangeError(`row ${i} has ${row.length} cells, the header has ${header.length}`);
  }
  const esc = (c: string | number): string => String(c).replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
  const aligns: Align[] = header.map((_, j) => align?.[j] ?? (rows.length > 0 && rows.every((r) => typeof r[j] === "number" || /^[-+]?[\d.,]+( ?[a-zA-Z%/×]+)?$/.test(String(r[j]))) ? "right" : "left"));
  const line = (cells: ReadonlyArray<string | number>): string => `| ${cells.map(esc).join(" | ")} |`;
  const rule = `|${aligns.map((a) => (a === "right" ? "---:" : ":---")).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n") + "\n";
}

/** A number with `digits` decimals, or "n/a" when not finite. */
export function fmt(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "n/a" : value.toFixed(digits);
}

/** "met" / "not met" next to a target, with the measured value and the target in words. */
export function verdict(met: boolean | null, measured: string, target: string): string {
  const word = met === null ? "not measured" : met ? "**met**" : "**not met**";
  return `${word} (${measured}; target ${target})`;
}
