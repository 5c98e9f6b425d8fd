import type { Lines } from "./lines.js";
import { PARAGRAPH_MARKER } from "./lines.js";
import { unitTitle } from "./lines.js";
import { sectionIdFromHeading } from "./section-id.js";
import type { HeadingCandidate, Marker, Structure } from "./structure.js";

const TAB_ID = /^([A-Za-z0-9§][^\t]{0,110}?)[ \u00a0]*\t/;
const SPACE_ID = /^((?:(?:Part|PART|Schedule|SCHEDULE|APP) ?\d+[A-Z]?\.|(?=\d))(?:\w+\.)*(?:\(\w{1,4}\)\.?)*\w*\.?)[ \u00a0]+(?=[^a-z\s])/;
const ALONE_ID = /^((?:[A-Z]{1,8} ?\d+\.)?[A-Z]?\d+[A-Z]?(?:\.\d+[A-Z]?)*\.(?:\(\w{1,4}\)\.)?Guidance[^\t]{0,60}?)\s*$/;
const DIVISION_LINE = /^(PART|Part|SCHEDULE|Schedule|CHAPTER|Chapter|APPENDIX|Appendix) (\d+[A-Z]?)\.([A-Z][A-Za-z_ ,&'\-]+)\s*$/;
/** "Term<TAB>definition" rows of a glossary: a short capitalised term without digits. */
const GLOSSARY_ROW = /^([A-Z“"‘][^\t\n]{0,79}?)[ \u00a0]*\t+(?=\S)/;
const QUALIFIER = /^(APP ?\d+|PART \d+|Part \d+|Schedule(?: \d+)?|SCHEDULE(?: \d+)?|Appendix \w+|APPENDIX \w+|SECTION [IVXLC]+|ANNEX)$/;
const HEADING_WORD =
  /^(TITLE|Title|PART|Part|BOOK|Book|CHAPTER|Chapter|SUBCHAPTER|Subchapter|SCHEDULE|Schedule|ARTICLE|Article|SECTION|Section|APPENDIX|Appendix|ANNEX|Annex)\s+(\d+[A-Z]?|[IVXLC]+|[A-Z])\b(?!\.\d)(?![^\n]{150})/;
const WORD_RANK: Record<string, number> = { title: 1, book: 2, part: 2, schedule: 2, appendix: 2, annex: 2, chapter: 3, subchapter: 4, article: 6, section: 6 };
const NUMBERED_HEADING = /^(\d+(?:\.\d+)*)\.?[ \t]+([A-Z][^\n]{0,90})$/;

function keyOf(id: string): string {
  return id.replace(/\s+\./g, ".").replace(/\.$/, "");
}

function isPrefix(parent: string, child: string): boolean {
  if (child.length <= parent.length || !child.startsWith(parent)) return false;
  const c = child[parent.length];
  return c === "." || c === "(" || parent.endsWith(".");
}

function idLike(id: string): boolean {
  if (!/\d/.test(id) && !/^(ANNEX|Schedule|SCHEDULE)$/.test(id)) return false;
  if (/[,;:]$/.test(id) || id.split(/\s+/).length > 10) return false;
  if (/^\d{1,2} [A-Z][a-z]+ \d{4}$/.test(id)) return false;
  return !/^\(\w{1,4}\)$/.test(id);
}

/** Counts ObliQA-style unit lines ("2.1.1.(1)<TAB>…") in the first lines of `text`. */
export function countUnitLines(text: string, lines: Lines, limit = 2000): number {
  let n = 0;
  const max = Math.min(lines.starts.length, limit);
  for (let i = 0; i < max; i++) {
    const line = text.slice(lines.starts[i], Math.min(lines.ends[i], lines.starts[i] + 130));
    const m = TAB_ID.exec(line);
    if (m && idLike(m[1].trim()) && /^[\w§]/.test(m[1])) n++;
  }
  return n;
}

/**
 * Plain-text structure: ObliQA-style unit lines (id then TAB or space, nested by id prefix, with
 * Part / Schedule / Appendix qualifiers as ancestors), or — for other text — "Part 3", "Chapter 2",
 * "Schedule 1", "§ N", numbered and all-caps heading lines. Lines "(a) …" become paragraph markers.
 */
export function plainTextStructure(text: string, lines: Lines, unitMode: boolean): Structure {
  const { starts, ends } = lines;
  const headings: HeadingCandidate[] = [];
  const markers: Marker[] = [];
  const atomic: Array<[number, number]> = [];
  const keys: string[] = [];
  const stack: number[] = [];
  let tableStart = -1;
  let prevHeadingLine = -2;
  for (let i = 0; i < starts.length; i++) {
    const s = starts[i];
    const head = text.slice(s, Math.min(ends[i], s + 200));
    if (tableStart < 0 && head.trimStart().startsWith("/Table Start") && text.indexOf("/Table End", s) > 0) {
      tableStart = s;
      continue;
    }
    if (tableStart >= 0) {
      if (head.includes("/Table End")) {
        atomic.push([tableStart, ends[i]]);
        tableStart = -1;
      }
      continue;
    }
    if (head.charCodeAt(0) === 40) {
      const pm = PARAGRAPH_MARKER.exec(head);
      if (pm) {
        markers.push({ start: s, label: pm[1], lineEnd: ends[i] });
        continue;
      }
    }
    if (unitMode) {
      let id: string | undefined;
      let title = "";
      const tm = TAB_ID.exec(head);
      const dm = tm ? null : DIVISION_LINE.exec(head);
      if (tm && idLike(tm[1].trim())) {
        id = tm[1].trim();
        title = unitTitle(text.slice(s, Math.min(ends[i], s + 400)));
      } else if (dm) {
        id = `${dm[1]} ${dm[2]}`;
        title = unitTitle(head);
      } else {
        const am = ALONE_ID.exec(head) ?? SPACE_ID.exec(head);
        if (am && /[.(]/.test(am[1])) {
          id = am[1].trim();
          title = unitTitle(text.slice(s, Math.min(ends[i], s + 400)));
        }
      }
      if (id === undefined) {
        const gm = GLOSSARY_ROW.exec(head);
        if (gm && !/\d/.test(gm[1]) && !/[.,;:]$/.test(gm[1].trim()) && gm[1].split(/\s+/).length <= 8) {
          const parent = stack.length > 0 ? stack[stack.length - 1] : -1;
          headings.push({ start: s, headEnd: ends[i], title: unitTitle(text.slice(s, Math.min(ends[i], s + 400))), rank: 0, parent, id: gm[1].trim(), aliases: [] });
          keys.push("\u0000");
        }
        continue;
      }
      const key = keyOf(id);
      const qualifier = QUALIFIER.test(key);
      while (stack.length > 0) {
        const top = keys[stack[stack.length - 1]];
        if (isPrefix(top, key)) break;
        if (QUALIFIER.test(top) && !qualifier && !key.startsWith(top.split(/[ .]/)[0])) break;
        stack.pop();
      }
      const parent = stack.length > 0 ? stack[stack.length - 1] : -1;
      const compact = id.replace(/\.(?=\()/g, "").replace(/\.$/, "");
      const qualifiers = stack.map((k) => keys[k]).filter((k) => QUALIFIER.test(k) && !key.startsWith(k));
      const aliases = [compact, key, ...qualifiers.map((q) => `${q}.${id}`)].filter((a, j, all) => a !== id && all.indexOf(a) === j);
      headings.push({ start: s, headEnd: ends[i], title, rank: 0, parent, id, aliases });
      keys.push(key);
      stack.push(headings.length - 1);
      continue;
    }
    const line = head.trimEnd();
    if (line.length === 0 || line.length > 150) continue;
    let rank = 0;
    const wm = HEADING_WORD.exec(line);
    if (wm) rank = WORD_RANK[wm[1].toLowerCase()] ?? 5;
    else if (/^§{1,2}\s*\d/.test(line)) rank = 6;
    else {
      const nm = NUMBERED_HEADING.exec(line);
      if (nm && !/[.;:,]$/.test(nm[2]) && ends[i] - s < 100) rank = 6 + nm[1].split(".").length;
      else if (/^[A-Z][A-Z0-9 ,;:'&()\-–—]{3,80}$/.test(line) && /[A-Z]{3}/.test(line) && prevHeadingLine !== i - 1) rank = 2.5;
    }
    if (rank === 0) continue;
    if (sectionIdFromHeading(line) === null && rank !== 2.5) continue;
    headings.push({ start: s, headEnd: ends[i], title: unitTitle(line), rank });
    prevHeadingLine = i;
  }
  return { headings, markers, removed: [], atomic };
}
