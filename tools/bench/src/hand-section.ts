// Dated re-measurements made by hand (not by a bench script) live in one marked section of docs/benchmarks.md,
// after the scale section: every generated rewrite (the full report, scale-bench --render-only) keeps it.
import { SCALE_SECTION_END } from "./scale-report.js";

export const HAND_SECTION_BEGIN = "<!-- hand-measurements:begin (dated re-measurements by hand; kept by every bench rewrite) -->";
export const HAND_SECTION_END = "<!-- hand-measurements:end -->";

/** The marked hand section of `doc`, markers included, or undefined. */
export function extractHandSection(doc: string): string | undefined {
  const begin = doc.indexOf(HAND_SECTION_BEGIN);
  const end = doc.indexOf(HAND_SECTION_END);
  return begin >= 0 && end > begin ? doc.slice(begin, end + HAND_SECTION_END.length) + "\n" : undefined;
}

/**
 * `doc` with `section` in place of its hand section; without one, right after the scale section, else before
 * "## Notes and limits", else at the end.
 */
export function spliceHandSection(doc: string, section: string): string {
  const begin = doc.indexOf(HAND_SECTION_BEGIN);
  const end = doc.indexOf(HAND_SECTION_END);
  if (begin >= 0 && end > begin) return doc.slice(0, begin) + section + doc.slice(end + HAND_SECTION_END.length).replace(/^\n/, "");
  const scaleEnd = doc.indexOf(SCALE_SECTION_END);
  if (scaleEnd >= 0) {
    const at = scaleEnd + SCALE_SECTION_END.length;
    return `${doc.slice(0, at)}\n\n${section}${doc.slice(at).replace(/^\n+/, "\n")}`;
  }
  const notes = doc.indexOf("\n## Notes and limits");
  if (notes >= 0) return `${doc.slice(0, notes + 1)}${section}\n${doc.slice(notes + 1)}`;
  return `${doc.replace(/\n*$/, "\n\n")}${section}`;
}
