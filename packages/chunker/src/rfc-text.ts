import type { Lines } from "./lines.js";
import type { HeadingCandidate, Structure } from "./structure.js";

const HEADER = /^RFC \d{3,5} {2,}.*\S {2,}\S.*\d{4}\s*$/;
const FOOTER = /^\S.*\S {2,}\[Page \d+\]\s*$/;
const NUMBERED = /^((?:\d+\.)+\d*|[A-Z]\.(?:\d+\.?)*|Appendix [A-Z]\.?)\s+(\S.*)$/;

/** True when `text` looks like a published RFC (page headers "RFC 8446  TLS  August 2018" or "[Page N]" footers). */
export function looksLikeRfcText(text: string, lines: Lines): boolean {
  let hits = 0;
  const n = Math.min(lines.starts.length, 400);
  for (let i = 0; i < n && hits < 2; i++) {
    const line = text.slice(lines.starts[i], lines.ends[i]);
    if (HEADER.test(line) || FOOTER.test(line)) hits++;
  }
  if (hits >= 2) return true;
  const head = text.slice(0, 3000);
  return /^Request for Comments: \d{3,5}\b/m.test(head) && /^Abstract\s*$/m.test(head);
}

/**
 * Finds RFC sections ("4.4.2.1.  Title" and unnumbered column-0 headings after the Abstract), and
 * marks page headers, footers, form feeds and the table of contents as removed from chunk text.
 */
export function rfcStructure(text: string, lines: Lines): Structure {
  const { starts, ends } = lines;
  const removed: Array<[number, number]> = [];
  const headings: HeadingCandidate[] = [];
  const lineEndWithBreak = (i: number): number => (i + 1 < starts.length ? starts[i + 1] : ends[i]);
  let inToc = false;
  let tocStart = 0;
  let seenAbstract = false;
  for (let i = 0; i < starts.length; i++) {
    let s = starts[i];
    const rawLine = text.slice(s, ends[i]);
    const line = rawLine.replace(/^\f+/, "");
    if (line.length !== rawLine.length) {
      removed.push([s, s + rawLine.length - line.length]);
      s += rawLine.length - line.length;
    }
    if (line.trim().length === 0) continue;
    if (HEADER.test(line) || FOOTER.test(line)) {
      removed.push([s, lineEndWithBreak(i)]);
      continue;
    }
    const col0 = !/^\s/.test(line);
    if (!col0) continue;
    if (inToc) {
      inToc = false;
      removed.push([tocStart, starts[i]]);
    }
    if (/^Table of Contents\s*$/i.test(line)) {
      inToc = true;
      tocStart = starts[i];
      continue;
    }
    const title = line.replace(/\s+/g, " ").trim();
    const m = NUMBERED.exec(line);
    if (m) {
      const num = m[1].replace(/\.$/, "");
      const depth = num.startsWith("Appendix") ? 1 : num.split(".").length;
      headings.push({ start: s, headEnd: ends[i], title, rank: depth });
      seenAbstract = true;
      continue;
    }
    if (/^Abstract\s*$/.test(line)) seenAbstract = true;
    if (seenAbstract && line.length < 72 && !/\S {3,}\S/.test(line) && !/[.,;]\s*$/.test(line)) {
      headings.push({ start: s, headEnd: ends[i], title, rank: 1 });
    }
  }
  if (inToc) removed.push([tocStart, text.length]);
  return { headings, markers: [], removed, atomic: [] };
}
