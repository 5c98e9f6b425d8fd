import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkFrontmatter from "remark-frontmatter";
import type { Lines } from "./lines.js";
import { PARAGRAPH_MARKER } from "./lines.js";
import type { LineBlocks } from "./markdown-fast.js";
import { scanMarkdownFastFrom } from "./markdown-fast.js";
import type { HeadingCandidate, Marker, Structure } from "./structure.js";

/** Which markdown block scanner to use: `auto` (linear scan, remark when needed) or `remark` always. */
export type MarkdownEngine = "auto" | "remark";

interface MdNode {
  type: string;
  depth?: number;
  position?: { start: { line: number }; end: { line: number } };
  children?: MdNode[];
}

const withFrontMatter = unified().use(remarkParse).use(remarkFrontmatter, ["yaml", "toml"]);
const plain = unified().use(remarkParse);
const FRONT_MATTER_FENCE = /^(---|\+\+\+)[ \t]*$/;

/**
 * The parser for a markdown text: with front matter only when the text opens with a `---`/`+++` fence that
 * closes, the rule the fast scan applies. An unclosed `---` is a thematic break, and remark-frontmatter then
 * misreads later blocks (a block quote as paragraph text under a setext underline).
 */
function processorFor(markdown: string): typeof plain {
  const start = markdown.charCodeAt(0) === 0xfeff ? 1 : 0;
  const eol = markdown.indexOf("\n", start);
  if (eol < 0) return plain;
  const first = markdown.slice(start, eol);
  if (!FRONT_MATTER_FENCE.test(first)) return plain;
  const closing = new RegExp(`\\n${first.trim() === "---" ? "---" : "\\+\\+\\+"}[ \\t]*(?:\\n|$)`);
  return closing.test(markdown.slice(eol)) ? withFrontMatter : plain;
}

/** Characters that may open a block (or be indentation); any other first character is paragraph text. */
const BLOCK_START = /^[#>+*=_`~<[\-0-9 \t]/;
const CONTAINER_MARK = /^(?:> ?|[-+*] +|\d{1,9}[.)] +)/;
const THEMATIC_LINE = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

function canNotStartBlock(rest: string): boolean {
  if (!BLOCK_START.test(rest)) return true;
  return /^\d/.test(rest) && !/^\d{1,9}[.)](?:[ \t]|$)/.test(rest);
}
/** "1. The data subject shall …": a numbered paragraph of an article (EU style), at column 0. */
const DOTTED_PARAGRAPH = /^([1-9]\d{0,2})\.[ \t]+\S/;


/**
 * Block structure with remark-parse (mdast). Remark reads a skeleton: each run of plain and blank
 * lines is reduced to the few lines that decide block structure, ATX heading text to one letter;
 * mdast line numbers map back to the original lines, so the result equals a full parse.
 */
export function scanMarkdownRemark(text: string, lines: Lines, from = 0, to = lines.starts.length): LineBlocks {
  const { starts, ends } = lines;
  const n = to;
  const sk: string[] = [];
  const orig: number[] = [];
  const emit = (s: string, line: number): void => {
    sk.push(s);
    orig.push(line);
  };
  /**
   * The block "shape" of a line whose content cannot start a block: indentation and container markers
   * kept, content reduced to "x". Null for lines that must reach remark verbatim.
   */
  const shapeOf = (line: string): string | null => {
    let k = 0;
    while (k < line.length && line.charCodeAt(k) === 32) k++;
    let prefix = line.slice(0, k);
    let rest = line.slice(k);
    for (let m = CONTAINER_MARK.exec(rest); m && !THEMATIC_LINE.test(rest); m = CONTAINER_MARK.exec(rest)) {
      prefix += m[0];
      rest = rest.slice(m[0].length);
    }
    return rest.length > 0 && canNotStartBlock(rest) ? `${prefix}x` : null;
  };
  let i = from;
  while (i < n) {
    let line = text.slice(starts[i], Math.min(ends[i], starts[i] + 2000));
    if (i === 0) line = line.replace(/^\uFEFF/, "");
    const blank = /^[ \t]*$/.test(line);
    if (i > from && (blank || shapeOf(line) !== null)) {
      // A run of blank and plain lines: keep each group's indentation changes; identical groups repeat once.
      const groups: Array<{ sig: string; lines: Array<[string, number]>; blankBefore: number }> = [];
      let j = i;
      let cur: (typeof groups)[number] | null = null;
      let lastBlank = -1;
      while (j < n) {
        const l = text.slice(starts[j], Math.min(ends[j], starts[j] + 200));
        if (/^[ \t]*$/.test(l)) {
          cur = null;
          lastBlank = j;
        } else {
          const k = shapeOf(l);
          if (k === null) break;
          if (!cur) {
            cur = { sig: "", lines: [], blankBefore: lastBlank };
            groups.push(cur);
          }
          const prev = cur.lines[cur.lines.length - 1];
          if (!prev || prev[0] !== k) {
            cur.lines.push([k, j]);
            cur.sig += `${k}\n`;
          }
        }
        j++;
      }
      if (groups.length === 0 || groups[0].blankBefore >= 0) emit("", i);
      let repeats = 0;
      groups.forEach((g, gi) => {
        repeats = gi > 0 && groups[gi - 1].sig === g.sig ? repeats + 1 : 0;
        if (repeats >= 2) return;
        if (gi > 0) emit("", g.blankBefore);
        for (const [k, lineNo] of g.lines) emit(k, lineNo);
      });
      if (groups.length > 0 && lastBlank > groups[groups.length - 1].lines[groups[groups.length - 1].lines.length - 1][1]) emit("", lastBlank);
      i = j;
      continue;
    }
    const atx = /^( {0,3}#{1,6})(?:[ \t]|$)/.exec(line);
    emit(atx ? `${atx[1]} x` : line, i);
    i++;
  }
  const markdown = sk.join("\n");
  const tree = processorFor(markdown).parse(markdown) as MdNode;
  const origEnd = orig.map((_, k) => (k + 1 < orig.length ? orig[k + 1] - 1 : n - 1));
  const out: LineBlocks = { headings: [], code: [] };
  const stack: MdNode[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const pos = node.position;
    if (pos && (node.type === "heading" || node.type === "code" || node.type === "html" || node.type === "yaml" || node.type === "toml")) {
      const l0 = orig[pos.start.line - 1];
      const l1 = node.type === "heading" ? orig[pos.end.line - 1] : origEnd[pos.end.line - 1];
      if (node.type === "heading") out.headings.push({ line: l0, endLine: l1, depth: node.depth ?? 1 });
      else if (node.type === "yaml" || node.type === "toml") out.frontMatter = [l0, l1];
      else out.code.push([l0, l1]);
      continue;
    }
    if (node.children) for (let k = node.children.length - 1; k >= 0; k--) stack.push(node.children[k]);
  }
  out.headings.sort((a, b) => a.line - b.line);
  out.code.sort((a, b) => a[0] - b[0]);
  return out;
}

const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const OPENING_FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Linear scan where it is exact, remark-parse for the stretches it is not: the fast scan runs until it
 * meets a construct it cannot decide, remark then reads from the last column-0 ATX heading before that
 * point up to a later column-0 ATX heading at which remark's block state is empty, and the fast scan
 * resumes there. Column-0 ATX headings outside an open fence or HTML block always start at top level,
 * so the pieces join exactly as one parse would.
 */
export function scanMarkdownHybrid(text: string, lines: Lines): LineBlocks {
  const { starts, ends } = lines;
  const n = starts.length;
  const atxLines: number[] = [];
  for (let i = 0; i < n; i++) if (text.charCodeAt(starts[i]) === 35 && /^#{1,6}(?:[ \t]|$)/.test(text.slice(starts[i], starts[i] + 8))) atxLines.push(i);
  const out: LineBlocks = { headings: [], code: [] };
  const lineText = (i: number): string => text.slice(starts[i], Math.min(ends[i], starts[i] + 200));
  let pos = 0;
  let ai = 0;
  while (pos < n) {
    const fast = scanMarkdownFastFrom(text, lines, pos);
    if (pos === 0) out.frontMatter = fast.blocks.frontMatter;
    if (fast.bail < 0) {
      out.headings.push(...fast.blocks.headings);
      out.code.push(...fast.blocks.code);
      break;
    }
    const segStart = fast.lastClean > pos ? fast.lastClean : pos;
    out.headings.push(...fast.blocks.headings.filter((h) => h.line < segStart));
    out.code.push(...fast.blocks.code.filter((c) => c[1] < segStart));
    while (ai < atxLines.length && atxLines[ai] <= fast.bail) ai++;
    for (let attempt = 0; ; attempt++) {
      const segEnd = attempt < 8 && ai < atxLines.length ? atxLines[ai] : n;
      const blocks = scanMarkdownRemark(text, lines, segStart, segEnd);
      let lastLine = segEnd - 1;
      while (lastLine > segStart && /^[ \t]*$/.test(lineText(lastLine))) lastLine--;
      const tail = blocks.code.filter((c) => c[1] >= lastLine);
      const clean = tail.every((c) => c[1] > c[0] && OPENING_FENCE.test(lineText(c[0])) && CLOSING_FENCE.test(lineText(c[1])));
      if (segEnd >= n || clean) {
        out.headings.push(...blocks.headings);
        out.code.push(...blocks.code);
        pos = segEnd;
        break;
      }
      ai++;
    }
  }
  out.headings.sort((a, b) => a.line - b.line);
  out.code.sort((a, b) => a[0] - b[0]);
  return out;
}

/**
 * Finds headings, code blocks, front matter and paragraph markers "(a) …" of a markdown text.
 * With `engine: "auto"` a linear scan handles documents without nested block constructs and remark
 * handles the rest; `"remark"` always uses remark.
 */
export function markdownStructure(text: string, lines: Lines, engine: MarkdownEngine = "auto"): Structure {
  const { starts, ends } = lines;
  const blocks = engine === "auto" ? scanMarkdownHybrid(text, lines) : scanMarkdownRemark(text, lines);
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const headings: HeadingCandidate[] = blocks.headings.map((h) => {
    const from = starts[h.line] + (h.line === 0 ? bom : 0);
    return { start: from, headEnd: ends[h.endLine], title: headingTitle(text, lines, h.line, h.endLine), rank: h.depth };
  });
  const removed: Array<[number, number]> = [];
  if (blocks.frontMatter) {
    const [l0, l1] = blocks.frontMatter;
    removed.push([starts[l0], l1 + 1 < starts.length ? starts[l1 + 1] : ends[l1]]);
  }
  const atomic: Array<[number, number]> = [];
  const codeLine = new Uint8Array(starts.length);
  for (const [l0, l1] of blocks.code) {
    atomic.push([starts[l0], ends[l1]]);
    for (let l = l0; l <= l1; l++) codeLine[l] = 1;
  }
  if (blocks.frontMatter) for (let l = blocks.frontMatter[0]; l <= blocks.frontMatter[1]; l++) codeLine[l] = 1;
  const markers: Marker[] = [];
  for (let i = 0; i < starts.length; i++) {
    if (codeLine[i]) continue;
    const c = text.charCodeAt(starts[i]);
    if (c === 40) {
      const m = PARAGRAPH_MARKER.exec(text.slice(starts[i], Math.min(ends[i], starts[i] + 20)));
      if (m) markers.push({ start: starts[i], label: m[1], lineEnd: ends[i] });
    } else if (c >= 49 && c <= 57) {
      const m = DOTTED_PARAGRAPH.exec(text.slice(starts[i], Math.min(ends[i], starts[i] + 20)));
      if (m) markers.push({ start: starts[i], label: m[1], lineEnd: ends[i], dotted: true });
    }
  }
  return { headings, markers, removed, atomic };
}

function headingTitle(text: string, lines: Lines, l0: number, l1: number): string {
  const { starts, ends } = lines;
  const first = text.slice(starts[l0], ends[l0]).replace(/^\uFEFF/, "");
  const atx = /^(?:[ \t]*(?:>[ \t]?|[-+*][ \t]+|\d{1,9}[.)][ \t]+))*[ \t]*(#{1,6})(?:[ \t]+|$)/.exec(first);
  if (atx && l0 === l1) {
    return first
      .slice(atx[0].length)
      .replace(/(^|[ \t]+)#+[ \t]*$/, "")
      .trim();
  }
  const parts: string[] = [];
  for (let l = l0; l < Math.max(l1, l0 + 1); l++) parts.push(text.slice(starts[l], ends[l]).replace(/^\s*(?:>[ \t]?|[-+*][ \t]+|\d{1,9}[.)][ \t]+)*/, ""));
  return parts.join(" ").replace(/\s+/g, " ").trim();
}
