import type { ConvertInput, ConvertedDocument, Converter } from "@hierdoc/core";
import { decodeText, normalizeNewlines } from "./decode-text.js";
import { fileError } from "./errors.js";
import { escapeBlock, MarkdownWriter } from "./markdown-writer.js";
import { numberRfcSections, rfcTitle, type RfcSection } from "./rfc-numbering.js";
import { buildXrefContext, ownText, xrefText, type RfcSourceResolver, type XrefContext as Context } from "./rfc-xrefs.js";
import { xmlRootTag } from "./sniff.js";
import { childElements, collapse, firstChild, parseXml, textOf, type XmlElement, type XmlLimits, type XmlNode } from "./xml-tree.js";

const SILENT = new Set(["iref", "anchor-alias", "cref", "has", "source", "feedback", "name", "section", "references",
  "displayreference", "seriesInfo", "author", "date", "keyword", "area", "workgroup", "Description"]);
const BLOCKS = new Set(["t", "list", "ul", "ol", "dl", "figure", "artwork", "sourcecode", "table", "texttable", "aside",
  "blockquote", "note", "preamble", "postamble", "lt", "li", "dt", "dd", "artset", "ttcol", "c", "reference",
  "referencegroup"]);

interface Block {
  text: string;
  anchor?: string;
}

function inline(node: XmlNode, ctx: Context): string {
  if (typeof node === "string") return node;
  if (SILENT.has(node.name)) return "";
  if (node.name === "xref" || node.name === "relref") return xrefText(node, ownText(node, (c) => inline(c, ctx)), ctx);
  if (node.name === "eref") {
    const own = node.children.map((c) => inline(c, ctx)).join("");
    return own.trim() ? own : `<${node.attrs.target ?? ""}>`;
  }
  if (node.name === "br") return " ";
  return node.children.map((c) => inline(c, ctx)).join("");
}

function rawText(node: XmlNode, ctx: Context): string {
  if (typeof node === "string") return node;
  if (node.name === "xref" || node.name === "relref") return xrefText(node, ownText(node, (c) => inline(c, ctx)), ctx);
  if (SILENT.has(node.name)) return "";
  return node.children.map((c) => rawText(c, ctx)).join("");
}

function codeBlock(el: XmlElement, ctx: Context): string {
  const body = rawText(el, ctx).replace(/^\s*\n/, "").replace(/\s+$/, "");
  if (!body) return "";
  const longest = Math.max(2, ...(body.match(/`{3,}/g) ?? []).map((m) => m.length));
  const fence = "`".repeat(longest + 1);
  const info = el.name === "sourcecode" && /^[\w+-]+$/.test(el.attrs.type ?? "") ? el.attrs.type : "";
  return `${fence}${info}\n${body}\n${fence}`;
}

function cells(row: XmlElement, ctx: Context): string[] {
  return childElements(row).filter((c) => c.name === "td" || c.name === "th")
    .map((c) => collapse(inline(c, ctx)).replace(/\|/g, "\\|"));
}

function tableBlock(el: XmlElement, ctx: Context): string {
  let rows: string[][] = [];
  if (el.name === "texttable") {
    const head = childElements(el, "ttcol").map((c) => collapse(inline(c, ctx)));
    const body = childElements(el, "c").map((c) => collapse(inline(c, ctx)).replace(/\|/g, "\\|"));
    rows = [head];
    for (let i = 0; i < body.length; i += Math.max(1, head.length)) rows.push(body.slice(i, i + head.length));
  } else {
    for (const part of childElements(el)) {
      if (part.name === "tr") rows.push(cells(part, ctx));
      else for (const tr of childElements(part, "tr")) rows.push(cells(tr, ctx));
    }
  }
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return "";
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? "").join(" | ")} |`;
  return [line(rows[0]), `|${"---|".repeat(width)}`, ...rows.slice(1).map(line)].join("\n");
}

function prefixLines(text: string, first: string, rest: string): string {
  return text.split("\n").map((l, i) => (i === 0 ? first : rest) + l).join("\n");
}

function renderReference(el: XmlElement, ctx: Context): string {
  const label = ctx.labels.get(el.attrs.anchor ?? "") ?? el.attrs.anchor ?? "";
  if (el.name === "referencegroup") {
    const titles = childElements(el, "reference").map((r) => textOf(firstChild(firstChild(r, "front") ?? r, "title")));
    return `[${label}] ${titles.filter(Boolean).join("; ")}`;
  }
  const front = firstChild(el, "front");
  const source = firstChild(el, "source");
  if (!front) return `[${label}]${source?.attrs.basename ? ` ${source.attrs.basename}` : ""}`;
  const authors = childElements(front, "author")
    .map((a) => (a.attrs.surname ? `${a.attrs.surname}, ${a.attrs.initials ?? ""}`.trim() : textOf(firstChild(a, "organization"))))
    .filter(Boolean);
  const series = childElements(el, "seriesInfo").concat(childElements(front, "seriesInfo"))
    .map((s) => `${s.attrs.name ?? ""} ${s.attrs.value ?? ""}`.trim());
  const date = firstChild(front, "date");
  const when = date ? [date.attrs.month, date.attrs.year].filter(Boolean).join(" ") : "";
  const parts = [authors.join(", "), `"${textOf(firstChild(front, "title"))}"`, ...series, when].filter((p) => p && p !== '""');
  return `[${label}] ${parts.join(", ")}.${el.attrs.target ? ` <${el.attrs.target}>` : ""}`;
}

/** Renders body elements as markdown blocks; inline runs between block elements become paragraphs. */
function renderBlocks(el: XmlElement, anchor: string | undefined, ctx: Context, out: Block[]): void {
  let run: XmlNode[] = [];
  const flush = (): void => {
    const text = collapse(run.map((n) => inline(n, ctx)).join(""));
    if (text) out.push({ text: escapeBlock(text), anchor });
    run = [];
  };
  for (const c of el.children) {
    if (typeof c === "string" || !BLOCKS.has(c.name)) {
      if (typeof c === "string" || !SILENT.has(c.name) || c.name === "iref") run.push(c);
      continue;
    }
    flush();
    const a = c.attrs.anchor ?? anchor;
    const name = c.name;
    if (name === "artwork" || name === "sourcecode") {
      const code = codeBlock(c, ctx);
      if (code) out.push({ text: code, anchor: a });
    } else if (name === "table" || name === "texttable") {
      const t = tableBlock(c, ctx);
      if (t) out.push({ text: t, anchor: a });
    } else if (name === "reference" || name === "referencegroup") {
      out.push({ text: escapeBlock(renderReference(c, ctx)), anchor: a });
    } else if (name === "list" || name === "ul" || name === "ol") {
      const ordered = name === "ol" || c.attrs.style === "numbers";
      let i = Number(c.attrs.start ?? 1) || 1;
      for (const item of childElements(c).filter((x) => x.name === "li" || x.name === "t" || x.name === "lt")) {
        const inner: Block[] = [];
        renderBlocks(item, item.attrs.anchor ?? a, ctx, inner);
        const marker = ordered ? `${i++}. ` : "- ";
        inner.forEach((b, k) => out.push({ text: prefixLines(b.text, k === 0 ? marker : "  ", "  ".repeat(marker.length > 2 ? 2 : 1)), anchor: b.anchor }));
      }
    } else if (name === "dl") {
      let term = "";
      for (const d of childElements(c)) {
        if (d.name === "dt") term = collapse(inline(d, ctx));
        else if (d.name === "dd") {
          const inner: Block[] = [];
          renderBlocks(d, d.attrs.anchor ?? a, ctx, inner);
          if (inner.length === 0) out.push({ text: escapeBlock(term), anchor: a });
          inner.forEach((b, k) => out.push({ text: k === 0 && term ? `${escapeBlock(term)}: ${b.text}` : b.text, anchor: b.anchor }));
          term = "";
        }
      }
    } else if (name === "aside" || name === "blockquote" || name === "note") {
      const inner: Block[] = [];
      renderBlocks(c, a, ctx, inner);
      for (const b of inner) out.push({ text: prefixLines(b.text, "> ", "> "), anchor: b.anchor });
    } else if (name === "figure") {
      const title = c.attrs.title ?? textOf(firstChild(c, "name"));
      renderBlocks(c, a, ctx, out);
      if (title) out.push({ text: escapeBlock(`Figure: ${collapse(title)}`), anchor: a });
    } else {
      renderBlocks(c, a, ctx, out);
    }
  }
  flush();
}

/** Options of {@link RfcXmlConverter}: XML limits plus an optional reader for `x:source` documents. */
export interface RfcXmlOptions extends XmlLimits {
  /** Reads referenced RFC sources so "Section 3.7 of [HTTP]" gets its number; without it such references read "[HTTP]". */
  resolveSource?: RfcSourceResolver;
}

/**
 * Converts xml2rfc XML (v2 and v3 vocabularies, with the rfc2629.xslt `x:` extensions) to markdown numbered
 * as the published RFC: `## 9. Methods`, `#### 9.3.1. GET`, `## 19. References`, `## Appendix A. …`.
 * Bare cross-references read "Section 9.3.1" / "Section 6 of [HTTP/1.1]"; artwork and source code become
 * fenced blocks. The source map names each block's nearest `anchor` (section or element).
 */
export class RfcXmlConverter implements Converter {
  readonly id = "rfc-xml";

  constructor(private readonly options: RfcXmlOptions = {}) {}

  canConvert(input: ConvertInput): boolean {
    return /^<rfc[\s/>]/.test(xmlRootTag(input.bytes) ?? "");
  }

  /** @throws HierdocError E_PARSE (not well-formed, unsafe entities, no `<rfc>` root), E_INPUT_ENCODING / E_INPUT_EMPTY. */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const xml = normalizeNewlines(decodeText(input.path, input.bytes));
    const rfc = parseXml(input.path, xml, this.options);
    if (rfc.name !== "rfc") throw fileError("E_PARSE", input.path, `root element is <${rfc.qname}>, not <rfc>`);
    const sections = numberRfcSections(rfc);
    const ctx: Context = await buildXrefContext(rfc, sections, input.path, this.options.resolveSource, this.options);
    const front = firstChild(rfc, "front");
    const docTitle = textOf(front && firstChild(front, "title"));
    const title = rfc.attrs.number ? `RFC ${rfc.attrs.number}${docTitle ? `: ${docTitle}` : ""}` : docTitle || undefined;
    const w = new MarkdownWriter();
    if (title) w.heading(1, title, { anchor: "title" });
    const abstract = front && firstChild(front, "abstract");
    if (abstract) {
      w.heading(2, "Abstract", { anchor: "abstract" });
      const blocks: Block[] = [];
      renderBlocks(abstract, "abstract", ctx, blocks);
      for (const b of blocks) w.block(b.text, { anchor: b.anchor });
    }
    const writeSection = (s: RfcSection, level: number): void => {
      const anchor = s.anchor ?? (s.number ? `section-${s.number}` : undefined);
      w.heading(level, s.heading || rfcTitle(s.el ?? rfc), { anchor });
      if (s.el) {
        const blocks: Block[] = [];
        renderBlocks(s.el, anchor, ctx, blocks);
        for (const b of blocks) w.block(b.text, { anchor: b.anchor });
      }
      for (const c of s.children) writeSection(c, level + 1);
    };
    for (const s of sections) writeSection(s, 2);
    const text = w.toString();
    if (text.trim() === "") throw fileError("E_PARSE", input.path, "RFC document has no title, abstract or sections");
    return { sourcePath: input.path, fileType: "rfc-xml", format: "markdown", text, title, sourceMap: w.sourceMap };
  }
}
