import type { SourceMapEntry } from "@hierdoc/core";
import TurndownService from "turndown";

/** The part of a DOM element the table and image rules read (the package compiles without the DOM lib). */
interface DomElement {
  nodeName: string;
  textContent: string | null;
  children: ArrayLike<DomElement>;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  closest(selector: string): DomElement | null;
  getAttribute(name: string): string | null;
  parentNode: DomElement | null;
  nextSibling: unknown;
}

function cellText(node: DomElement): string {
  return (node.textContent ?? "").replace(/\s+/g, " ").trim().replace(/\|/g, "\\|");
}

function tableMarkdown(table: DomElement): string {
  const rows: string[][] = [];
  for (const tr of Array.from(table.querySelectorAll("tr"))) {
    if (tr.closest("table") !== table) continue;
    rows.push(Array.from(tr.children).filter((c) => /^(TD|TH)$/i.test(c.nodeName)).map((c) => cellText(c)));
  }
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return "";
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? "").join(" | ")} |`;
  return `\n\n${[line(rows[0]), `|${" --- |".repeat(width)}`, ...rows.slice(1).map(line)].join("\n")}\n\n`;
}

let service: TurndownService | undefined;
/** Heading anchors met during the current (synchronous) turndown call, in document order. */
let headingAnchors: (string | undefined)[] = [];

function anchorOf(node: DomElement): string | undefined {
  const own = node.getAttribute("id");
  if (own) return own;
  const inner = node.querySelectorAll("[id], a[name]")[0];
  if (inner) return inner.getAttribute("id") ?? inner.getAttribute("name") ?? undefined;
  const parent = node.parentNode;
  if (parent && /^(SECTION|ARTICLE)$/i.test(parent.nodeName) && parent.getAttribute("id")) return parent.getAttribute("id") ?? undefined;
  return undefined;
}

/** A shared turndown instance: ATX headings, fenced code, `-` bullets, GFM-style tables, no scripts or styles. */
function turndown(): TurndownService {
  if (service) return service;
  const s = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "*",
    hr: "---",
  });
  s.remove(["script", "style", "noscript", "template", "iframe", "object", "embed", "head", "title", "meta", "link", "svg", "canvas", "form"] as never);
  s.addRule("table", { filter: ["table"], replacement: (_content, node) => tableMarkdown(node as unknown as DomElement) });
  s.addRule("listItem", {
    filter: "li",
    replacement: (content, li, options) => {
      const node = li as unknown as DomElement;
      const parent = node.parentNode;
      let prefix = `${options.bulletListMarker ?? "-"} `;
      if (parent?.nodeName === "OL") {
        const start = Number(parent.getAttribute("start") ?? 1) || 1;
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const body = content.replace(/^\n+/, "").replace(/\n+$/, "\n").replace(/\n/gm, `\n${" ".repeat(prefix.length)}`);
      return prefix + body + (node.nextSibling && !/\n$/.test(body) ? "\n" : "");
    },
  });
  s.addRule("heading", {
    filter: ["h1", "h2", "h3", "h4", "h5", "h6"],
    replacement: (content, h) => {
      const node = h as unknown as DomElement;
      const text = content.replace(/\s+/g, " ").trim();
      if (!text) return "\n\n";
      headingAnchors.push(anchorOf(node));
      return `\n\n${"#".repeat(Number(node.nodeName.charAt(1)))} ${text}\n\n`;
    },
  });
  s.addRule("image", { filter: ["img"], replacement: (_c, node) => {
    const alt = (node as unknown as DomElement).getAttribute("alt")?.trim();
    return alt ? `[image: ${alt}]` : "";
  } });
  service = s;
  return s;
}

/** Markdown converted from HTML, with a source map from each heading's section to the heading's element id. */
export interface HtmlMarkdown {
  text: string;
  sourceMap: SourceMapEntry[];
}

/** Deepest element nesting {@link htmlToMarkdownWithMap} accepts (the DOM walk overflows the stack near 2,000). */
export const MAX_HTML_DEPTH = 1000;

const VOID_OR_OPTIONAL_CLOSE = new Set([
  "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
  "p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "thead", "tbody", "tfoot", "colgroup", "caption",
  "rb", "rt", "rp", "html", "head", "body",
]);

/**
 * Refuses markup nested deeper than `max` elements before it reaches the DOM parser: one linear scan of the
 * tags (void elements and elements whose end tag is optional are not counted; comments, scripts and styles
 * skipped). Without it, 50,000 nested `<div>`s kept turndown busy for minutes before a stack overflow.
 *
 * @throws Error "elements nested deeper than N".
 */
export function checkHtmlDepth(html: string, max = MAX_HTML_DEPTH): void {
  const tag = /<!--|<(\/?)([a-zA-Z][\w:-]*)\b[^<>]*?(\/?)>/g;
  let depth = 0;
  let m: RegExpExecArray | null;
  while ((m = tag.exec(html)) !== null) {
    if (m[0] === "<!--") {
      const end = html.indexOf("-->", tag.lastIndex);
      if (end === -1) return;
      tag.lastIndex = end + 3;
      continue;
    }
    const name = m[2].toLowerCase();
    if (m[1] !== "/" && (name === "script" || name === "style")) {
      const close = new RegExp(`</${name}\\s*>`, "gi");
      close.lastIndex = tag.lastIndex;
      if (close.exec(html) === null) return;
      tag.lastIndex = close.lastIndex;
      continue;
    }
    if (m[3] === "/" || VOID_OR_OPTIONAL_CLOSE.has(name)) continue;
    if (m[1] === "/") depth = Math.max(0, depth - 1);
    else if (++depth > max) throw new Error(`elements nested deeper than ${max}`);
  }
}

/**
 * Converts HTML to markdown with real headings; scripts, styles and embedded objects are dropped. Each heading
 * with an id (its own, an inner anchor, or its `<section>`'s) maps `[heading start, next heading)` to that id.
 *
 * @throws Error when elements nest deeper than {@link MAX_HTML_DEPTH} (see {@link checkHtmlDepth}).
 */
export function htmlToMarkdownWithMap(html: string): HtmlMarkdown {
  checkHtmlDepth(html);
  headingAnchors = [];
  const md = turndown().turndown(html);
  const anchors = headingAnchors;
  headingAnchors = [];
  const text = md.replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim() + "\n";
  const starts: number[] = [];
  let fence = false;
  let offset = 0;
  for (const line of text.split("\n")) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) fence = !fence;
    else if (!fence && /^#{1,6} /.test(line)) starts.push(offset);
    offset += line.length + 1;
  }
  const sourceMap: SourceMapEntry[] = [];
  if (starts.length === anchors.length) {
    starts.forEach((start, i) => {
      const anchor = anchors[i];
      const end = i + 1 < starts.length ? starts[i + 1] : text.length;
      if (anchor) sourceMap.push({ start, end: text.slice(start, end).trimEnd().length + start, anchor });
    });
  }
  return { text, sourceMap };
}

/** Converts HTML to markdown with real headings; scripts, styles and embedded objects are dropped. */
export function htmlToMarkdown(html: string): string {
  return htmlToMarkdownWithMap(html).text;
}

/** Text of the HTML `<title>`, if any. */
export function htmlTitle(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html.slice(0, 65536));
  const t = m?.[1].replace(/<[^>]+>/g, "").replace(/\s+/g, " ").trim();
  return t || undefined;
}
