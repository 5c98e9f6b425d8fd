import type { ConvertInput, ConvertedDocument, Converter } from "@hierdoc/core";
import { fileError } from "./errors.js";
import { MarkdownWriter, escapeBlock } from "./markdown-writer.js";
import { OfficeArchive, readRelationships, zipHasEntry, type ArchiveLimits } from "./office-zip.js";
import { extensionOf } from "./sniff.js";
import { pipeTable } from "./table-text.js";
import { childElements, collapse, firstChild, textOf, type XmlElement } from "./xml-tree.js";

/** Options of {@link PptxConverter}. */
export interface PptxOptions extends ArchiveLimits {
  /** Include speaker notes under each slide (default true). */
  notes?: boolean;
  /** Most slides read (default 5,000); more fail with E_INPUT_TOO_LARGE. */
  maxSlides?: number;
}

const TITLE_TYPES = new Set(["title", "ctrTitle"]);
const LIST_TYPES = new Set(["body", "obj", ""]);

/** Text of one DrawingML paragraph (`<a:p>`): runs, fields, line breaks. */
function paragraphText(p: XmlElement): string {
  const parts: string[] = [];
  const walk = (el: XmlElement): void => {
    for (const c of el.children) {
      if (typeof c === "string") continue;
      if (c.name === "t") parts.push(c.children.filter((x) => typeof x === "string").join(""));
      else if (c.name === "br") parts.push("\n");
      else if (c.name !== "pPr" && c.name !== "rPr" && c.name !== "endParaRPr") walk(c);
    }
  };
  walk(p);
  return parts.join("").replace(/[ \t\u00a0]+/g, " ").replace(/ *\n */g, "\n").trim();
}

interface ShapeText {
  kind: "title" | "list" | "text" | "table";
  text: string;
  /** Top edge (EMU) when the shape states its position. */
  y?: number;
}

function shapeTop(sp: XmlElement): number | undefined {
  const xfrm = firstChild(firstChild(sp, "spPr") ?? sp, "xfrm");
  const off = xfrm && firstChild(xfrm, "off");
  const y = off ? Number(off.attrs.y) : NaN;
  return Number.isFinite(y) ? y : undefined;
}

/**
 * The slide title: the title placeholder, else (decks built from text boxes, as LibreOffice and many
 * generators write them) the topmost text box when it is one short line.
 */
function slideTitle(texts: ShapeText[]): ShapeText | undefined {
  const placeholder = texts.find((t) => t.kind === "title" && t.text !== "");
  if (placeholder) return placeholder;
  let top: ShapeText | undefined;
  for (const t of texts) if (t.kind === "text" && t.y !== undefined && (top?.y === undefined || t.y < top.y)) top = t;
  return top && !top.text.includes("\n") && top.text.length <= 120 ? top : undefined;
}

function placeholderType(sp: XmlElement): string | null {
  const nv = firstChild(sp, "nvSpPr");
  const ph = nv && firstChild(firstChild(nv, "nvPr") ?? nv, "ph");
  return ph ? (ph.attrs.type ?? "") : null;
}

function shapeTexts(tree: XmlElement, out: ShapeText[]): void {
  for (const el of childElements(tree)) {
    if (el.name === "grpSp") shapeTexts(el, out);
    else if (el.name === "sp") {
      const body = firstChild(el, "txBody");
      if (!body) continue;
      const type = placeholderType(el);
      const paragraphs = childElements(body, "p");
      if (type !== null && TITLE_TYPES.has(type)) {
        out.push({ kind: "title", text: collapse(paragraphs.map(paragraphText).join(" ")) });
        continue;
      }
      const asList = type !== null && LIST_TYPES.has(type);
      const lines: string[] = [];
      for (const p of paragraphs) {
        const text = paragraphText(p);
        if (text === "") continue;
        const pPr = firstChild(p, "pPr");
        const bulleted = pPr ? firstChild(pPr, "buChar") !== undefined || firstChild(pPr, "buAutoNum") !== undefined : false;
        const unbulleted = pPr ? firstChild(pPr, "buNone") !== undefined : false;
        if ((asList && !unbulleted) || bulleted) {
          const level = Math.min(8, Number(pPr?.attrs.lvl ?? 0) || 0);
          lines.push(`${"  ".repeat(level)}- ${text.replace(/\n/g, " ")}`);
        } else lines.push(escapeBlock(text));
      }
      if (lines.length > 0) {
        const list = lines.some((l) => /^ *- /.test(l));
        out.push({ kind: list ? "list" : "text", text: lines.join(list ? "\n" : "\n\n"), y: shapeTop(el) });
      }
    } else if (el.name === "graphicFrame") {
      const tables: XmlElement[] = [];
      const find = (x: XmlElement): void => {
        for (const c of childElements(x)) if (c.name === "tbl") tables.push(c);
        else find(c);
      };
      find(el);
      for (const tbl of tables) {
        const rows = childElements(tbl, "tr").map((tr) =>
          childElements(tr, "tc").map((tc) => childElements(firstChild(tc, "txBody") ?? tc, "p").map(paragraphText).join(" ")),
        );
        const table = pipeTable(rows);
        if (table) out.push({ kind: "table", text: table });
      }
    }
  }
}

/**
 * PowerPoint decks (`.pptx`, or a zip holding `ppt/presentation.xml`) → markdown: one `#` section per slide
 * in presentation order, titled by the slide's title placeholder ("Slide N" when it has none); body
 * placeholders as `-` lists (indented by level), text boxes as paragraphs, tables as pipe tables, speaker
 * notes as a "Notes:" paragraph. Source map: `page` = slide number. Guards: zip bomb, entry count, XML
 * entities and depth (see {@link OfficeArchive}).
 */
export class PptxConverter implements Converter {
  readonly id = "pptx";

  constructor(private readonly options: PptxOptions = {}) {}

  canConvert(input: ConvertInput): boolean {
    return extensionOf(input.path) === "pptx" || zipHasEntry(input.bytes, "ppt/presentation.xml");
  }

  /**
   * @throws HierdocError E_PARSE when the file is not a zip or has no `ppt/presentation.xml`, or a part is
   *   not well-formed; E_INPUT_TOO_LARGE for a zip bomb or too many slides; E_INPUT_EMPTY without text.
   */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const { path } = input;
    const zip = OfficeArchive.open(path, input.bytes, "PPTX", this.options);
    const presentation = zip.xml("ppt/presentation.xml", true);
    const rels = readRelationships(zip, "ppt/presentation.xml");
    const list = firstChild(presentation, "sldIdLst");
    const slideParts = (list ? childElements(list, "sldId") : [])
      .map((s) => rels.get(s.attrs["r:id"] ?? s.attrs.id ?? "")?.target)
      .filter((t): t is string => t !== undefined && zip.has(t));
    const maxSlides = this.options.maxSlides ?? 5000;
    if (slideParts.length > maxSlides) {
      throw fileError("E_INPUT_TOO_LARGE", path, `the deck has ${slideParts.length} slides; the limit is ${maxSlides} (maxSlides)`);
    }
    const w = new MarkdownWriter();
    let firstTitle: string | undefined;
    let hasText = false;
    slideParts.forEach((part, i) => {
      const page = i + 1;
      const slide = zip.xml(part, true);
      const tree = firstChild(firstChild(slide, "cSld") ?? slide, "spTree");
      const texts: ShapeText[] = [];
      if (tree) shapeTexts(tree, texts);
      const titleShape = slideTitle(texts);
      const title = titleShape?.text;
      firstTitle ??= title;
      hasText ||= title !== undefined || texts.some((t) => t.kind !== "title");
      w.heading(1, title ?? `Slide ${page}`, { page });
      for (const t of texts) if (t.kind !== "title" && t !== titleShape) w.block(t.text, { page });
      if (this.options.notes !== false) {
        const notesPart = [...readRelationships(zip, part).values()].find((r) => r.type.endsWith("/notesSlide"))?.target;
        const notes = notesPart ? zip.xml(notesPart) : undefined;
        const notesTree = notes && firstChild(firstChild(notes, "cSld") ?? notes, "spTree");
        if (notesTree) {
          const body: ShapeText[] = [];
          shapeTexts(notesTree, body);
          const text = body
            .filter((b) => b.kind === "list" || b.kind === "text")
            .map((b) => b.text.replace(/^- /gm, ""))
            .join("\n");
          if (text.trim() !== "") {
            w.block(escapeBlock(`Notes: ${text}`), { page });
            hasText = true;
          }
        }
      }
    });
    const text = w.toString();
    if (!hasText) throw fileError("E_INPUT_EMPTY", path, slideParts.length === 0 ? "the PPTX deck has no slides" : "the PPTX deck has no text");
    const core = zip.xml("docProps/core.xml");
    const title = (core && textOf(firstChild(core, "title"))) || firstTitle;
    return { sourcePath: path, fileType: "pptx", format: "markdown", text, ...(title ? { title } : {}), sourceMap: w.sourceMap };
  }
}
