import { extensionWithDot, type SkipReason, type SkippedFile } from "./source-files.js";

/** Counts of the files a folder or glob ingest left out, for a summary line or JSON. */
export interface SkippedSummary {
  total: number;
  byReason: Partial<Record<SkipReason, number>>;
  /** Extension (with the dot; "(none)" for a file without one) → count, most frequent first. */
  byExtension: Record<string, number>;
  /** The first few skipped files, in path order. */
  examples: SkippedFile[];
  /** How many of the files skipped for their extension look like text (an `include` glob would take them). */
  unsupportedText: number;
  /** The most frequent extension among text files skipped for their extension (for an `--include` hint), if any. */
  topUnsupportedExtension?: string;
}

/** Summarizes skipped files: counts by reason and by extension, and the first `examples` of them. */
export function summarizeSkipped(skipped: readonly SkippedFile[], examples = 5): SkippedSummary {
  const byReason: Partial<Record<SkipReason, number>> = {};
  const byExt = new Map<string, number>();
  const unsupported = new Map<string, number>();
  let unsupportedText = 0;
  for (const s of skipped) {
    byReason[s.reason] = (byReason[s.reason] ?? 0) + 1;
    const ext = extensionWithDot(s.path) || "(none)";
    byExt.set(ext, (byExt.get(ext) ?? 0) + 1);
    if (s.reason === "unsupported-extension" && s.text) {
      unsupportedText++;
      if (ext !== "(none)") unsupported.set(ext, (unsupported.get(ext) ?? 0) + 1);
    }
  }
  const byCount = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);
  const byExtension = Object.fromEntries([...byExt].sort(byCount));
  const top = [...unsupported].sort(byCount)[0]?.[0];
  return { total: skipped.length, byReason, byExtension, examples: skipped.slice(0, examples), unsupportedText, ...(top ? { topUnsupportedExtension: top } : {}) };
}

const REASON_TEXT: Record<SkipReason, string> = {
  "unsupported-extension": "no converter for the extension",
  excluded: "excluded",
  "not-text": "not text",
  empty: "empty",
};

/**
 * Human lines about skipped files: `skipped 90 files (…): .py 40, .rs 30, …; e.g. a.py, b.py` and, when
 * text files were skipped for their extension, a hint naming `--include` / `include:` with the most frequent
 * of their extensions. Empty when nothing was skipped.
 */
export function describeSkipped(summary: SkippedSummary, maxExtensions = 8): string[] {
  if (summary.total === 0) return [];
  const reasons = Object.entries(summary.byReason)
    .map(([r, n]) => `${n} ${REASON_TEXT[r as SkipReason]}${r === "unsupported-extension" && summary.unsupportedText > 0 ? ` (${summary.unsupportedText} of them text)` : ""}`)
    .join(", ");
  const exts = Object.entries(summary.byExtension);
  const extText = exts.slice(0, maxExtensions).map(([e, n]) => `${e} ${n}`).join(", ") + (exts.length > maxExtensions ? ", …" : "");
  const lines = [
    `skipped ${summary.total} file${summary.total === 1 ? "" : "s"} (${reasons}): ${extText}; e.g. ${summary.examples.map((e) => e.path).join(", ")}`,
  ];
  if (summary.unsupportedText > 0) {
    const top = summary.topUnsupportedExtension;
    const glob = top ? `'*${top}'` : "GLOB";
    lines.push(`hint: text files of other extensions ingest when included: --include ${glob} (or \`include: [${glob.replace(/'/g, '"')}]\` in the config)`);
  }
  return lines;
}
