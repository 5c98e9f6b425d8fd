import type { Lines } from "./lines.js";

/** A heading found by a markdown scanner, in line numbers (0-based, inclusive). */
export interface LineHeading {
  line: number;
  endLine: number;
  depth: number;
}

/** What a markdown scanner found, in line numbers. */
export interface LineBlocks {
  headings: LineHeading[];
  /** Inclusive line ranges of code blocks. */
  code: Array<[number, number]>;
  /** Inclusive line range of front matter. */
  frontMatter?: [number, number];
}

const FENCE = /^(`{3,}|~{3,})(.*)$/;
const ATX = /^(#{1,6})(?:[ \t]|$)/;
const SETEXT = /^(=+|-+)[ \t]*$/;
const THEMATIC = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const CONTAINER = /^(?:>|[-+*](?=[ \t]|$)|(\d{1,9})[.)](?=[ \t]|$))[ \t]*/;
const HTML_START = /^<(?:[A-Za-z][A-Za-z0-9-]*|\/[A-Za-z]|!|\?)/;
const SUSPICIOUS = /^(?:#|`{3}|~{3}|>|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|<|=+[ \t]*$|-+[ \t]*$)/;

/**
 * Linear CommonMark block scan for documents without nested block constructs: ATX and setext
 * headings, fenced and indented code, front matter, thematic breaks, simple lists and block quotes.
 * Returns `null` when it meets something only a full parser decides (HTML blocks, link reference
 * definitions, headings or fences inside containers, tab indentation); the caller then uses remark.
 */
export function scanMarkdownFast(text: string, lines: Lines): LineBlocks | null {
  const r = scanMarkdownFastFrom(text, lines, 0);
  return r.bail < 0 ? r.blocks : null;
}

/** Result of a fast scan from a line: the blocks found, where it gave up (-1: never) and the last clean split line. */
export interface FastScan {
  blocks: LineBlocks;
  /** Line at which the scan gave up, or -1 when it read to the end. */
  bail: number;
  /** Last column-0 ATX heading line seen: the block state before it is empty (top level, no open block). */
  lastClean: number;
}

/**
 * {@link scanMarkdownFast} from line `from` (a clean top-level point), reporting where it gave up so the
 * caller can hand only the difficult stretch to remark.
 */
export function scanMarkdownFastFrom(text: string, lines: Lines, from: number): FastScan {
  const { starts, ends } = lines;
  const n = starts.length;
  const headings: LineHeading[] = [];
  const code: Array<[number, number]> = [];
  let frontMatter: [number, number] | undefined;
  let first = from;
  let lastClean = -1;
  const line0 = text.slice(starts[0], ends[0]).replace(/^\uFEFF/, "");
  if (from === 0 && /^(---|\+\+\+)[ \t]*$/.test(line0)) {
    const fence = line0.trim();
    for (let i = 1; i < n; i++) {
      if (text.slice(starts[i], ends[i]).trimEnd() === fence) {
        frontMatter = [0, i];
        first = i + 1;
        break;
      }
    }
  }
  let fence: { char: string; len: number; start: number } | null = null;
  let para = false;
  let lazy = false;
  let paraStart = 0;
  let container = false;
  let codeStart = -1;
  const closeIndented = (i: number): void => {
    if (codeStart >= 0) code.push([codeStart, i - 1]);
    codeStart = -1;
  };
  for (let i = first; i < n; i++) {
    let raw = text.slice(starts[i], Math.min(ends[i], starts[i] + 400));
    if (i === 0) raw = raw.replace(/^\uFEFF/, "");
    if (fence) {
      const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(raw);
      if (m && m[1][0] === fence.char && m[1].length >= fence.len) {
        code.push([fence.start, i]);
        fence = null;
      }
      continue;
    }
    let indent = 0;
    while (indent < raw.length && raw.charCodeAt(indent) === 32) indent++;
    if (raw.charCodeAt(indent) === 9) return { blocks: { headings, code, frontMatter }, bail: i, lastClean };
    if (indent === raw.length || /^[ \t]*$/.test(raw)) {
      para = false;
      continue;
    }
    const t = raw.slice(indent);
    if (indent >= 4) {
      if (para) {
        continue;
      }
      if (container) return { blocks: { headings, code, frontMatter }, bail: i, lastClean };
      if (codeStart < 0) codeStart = i;
      continue;
    }
    let afterCode = false;
    if (codeStart >= 0) {
      closeIndented(i);
      afterCode = true;
    }
    if (container && indent > 0 && (SETEXT.test(t) || /^(`{3}|~{3}|#)/.test(t))) return { blocks: { headings, code, frontMatter }, bail: i, lastClean };
    const f = FENCE.exec(t);
    if (f && !(f[1][0] === "`" && f[2].includes("`"))) {
      fence = { char: f[1][0], len: f[1].length, start: i };
      para = false;
      continue;
    }
    const atx = ATX.exec(t);
    if (atx) {
      headings.push({ line: i, endLine: i, depth: atx[1].length });
      para = false;
      if (indent === 0) {
        container = false;
        lastClean = i;
      }
      continue;
    }
    if (para && lazy && SETEXT.test(t)) return { blocks: { headings, code, frontMatter }, bail: i, lastClean };
    if (para && !lazy && SETEXT.test(t)) {
      headings.push({ line: paraStart, endLine: i, depth: t[0] === "=" ? 1 : 2 });
      para = false;
      continue;
    }
    if (THEMATIC.test(t)) {
      para = false;
      if (indent === 0) container = false;
      continue;
    }
    if (HTML_START.test(t) || /^\[[^\]]+\]:/.test(t)) return { blocks: { headings, code, frontMatter }, bail: i, lastClean };
    const c = CONTAINER.exec(t);
    let rest = c ? t.slice(c[0].length) : "";
    for (let m = c ? CONTAINER.exec(rest) : null; m && !THEMATIC.test(rest); m = CONTAINER.exec(rest)) rest = rest.slice(m[0].length);
    const interrupts = c && (!para || t[0] === ">" || (rest.length > 0 && (c[1] === undefined || c[1] === "1")));
    if (c && (rest.trim().length === 0 || afterCode)) return { blocks: { headings, code, frontMatter }, bail: i, lastClean };
    if (c && interrupts) {
      if (SUSPICIOUS.test(rest)) return { blocks: { headings, code, frontMatter }, bail: i, lastClean };
      container = true;
      para = rest.length > 0;
      lazy = true;
      paraStart = i;
      continue;
    }
    if (!para) {
      para = true;
      paraStart = i;
      if (container && indent > 0) lazy = true;
      else {
        container = false;
        lazy = false;
      }
    }
  }
  if (fence) code.push([fence.start, n - 1]);
  if (codeStart >= 0) closeIndented(n);
  return { blocks: { headings, code, frontMatter }, bail: -1, lastClean };
}
