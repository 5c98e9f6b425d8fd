import type { ConvertInput, ConvertedDocument, Converter } from "@hierdoc/core";
import { decodeText, normalizeNewlines } from "./decode-text.js";
import { fileError } from "./errors.js";
import { escapeBlock, MarkdownWriter } from "./markdown-writer.js";
import { xmlRootTag } from "./sniff.js";
import { collapse, firstChild, parseXml, textOf, type XmlElement, type XmlLimits, type XmlNode } from "./xml-tree.js";

/** Big divisions that become markdown headings, nested in document order. */
const HIERARCHY = new Set([
  "title", "subtitle", "chapter", "subchapter", "part", "subpart", "division", "subdivision", "article",
  "subarticle", "appendix", "compiledAct", "courtRules", "reorganizationPlans",
]);
/** Numbered units inside a section, rendered as paragraphs `(a) …`, `(1) …`. */
const LEVELS = new Set([
  "subsection", "paragraph", "subparagraph", "clause", "subclause", "item", "subitem", "subsubitem", "proviso",
]);
/** Editorial apparatus the derived markdown leaves out. */
const SKIP = new Set([
  "meta", "toc", "notes", "note", "sourceCredit", "editorialNote", "ear", "leftRunningHead", "rightRunningHead",
  "index", "layout", "source", "authority", "footnote", "preface", "img", "figure", "organizationNote",
  "explanationNote", "referenceItem",
]);
const BLOCKS = new Set([
  ...LEVELS, "p", "content", "chapeau", "continuation", "table", "quotedContent", "section", "level", "def",
  "subheading", "heading", "num", "tr", "list", "listItem", "block", "signature",
]);
const INLINE_SKIP = new Set(["note", "footnote", "toc", "sourceCredit", "notes", "img"]);

interface Block {
  text: string;
  anchor?: string;
}

function anchorOf(el: XmlElement, inherited?: string): string | undefined {
  return el.attrs.identifier ?? inherited;
}

/** `num` and `heading` of an element joined as the derived markdown writes them ("Title 35— PATENTS"). */
export function uslmLabel(el: XmlElement): string {
  return [textOf(firstChild(el, "num")), textOf(firstChild(el, "heading"))].filter(Boolean).join(" ");
}

function tableBlock(table: XmlElement): string {
  const rows: string[][] = [];
  const walk = (el: XmlElement): void => {
    for (const c of el.children) {
      if (typeof c === "string") continue;
      if (c.name === "tr") {
        const cells = c.children.filter((x): x is XmlElement => typeof x !== "string" && (x.name === "td" || x.name === "th"));
        rows.push(cells.map((cell) => textOf(cell, INLINE_SKIP).replace(/\|/g, "\\|")));
      } else if (c.name !== "caption") walk(c);
    }
  };
  walk(table);
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return "";
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? "").join(" | ")} |`;
  const caption = textOf(firstChild(table, "caption"));
  const out = [line(rows[0]), `|${" --- |".repeat(width)}`, ...rows.slice(1).map(line)];
  return (caption ? `${caption}\n\n` : "") + out.join("\n");
}

/** Renders the body of an element as paragraphs, keeping mixed inline text together. */
function renderBlocks(el: XmlElement, anchor: string | undefined, out: Block[]): void {
  let inline: XmlNode[] = [];
  const flush = (): void => {
    const text = textOf({ name: "", qname: "", attrs: {}, children: inline }, INLINE_SKIP);
    if (text) out.push({ text: escapeBlock(text), anchor });
    inline = [];
  };
  for (const c of el.children) {
    if (typeof c === "string" || (!BLOCKS.has(c.name) && !SKIP.has(c.name))) {
      inline.push(c);
      continue;
    }
    flush();
    if (SKIP.has(c.name) || c.name === "num" || c.name === "heading") continue;
    const a = anchorOf(c, anchor);
    if (c.name === "table") {
      const t = tableBlock(c);
      if (t) out.push({ text: t, anchor: a });
    } else if (LEVELS.has(c.name) || c.name === "section" || c.name === "level") {
      const label = uslmLabel(c);
      const inner: Block[] = [];
      renderBlocks(c, a, inner);
      const firstReal = c.children.find(
        (x) => (typeof x === "string" ? x.trim() !== "" : x.name !== "num" && x.name !== "heading"),
      );
      const startsWithText = firstReal !== undefined && (typeof firstReal === "string" || !LEVELS.has(firstReal.name));
      if (label && inner.length > 0 && startsWithText) inner[0] = { ...inner[0], text: `${label} ${inner[0].text}` };
      else if (label) inner.unshift({ text: escapeBlock(label), anchor: a });
      out.push(...inner);
    } else {
      renderBlocks(c, a, out);
    }
  }
  flush();
}

/**
 * Converts USLM XML (US Code titles, CFR volumes) to markdown whose headings mirror the hierarchy:
 * Title > Subtitle/Part > Chapter > Subchapter > Part > Subpart > `§ N. Heading`, one heading level per
 * division; subsections become paragraphs `(a) …`, `(1) …`. Notes, tables of contents and source credits are
 * left out. The source map names each block's USLM `identifier` (`/us/usc/t35/s101/a`).
 */
export class UslmConverter implements Converter {
  readonly id = "uslm-xml";

  constructor(private readonly limits: XmlLimits = {}) {}

  canConvert(input: ConvertInput): boolean {
    const root = xmlRootTag(input.bytes);
    if (root === null) return false;
    return /^<(\w+:)?(uscDoc|cfrDoc|lawDoc|billDoc|statutesAtLarge|pLaw|amendment|resolution)\b/.test(root) || /xmlns(:\w+)?="[^"]*\/schemas(\/xml)?\/uslm/.test(root);
  }

  /** @throws HierdocError E_PARSE (not well-formed, unsafe entities), E_INPUT_ENCODING / E_INPUT_EMPTY. */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const xml = normalizeNewlines(decodeText(input.path, input.bytes));
    const root = parseXml(input.path, xml, this.limits);
    const main = firstChild(root, "main") ?? root;
    const writer = new MarkdownWriter();
    let title: string | undefined;
    const walk = (el: XmlElement, depth: number): void => {
      for (const c of el.children) {
        if (typeof c === "string" || SKIP.has(c.name) || c.name === "num" || c.name === "heading") continue;
        const anchor = anchorOf(c);
        if (HIERARCHY.has(c.name) || c.name === "section") {
          const label = uslmLabel(c) || collapse(c.name);
          title ??= label;
          writer.heading(depth + 1, label, { anchor });
          if (c.name === "section") {
            const blocks: Block[] = [];
            renderBlocks(c, anchor, blocks);
            for (const b of blocks) writer.block(b.text, { anchor: b.anchor });
          } else {
            walk(c, depth + 1);
          }
        } else if (c.name === "level" || c.name === "main" || c.name === "group") {
          walk(c, depth);
        } else {
          const blocks: Block[] = [];
          renderBlocks({ ...el, children: [c] }, anchor, blocks);
          for (const b of blocks) writer.block(b.text, { anchor: b.anchor });
        }
      }
    };
    walk(main, 0);
    const text = writer.toString();
    if (text.trim() === "") throw fileError("E_PARSE", input.path, "USLM document has no sections or text");
    return {
      sourcePath: input.path,
      fileType: "uslm-xml",
      format: "markdown",
      text,
      title: title ?? (textOf(firstChild(firstChild(root, "meta") ?? root, "title")) || undefined),
      sourceMap: writer.sourceMap,
    };
  }
}
