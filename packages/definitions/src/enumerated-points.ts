import type { Paragraph } from "./document-map.js";

/** Most points and characters a colon-ended definition takes from the paragraphs after it. */
export const MAX_POINTS = 26;
export const MAX_DEFINITION_CHARS = 4000;

/** A point label at the start of a paragraph: "(a)", "a)", "(iv)", "(2)", "2." (the label alone or followed by text). */
const LABEL = /^\s*(?:\(([a-z]{1,4}|\d{1,3})\)|([a-z]|\d{1,3})[).])(?=\s|$)/;
const ROMAN = /^(?:i{1,3}|iv|vi{0,3}|ix|x{1,2}i{0,3}|xi?v|xvi{0,3})$/;

type Style = "letter" | "roman" | "digit";

function labelOf(text: string): { label: string; style: Style; alone: boolean } | null {
  const m = LABEL.exec(text);
  if (!m) return null;
  const label = m[1] ?? m[2];
  const style: Style = /^\d/.test(label) ? "digit" : label.length === 1 && label !== "i" ? "letter" : ROMAN.test(label) ? "roman" : "letter";
  return { label, style, alone: !text.slice(m[0].length).trim() };
}

function follows(prev: string, next: string, style: Style): boolean {
  if (style === "digit") return Number(next) === Number(prev) + 1;
  if (style === "letter") return next.length === 1 && prev.length === 1 && next.charCodeAt(0) === prev.charCodeAt(0) + 1;
  return ROMAN.test(next);
}

/**
 * Where a definition that ends with ':' ("‘main establishment’ means:") really ends: after the run of
 * enumerated points that follows it ("(a) …", "(b) …"; a label alone on its line takes the next paragraph
 * as its text, as plain-text conversions have it). The first point must be (a), (i) or (1); later points
 * must continue that sequence, with roman sub-points (i), (ii) allowed under lettered points. Stops at the
 * first paragraph that is not the next point, at a heading, after {@link MAX_POINTS} points, or before the
 * text would pass {@link MAX_DEFINITION_CHARS} from `start`. Returns the end offset, or `null` when no
 * point follows.
 */
export function enumeratedPointsEnd(paras: Paragraph[], after: number, start: number, isHeading: (p: Paragraph) => boolean): number | null {
  let end: number | null = null;
  let style: Style | null = null;
  let prev = "";
  let points = 0;
  for (let i = after + 1; i < paras.length && points < MAX_POINTS; i++) {
    const p = paras[i];
    if (isHeading(p)) break;
    const l = labelOf(p.text);
    if (!l) break;
    if (style === null) {
      if (!["a", "i", "1"].includes(l.label)) break;
      style = l.label === "1" ? "digit" : l.label === "a" ? "letter" : "roman";
    } else {
      const nested = style === "letter" && l.style === "roman" && l.label !== prev;
      const next = follows(prev, l.label, style) || (style === "roman" && l.style === "roman");
      if (!next && !nested) break;
      if (nested) {
        let pointEnd = p.end;
        if (l.alone && paras[i + 1] && !labelOf(paras[i + 1].text)) pointEnd = paras[++i].end;
        if (pointEnd - start > MAX_DEFINITION_CHARS) break;
        end = pointEnd;
        continue;
      }
    }
    let pointEnd = p.end;
    let skip = 0;
    if (l.alone) {
      const body = paras[i + 1];
      if (!body || labelOf(body.text) || isHeading(body)) break;
      pointEnd = body.end;
      skip = 1;
    }
    if (pointEnd - start > MAX_DEFINITION_CHARS) break;
    end = pointEnd;
    prev = l.label;
    points++;
    i += skip;
  }
  return end;
}
