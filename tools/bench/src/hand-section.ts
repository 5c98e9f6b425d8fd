// Dated re-measurements made by hand (not by a bench script) live in one marked section of docs/benchmarks.md,
// after the scale section: every generated rewrite (the full report, scale-bench --render-only) keeps it.
import { SCALE_SECTION_END } from "./scale-report.js";
import { extractMarkedSection, insertBeforeNotes, replaceMarkedSection } from "./marked-section.js";

export const HAND_SECTION_BEGIN = "<!-- hand-measurements:begin (dated re-measurements by hand; kept by every bench rewrite) -->";
export const HAND_SECTION_END = "<!-- hand-measurements:end -->";

const MARKERS = { begin: HAND_SECTION_BEGIN, end: HAND_SECTION_END };

/** The marked hand section of `doc`, markers included, or undefined. */
export function extractHandSection(doc: string): string | undefined {
  return extractMarkedSection(doc, MARKERS);
}

/**
 * `doc` with `section` in place of its hand section; without one, right after the scale section, else before
 * "## Notes and limits", else at the end.
 */
export function spliceHandSection(doc: string, section: string): string {
  const replaced = replaceMarkedSection(doc, MARKERS, section);
  if (replaced !== undefined) return replaced;
  const scaleEnd = doc.indexOf(SCALE_SECTION_END);
  if (scaleEnd < 0) return insertBeforeNotes(doc, section);
  const at = scaleEnd + SCALE_SECTION_END.length;
  return `${doc.slice(0, at)}\n\n${section}${doc.slice(at).replace(/^\n+/, "\n")}`;
}
