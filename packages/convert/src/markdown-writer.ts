import type { SourceMapEntry } from "@hierdoc/core";

/**
 * Builds converted markdown block by block (blank line between blocks) and records, for each block, where it
 * came from (anchor or page), so `[start, end)` offsets can be cited back to the original file.
 */
export class MarkdownWriter {
  private readonly parts: string[] = [];
  private length = 0;
  readonly sourceMap: SourceMapEntry[] = [];

  /** Appends one block (a heading line, a paragraph, a table); empty blocks are skipped. */
  block(text: string, origin: { anchor?: string; page?: number } = {}): void {
    const body = text.replace(/\n{3,}/g, "\n\n").replace(/^\n+|\n+$/g, "");
    if (body.trim() === "") return;
    if (this.length > 0) {
      this.parts.push("\n\n");
      this.length += 2;
    }
    const start = this.length;
    this.parts.push(body);
    this.length += body.length;
    if (origin.anchor !== undefined || origin.page !== undefined) {
      const last = this.sourceMap[this.sourceMap.length - 1];
      if (last && last.anchor === origin.anchor && last.page === origin.page && last.end + 2 === start) {
        last.end = this.length;
      } else {
        this.sourceMap.push({ start, end: this.length, ...origin });
      }
    }
  }

  /** Appends an ATX heading of `level` (clamped to 1…6). */
  heading(level: number, text: string, origin: { anchor?: string; page?: number } = {}): void {
    const clean = text.replace(/\s+/g, " ").trim();
    if (clean === "") return;
    this.block(`${"#".repeat(Math.min(6, Math.max(1, level)))} ${escapeHeading(clean)}`, origin);
  }

  /** The converted text, ending with one newline. */
  toString(): string {
    return this.length === 0 ? "" : this.parts.join("") + "\n";
  }
}

function escapeHeading(text: string): string {
  return text.replace(/#+$/, (m) => m.replace(/#/g, "\\#"));
}

/**
 * Escapes the few line starts that would change a document's structure when markdown reads a paragraph:
 * an ATX heading (`# `), a code fence, or a setext underline (`===` / `---`) that would turn the line above
 * into a heading. Everything else (list markers, `(a)` labels, quotes) stays as written.
 */
export function escapeBlock(text: string): string {
  return text
    .split("\n")
    .map((line) => (/^ {0,3}(#{1,6}(\s|$)|`{3,}|~{3,}|=+\s*$|-+\s*$)/.test(line) ? line.replace(/^( {0,3})/, "$1\\") : line))
    .join("\n");
}
