import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkFrontmatter from "remark-frontmatter";
import type { Lines } from "./lines.js";
import { PARAGRAPH_MARKER } from "./lines.js";
import type { HeadingCandidate, Marker, Structure } from "./structure.js";

interface MdNode {
  type: string;
  depth?: number;
  position?: { start: { line: number; column: number }; end: { line: number; column: number } };
  children?: MdNode[];
}

const processor = unified().use(remarkParse).use(remarkFrontmatter, ["yaml", "toml"]);

/** Plain lines cannot open or close any block: they are replaced by "x" in the skeleton remark parses. */
const PLAIN_START = /^[A-Za-z(§“”"'‘’\u00C0-\u024F]/;
const ORDERED = /^\d{1,9}[.)](\s|$)/;

/**
 * Finds headings, code blocks and front matter of markdown with remark-parse (mdast). Remark parses a
 * skeleton where lines that cannot affect block structure are shortened to one letter; mdast line
 * numbers map back to the original lines, so results equal a full parse at a fraction of the cost.
 */
export function markdownStructure(text: string, lines: Lines): Structure {
  const { starts, ends } = lines;
  const plain: boolean[] = new Array(starts.length);
  const parts: string[] = new Array(starts.length);
  for (let i = 0; i < starts.length; i++) {
    let line = text.slice(starts[i], ends[i]);
    if (i === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    const isPlain = PLAIN_START.test(line) && !ORDERED.test(line) && i > 0;
    plain[i] = isPlain;
    parts[i] = isPlain ? "x" : line;
  }
  const tree = processor.parse(parts.join("\n")) as MdNode;
  const headings: HeadingCandidate[] = [];
  const removed: Array<[number, number]> = [];
  const atomic: Array<[number, number]> = [];
  const codeLine = new Uint8Array(starts.length);
  const stack: MdNode[] = [tree];
  const found: MdNode[] = [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "heading" || node.type === "code" || node.type === "yaml" || node.type === "toml" || node.type === "html") {
      found.push(node);
      continue;
    }
    if (node.children) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  for (const node of found) {
    if (!node.position) continue;
    const l0 = node.position.start.line - 1;
    const l1 = node.position.end.line - 1;
    const col = node.position.start.column - 1;
    const from = starts[l0] + (l0 === 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0);
    if (node.type === "heading") {
      headings.push({ start: from, headEnd: ends[l1], title: headingTitle(text, lines, l0, l1, col, plain), rank: node.depth ?? 1 });
    } else {
      for (let l = l0; l <= l1; l++) codeLine[l] = 1;
      if (node.type === "yaml" || node.type === "toml") removed.push([starts[l0], l1 + 1 < starts.length ? starts[l1 + 1] : ends[l1]]);
      else atomic.push([from, ends[l1]]);
    }
  }
  headings.sort((a, b) => a.start - b.start);
  const markers: Marker[] = [];
  for (let i = 0; i < starts.length; i++) {
    if (!plain[i] || codeLine[i] || text.charCodeAt(starts[i]) !== 40) continue;
    const line = text.slice(starts[i], Math.min(ends[i], starts[i] + 200));
    const m = PARAGRAPH_MARKER.exec(line);
    if (m) markers.push({ start: starts[i], label: m[1], lineEnd: ends[i] });
  }
  return { headings, markers, removed, atomic };
}

function headingTitle(text: string, lines: Lines, l0: number, l1: number, col: number, plain: boolean[]): string {
  const { starts, ends } = lines;
  const first = text.slice(starts[l0] + (plain[l0] ? 0 : col), ends[l0]).replace(/^\uFEFF/, "");
  const atx = /^ {0,3}(#{1,6})(?:[ \t]+|$)/.exec(first);
  if (atx) {
    return first
      .slice(atx[0].length)
      .replace(/(^|[ \t]+)#+[ \t]*$/, "")
      .trim();
  }
  const parts: string[] = [];
  for (let l = l0; l < l1; l++) parts.push(text.slice(starts[l] + (l === l0 && !plain[l] ? col : 0), ends[l]).replace(/^\s*(>\s?)*/, ""));
  return parts.join(" ").replace(/\s+/g, " ").trim();
}
