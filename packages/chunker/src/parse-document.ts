import type { Chunk, ConvertedDocument, Section } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";
import type { ChunkOptions } from "./chunk.js";
import { chunkSections, resolveOptions } from "./chunk.js";
import { lineTable } from "./lines.js";
import { markdownStructure } from "./markdown.js";
import { countUnitLines, plainTextStructure } from "./plain-text.js";
import { looksLikeRfcText, rfcStructure } from "./rfc-text.js";
import type { SectionNode, Structure } from "./structure.js";
import { buildSections } from "./structure.js";

/** A document with its section tree and chunks. */
export interface ParsedDocument {
  document: ConvertedDocument;
  sections: Section[];
  chunks: Chunk[];
}

/** Which scanner read a document. */
export type StructureKind = "markdown" | "rfc-text" | "unit-text" | "plain-text";

function detect(doc: ConvertedDocument, text: string, lines: ReturnType<typeof lineTable>): StructureKind {
  if (doc.format === "markdown") return "markdown";
  if (looksLikeRfcText(text, lines)) return "rfc-text";
  if (countUnitLines(text, lines) >= 3) return "unit-text";
  return "plain-text";
}

/**
 * Parses the hierarchy of a converted document and cuts it into chunks.
 *
 * `format: "markdown"` is read with remark-parse (mdast): ATX/setext headings, front matter (not a
 * section), fenced code (never a heading, not split when avoidable). `format: "text"` infers the
 * hierarchy from numbering: ObliQA-style unit lines, RFC published text (page furniture and table of
 * contents kept out of chunks), "Part/Chapter/Schedule" and numbered headings. Lines "(a)", "(1)", "(A)",
 * "(i)" become paragraph units nested under their section in both formats.
 *
 * Every chunk satisfies `doc.text.slice(chunk.start, chunk.end) === chunk.content` and
 * `countTokens(chunk.content) <= maxChunkTokens`.
 *
 * @throws HierdocError E_INVALID_ARGUMENT for bad options or a document without text.
 */
export function parseDocument(doc: ConvertedDocument, options: ChunkOptions = {}): ParsedDocument {
  if (doc === null || typeof doc !== "object" || typeof doc.text !== "string") {
    throw new HierdocError("E_INVALID_ARGUMENT", "parseDocument needs a ConvertedDocument with a text string");
  }
  resolveOptions(options);
  const text = doc.text;
  const lines = lineTable(text);
  const kind = detect(doc, text, lines);
  const structure = scan(kind, text, lines, options.markdownEngine ?? "auto");
  const citation = /^#?\s*Title \d+\W+[^\n]*(Federal Regulations|Alcohol|CFR)/i.test(text.slice(0, 300)) ? "cfr" : "usc";
  const nodes = buildSections(text, structure, citation);
  const chunks = chunkSections(text, doc.sourcePath, nodes, structure.removed, structure.atomic, options, doc.title ?? "");
  return { document: doc, sections: nodes.map(toSection), chunks };
}

/** Reads the structure of `text` with the scanner for `kind`. */
function scan(kind: StructureKind, text: string, lines: ReturnType<typeof lineTable>, engine: "auto" | "remark"): Structure {
  switch (kind) {
    case "markdown":
      return markdownStructure(text, lines, engine);
    case "rfc-text":
      return rfcStructure(text, lines);
    case "unit-text":
      return plainTextStructure(text, lines, true);
    default:
      return plainTextStructure(text, lines, false);
  }
}

function toSection(n: SectionNode): Section {
  return {
    sectionId: n.sectionId,
    aliases: n.aliases,
    title: n.title,
    level: n.level,
    parentChain: n.parentChain,
    parentIds: n.parentIds,
    start: n.start,
    end: n.end,
  };
}
