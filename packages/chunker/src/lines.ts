/** Line table of a text: start offsets and end offsets (before the line break) of every line. */
export interface Lines {
  starts: number[];
  ends: number[];
}

/** Splits `text` into lines the way CommonMark does (`\r\n`, `\r` or `\n`), in one linear pass. */
export function lineTable(text: string): Lines {
  const starts: number[] = [0];
  const ends: number[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      ends.push(i);
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  ends.push(n);
  return { starts, ends };
}

/** A paragraph marker line such as "(a) …" or "(1)\t…" at column 0. */
export const PARAGRAPH_MARKER = /^\(([a-z]{1,4}|[A-Z]{1,4}|[0-9]{1,3}[a-z]?)\)(?:[ \t\u00a0]|$)/;

/** A short display title for a unit line: the text up to a dash or sentence end, at most 120 chars. */
export function unitTitle(line: string): string {
  const clean = line.replace(/[\t\u00a0]+/g, " ").replace(/\s+/g, " ").trim();
  if (clean.length <= 120) return clean;
  const cut = clean.slice(0, 120);
  const sp = cut.lastIndexOf(" ");
  return (sp > 40 ? cut.slice(0, sp) : cut) + " …";
}
