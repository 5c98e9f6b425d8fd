// A section of docs/benchmarks.md between two marker comments, written by one bench and kept by the others.

/** Begin and end marker comments of a section. */
export interface SectionMarkers {
  begin: string;
  end: string;
}

/** The marked section of `doc`, markers included (plus a newline), or undefined. */
export function extractMarkedSection(doc: string, m: SectionMarkers): string | undefined {
  const begin = doc.indexOf(m.begin);
  const end = doc.indexOf(m.end);
  return begin >= 0 && end > begin ? doc.slice(begin, end + m.end.length) + "\n" : undefined;
}

/** `doc` with its marked section replaced by `section`, or undefined when `doc` has none. */
export function replaceMarkedSection(doc: string, m: SectionMarkers, section: string): string | undefined {
  const begin = doc.indexOf(m.begin);
  const end = doc.indexOf(m.end);
  return begin >= 0 && end > begin ? doc.slice(0, begin) + section + doc.slice(end + m.end.length).replace(/^\n/, "") : undefined;
}

/** `doc` with `section` inserted before "## Notes and limits", else appended. */
export function insertBeforeNotes(doc: string, section: string): string {
  const notes = doc.indexOf("\n## Notes and limits");
  if (notes >= 0) return `${doc.slice(0, notes + 1)}${section}\n${doc.slice(notes + 1)}`;
  return `${doc.replace(/\n*$/, "\n\n")}${section}`;
}

/** Puts `section` into `doc`: replaces the marked section, else inserts it before "## Notes and limits" (or at the end). */
export function spliceMarkedSection(doc: string, m: SectionMarkers, section: string): string {
  return replaceMarkedSection(doc, m, section) ?? insertBeforeNotes(doc, section);
}
