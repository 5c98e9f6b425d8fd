import type { Chunk, ConvertedDocument, DefinitionEntry, Section } from "@hierdoc/core";
import { DocumentMap, paragraphs, type Paragraph } from "./document-map.js";
import { enumeratedPointsEnd } from "./enumerated-points.js";
import { isGlossaryHeader, matchDefinitions, type DefinitionMatch } from "./definition-patterns.js";
import { matchTechnicalTerms } from "./technical-terms.js";
import { normalizeTerm } from "./normalize.js";
import { titleTerms } from "./title-terms.js";

/** A {@link DefinitionEntry} with where its text lies in the converted document. */
export interface ExtractedDefinition extends DefinitionEntry {
  /** `[start, end)` of {@link DefinitionEntry.definitionText} in the converted text. */
  start: number;
  end: number;
  /** The numbered point the definition sits in ("1" for GDPR Article 4 point (1)), when there is one. */
  point?: string;
}

/** Table delimiters of plain-text conversions: ObliQA "/Table Start" … "/Table End", "\\start_table\\". */
const TABLE_MARK = /^(?:\/Table (?:Start|End)\b|\\(?:start|end)_table\\)/i;

/**
 * The id of the unit a definition sits in: the heading section, or with a numbered point the unit of that
 * point ("Article 4" + point "1" → "Article 4(1)", as the chunker names it when it reports the unit).
 */
function unitId(unit: Section | null, base: Section | null, point: string | undefined): string {
  const baseId = base?.sectionId ?? "";
  if (point === undefined || !baseId) return baseId;
  if (unit && unit.sectionId.startsWith(baseId) && unit.sectionId.endsWith(`(${point})`)) return unit.sectionId;
  return `${baseId}(${point})`;
}

/**
 * Finds the definitions a document states: the patterns of issue 4 (`‘X’ means`, `The term “X” means`,
 * `X shall mean`, CFR "Term. Text." and 17 U.S.C. 101 "“X” is …" entries in definitions sections, glossary
 * `term<TAB>definition` rows, RFC terminology phrases). `sections` tell which sections are definitions
 * sections and give `sourceSection`; `chunks` give `chunkId`. The definition text is the defining
 * sentence or paragraph, never the whole chunk. Returns entries in document order; never throws.
 */
export function extractDefinitions(doc: ConvertedDocument, sections: Section[], chunks: Chunk[]): ExtractedDefinition[] {
  const map = new DocumentMap(sections, chunks);
  const out: ExtractedDefinition[] = [];
  const ids = new Map<string, number>();
  const titled = new Set<Section>();
  let glossaryTable = false;
  let table: "none" | "pending" | "other" = "none";
  const paras = paragraphs(doc);
  const isHeading = (p: Paragraph) => doc.format === "markdown" && /^\s{0,3}#{1,6}\s/.test(p.text);
  for (let index = 0; index < paras.length; index++) {
    const para = paras[index];
    const line = para.text.trim();
    if (TABLE_MARK.test(line)) {
      glossaryTable = false;
      table = /start/i.test(line) ? "pending" : "none";
      continue;
    }
    if (isGlossaryHeader(line)) {
      glossaryTable = true;
      table = "none";
      continue;
    }
    if (table === "pending" && line.includes("\t")) {
      const cells = line.split("\t").filter((c) => c.trim());
      const definitional = cells.length === 2 && (/^(?:means|has the meaning|refers to)\b/i.test(cells[1].trim()) || cells[1].trim().split(/\s+/).length >= 4);
      if (definitional && map.inDefinitions(map.sectionAt(para.start))) glossaryTable = true;
      table = glossaryTable ? "none" : "other";
    }
    if (doc.format === "markdown" && /^\s{0,3}#{1,6}\s/.test(para.text)) continue;
    const section = map.sectionAt(para.start);
    const base = map.baseSection(section);
    const scope = map.definitionsScope(section);
    const ctx = {
      inDefinitionsSection: scope !== null,
      ownDefinitionsSection: scope === "own",
      inGlossaryTable: glossaryTable,
      inOtherTable: table === "other",
    };
    let found: DefinitionMatch[] = matchDefinitions(para.text, ctx);
    if (found.length === 0 && doc.format === "markdown" && !glossaryTable) found = matchTechnicalTerms(para.text);
    if (base && !titled.has(base) && section === base && doc.format === "markdown") {
      titled.add(base);
      const known = new Set(found.map((m) => normalizeTerm(m.term)));
      for (const t of titleTerms(doc, base, para)) {
        if (!known.has(normalizeTerm(t.term))) found = [...found, { term: t.term, textStart: 0, textEnd: t.end - para.start }];
      }
    }
    for (const m of found) {
      const start = para.start + m.textStart;
      const chunk = map.chunkAt(start);
      const sourceSection = unitId(section, base, m.point);
      const termNormalized = normalizeTerm(m.term);
      if (!termNormalized) continue;
      let end = para.start + m.textEnd;
      if (/:\s*$/.test(para.text.slice(m.textStart, m.textEnd)) && !para.text.slice(m.textEnd).trim()) {
        end = enumeratedPointsEnd(paras, index, start, isHeading) ?? end;
      }
      const baseId = `${doc.sourcePath}#def:${sourceSection}:${termNormalized}`;
      const n = (ids.get(baseId) ?? 0) + 1;
      ids.set(baseId, n);
      out.push({
        id: n === 1 ? baseId : `${baseId}:${n}`,
        term: m.term,
        termNormalized,
        definitionText: doc.text.slice(start, end),
        sourcePath: doc.sourcePath,
        sourceSection,
        chunkId: chunk?.id ?? "",
        start,
        end,
        ...(m.point === undefined ? {} : { point: m.point }),
      });
    }
  }
  return out;
}
