import type { Chunk, ConvertedDocument, CrossReference, Section } from "@hierdoc/core";
import { DocumentMap, paragraphs } from "./document-map.js";
import { documentCodeTitle, type CodeTitle } from "./code-title.js";
import { BARE_CITATION, BRACKET_BEFORE, CITATION, CODE_BEFORE, CODE_CITATION, kindOf, splitIds, type CitationKind } from "./citation-grammar.js";

/** A cross-reference with where it occurs: the chunk and `[start, end)` of the citing text. */
export type LocatedCrossReference = CrossReference & { chunkId: string; start: number; end: number };

const PREFIX: Partial<Record<CitationKind, string>> = {
  article: "Article ",
  chapter: "Chapter ",
  part: "Part ",
  appendix: "Appendix ",
  annex: "Annex ",
  schedule: "Schedule ",
};

/** The code title a document is ("Title 17— COPYRIGHTS", "17 U.S.C. 101" aliases), so "17 U.S.C. 101" stays internal. */
function ownTitle(doc: ConvertedDocument, sections: Section[]): CodeTitle | null {
  const found = documentCodeTitle(sections, doc.title);
  if (found) return found;
  const m = /^[#\s]*(?:Title|TITLE)\s+(\d+[A-Za-z]?)\b/m.exec(doc.text.slice(0, 200));
  return m ? { code: "usc", title: m[1].toUpperCase() } : null;
}

function canonical(kind: CitationKind, id: string, sectionStyle: string): string {
  const clean = id.replace(/\s+\(/g, "(");
  if (PREFIX[kind]) return `${PREFIX[kind]}${clean}`;
  return `${sectionStyle}${clean}`;
}

type Level = "n" | "r" | "l" | "L";

function levelOf(group: string, romanContext: boolean): Level {
  if (/^\d/.test(group)) return "n";
  if (/^[ivxl]+$/.test(group) && (group.length > 1 || romanContext)) return "r";
  if (/^[IVXL]+$/.test(group) && group.length > 1) return "r";
  return /^[a-z]/.test(group) ? "l" : "L";
}

/**
 * "9.1.1(3) or (4)" → "9.1.1(3)", "9.1.1(4)"; "(a)(6), (f)" → "(a)(6)", "(f)": a single bracketed id continues
 * the previous id by replacing its last group of the same kind (number, letter, roman, capital letter).
 */
function expandRelativeIds(ids: string[]): string[] {
  const out: string[] = [];
  for (const raw of ids) {
    const id = raw.replace(/\s+(?=\()/g, "");
    const prev = out[out.length - 1];
    const groups = id.match(/\(/g)?.length ?? 0;
    if (!id.startsWith("(") || !prev || groups !== 1) {
      out.push(id);
      continue;
    }
    const prevGroups = [...prev.matchAll(/\(([^()]*)\)/g)];
    const roman = prevGroups.some((g) => /^[ivxl]{2,}$/.test(g[1]));
    const level = levelOf(id.slice(1, -1), roman);
    const same = [...prevGroups].reverse().find((g) => levelOf(g[1], roman) === level);
    out.push(same ? prev.slice(0, same.index) + id : prev + id);
  }
  return out;
}

const TABLE_ROW = /^\s*\|(.*)\|\s*$/;
const REF_COLUMN = /^(?:sections?|see|ref(?:erence)?s?|defined in|specification)$/i;
const BARE_ID = /^(?:[A-Z](?:\.\d+)*|\d+(?:\.\d+)*)$/;

/**
 * Section ids in the cells of a markdown table column headed "Section", "See" or "Reference" (registry
 * tables of RFCs: `| GET | … | 9.3.1 |`). Offsets are relative to the table text.
 */
function tableReferenceCells(block: string): Array<{ id: string; at: number }> {
  const lines = block.split("\n");
  const header = TABLE_ROW.exec(lines[0] ?? "");
  if (!header || lines.length < 3 || !/^\s*\|[\s:|-]+\|\s*$/.test(lines[1])) return [];
  const columns = header[1].split("|").map((c) => c.trim());
  const wanted = columns.map((c, i) => (REF_COLUMN.test(c) ? i : -1)).filter((i) => i >= 0);
  if (wanted.length === 0) return [];
  const out: Array<{ id: string; at: number }> = [];
  let offset = lines[0].length + 1 + lines[1].length + 1;
  for (const line of lines.slice(2)) {
    const row = TABLE_ROW.exec(line);
    if (row) {
      const cells = row[1].split("|");
      let at = offset + line.indexOf("|") + 1;
      cells.forEach((cell, i) => {
        if (wanted.includes(i)) {
          for (const m of cell.matchAll(/[^,;\s]+/g)) {
            const id = m[0].replace(/^Section\s+/i, "").replace(/\.$/, "");
            if (BARE_ID.test(id)) out.push({ id, at: at + (m.index ?? 0) });
          }
        }
        at += cell.length + 1;
      });
    }
    offset += line.length + 1;
  }
  return out;
}

/** Joins a relative id ("(b)", "3") to the section it is relative to ("§ 101" → "§ 101(b)"). */
function relative(base: string, id: string): string {
  const sub = id.startsWith("(") ? id : `(${id})`;
  return `${base}${sub.replace(/\s+/g, "")}`;
}

/**
 * Finds the cross-references a document makes: "Section 5", "§ 4.2", "Article 6(1)", "paragraph 3 of
 * Article 9", "points (a) and (b) of Article 6(1)", "Rule 2.14", "subsection (b)" (relative to the current
 * section), "Section 11.2 of [HTTP/1.1]" and "[URI], Section 3.2.2" (external), "section 553 of title 5",
 * "42 U.S.C. 11301", "see Chapter 3", and ranges ("Articles 15 to 22" gives one reference per article).
 * References are unresolved: `targetSectionId` is the cited id in canonical form; use
 * {@link SectionResolver} to resolve them. Never throws.
 */
export function extractCrossReferences(doc: ConvertedDocument, sections: Section[], chunks: Chunk[]): LocatedCrossReference[] {
  const map = new DocumentMap(sections, chunks);
  const sectionStyle = sections.some((s) => s.sectionId.startsWith("§")) ? "§ " : "";
  const title = ownTitle(doc, sections);
  const ownName = (doc.sourcePath.split(/[\\/]/).pop() ?? "").toLowerCase();
  const out: LocatedCrossReference[] = [];
  for (const para of paragraphs(doc)) {
    if (doc.format === "markdown" && /^\s{0,3}#{1,6}\s/.test(para.text)) continue;
    const taken: Array<[number, number]> = [];
    const emit = (at: number, len: number, refs: Array<Omit<LocatedCrossReference, "chunkId" | "start" | "end" | "fromSectionId">>) => {
      const start = para.start + at;
      const section = map.baseSection(map.sectionAt(start));
      const chunk = map.chunkAt(start);
      taken.push([at, at + len]);
      for (const r of refs) {
        out.push({ ...r, fromSectionId: section?.sectionId ?? "", chunkId: chunk?.id ?? "", start, end: start + len });
      }
    };
    for (const cell of tableReferenceCells(para.text)) {
      emit(cell.at, cell.id.length, [{ text: cell.id, targetSectionId: canonical("section", cell.id, sectionStyle), external: false }]);
    }
    for (const m of para.text.matchAll(CODE_CITATION)) {
      const g = m.groups ?? {};
      const code = /C\.?F\.?R/.test(g.code) ? "CFR" : "U.S.C.";
      const internal = title !== null && title.code === (code === "CFR" ? "cfr" : "usc") && g.title.toUpperCase() === title.title;
      const unit = /^[Cc]hapter/.test(g.unit ?? "") ? "Chapter " : /^[Pp]art/.test(g.unit ?? "") ? "Part " : "§ ";
      const sec = `${unit}${g.sec}`;
      emit(m.index ?? 0, m[0].length, [
        internal
          ? { text: m[0], targetSectionId: sec, external: false }
          : { text: m[0], targetSectionId: sec, external: true, citedDocument: code === "CFR" ? `${g.title} CFR` : `title ${g.title}` },
      ]);
    }
    for (const m of para.text.matchAll(CITATION)) {
      const at = m.index ?? 0;
      if (taken.some(([a, b]) => at < b && at + m[0].length > a)) continue;
      const g = m.groups ?? {};
      let kind = kindOf(g.kind);
      const split = splitIds(g.ids);
      if (kind === "relative" && /^\d+\.\d/.test(split[0] ?? "")) kind = "section";
      const bracketOnly = /^(?:points?|subparagraphs?|sub-paragraphs?|items?|subclauses?)$/i.test(g.kind);
      // "Regulations 2015" is a year; "section 1905 of title 44" and a code title's own "§ 2001" are sections.
      const codeSection = !!(g.title || g.thistitle) || (title !== null && /^(?:§|[Ss]ec)/.test(g.kind));
      const ids = expandRelativeIds(split).filter(
        (id) =>
          (kind === "relative" || !id.startsWith("(")) &&
          !(bracketOnly && !id.startsWith("(")) &&
          !(kind === "section" && /^(?:19|20)\d\d$/.test(id) && !codeSection),
      );
      if (ids.length === 0) continue;
      const window = para.text.slice(Math.max(0, at - 60), at);
      const before = BRACKET_BEFORE.exec(window);
      const codeBefore = CODE_BEFORE.exec(window)?.[1];
      const foreignCode = codeBefore && !/^(?:I|II|III|IV|V|VI|VII|VIII|IX|X|UAE|ADGM|US|EU|UK)$/.test(codeBefore) && !ownName.startsWith(codeBefore.toLowerCase()) ? codeBefore : undefined;
      const cited =
        g.bracket ??
        g.rfc?.replace(/\s+/, " ") ??
        g.law ??
        g.such ??
        g.guide ??
        g.treaty ??
        g.code ??
        g.code2?.replace(/^of\s+(?:the\s+)?/, "") ??
        before?.[1] ??
        (g.own || g.thistitle || g.title || g.art || g.chapter ? undefined : foreignCode);
      const fromSection = map.baseSection(map.sectionAt(para.start + at))?.sectionId ?? "";
      const text = m[0].trim();
      let refs: Array<Omit<LocatedCrossReference, "chunkId" | "start" | "end" | "fromSectionId">>;
      if (g.title) {
        const doc = g.title.replace(/\s+/g, " ").toLowerCase();
        const same = title !== null && title.code === "usc" && doc === `title ${title.title.toLowerCase()}`;
        refs = ids.map((id) => ({
          text,
          targetSectionId: kind === "section" || kind === "relative" ? `§ ${id.replace(/\s+\(/g, "(")}` : canonical(kind, id, ""),
          external: !same,
          ...(same ? {} : { citedDocument: doc }),
        }));
      } else if (g.thistitle) {
        refs = ids.map((id) => ({
          text,
          targetSectionId: kind === "section" || kind === "relative" ? `§ ${id.replace(/\s+\(/g, "(")}` : canonical(kind, id, ""),
          external: false,
        }));
      } else if (g.art || g.chapter) {
        const base = (g.art ?? g.chapter).replace(/^Articles/, "Article").replace(/\s+\(/g, "(");
        refs = ids.map((id) => ({
          text,
          targetSectionId: kind === "relative" ? relative(base, id) : canonical(kind, id, sectionStyle),
          external: false,
        }));
      } else if (cited) {
        refs = ids.map((id) => ({
          text,
          targetSectionId: canonical(kind === "relative" ? "section" : kind, id, g.bracket || g.rfc || before ? "" : sectionStyle),
          external: true,
          citedDocument: cited.trim().replace(/\s+(?:and|or|of|the)$/, ""),
        }));
      } else if (kind === "relative") {
        if (!fromSection) continue;
        const paragraph = g.para ? `(${g.para.replace(/^paragraph\s+/, "")})` : "";
        const base = fromSection.replace(/(?:\(\w+\))+$/, "") + paragraph;
        refs = ids.map((id) => ({ text, targetSectionId: relative(base, id), external: false }));
      } else {
        refs = ids.map((id) => ({ text, targetSectionId: canonical(kind, id, sectionStyle), external: false }));
      }
      emit(at, m[0].trimEnd().length, refs);
    }
    if (doc.format !== "text") continue;
    for (const m of para.text.matchAll(BARE_CITATION)) {
      const at = m.index ?? 0;
      if (taken.some(([a, b]) => at < b && at + m[0].length > a)) continue;
      const text = m[0].trim();
      const ids = expandRelativeIds(splitIds(m.groups?.ids ?? ""));
      emit(at, m[0].trimEnd().length, ids.map((id) => ({ text, targetSectionId: canonical("section", id, sectionStyle), external: false })));
    }
  }
  return out;
}
