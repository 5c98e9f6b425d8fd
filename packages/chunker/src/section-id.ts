/** A canonical section id and the other spellings a user may type for it. */
export interface SectionIdentity {
  id: string;
  aliases: string[];
}

const DIVISION_WORDS: Record<string, string> = {
  title: "Title",
  subtitle: "Subtitle",
  part: "Part",
  subpart: "Subpart",
  chapter: "Chapter",
  subchapter: "Subchapter",
  division: "Division",
  book: "Book",
  schedule: "Schedule",
  appendix: "Appendix",
  annex: "Annex",
  article: "Article",
  section: "Section",
  rule: "Rule",
  regulation: "Regulation",
};

const SECTION_SIGN = /^§{1,2}\s*([0-9][0-9A-Za-z.\-–]*?)\.?(?=[\s\]—–:]|$)/;
const SECTIONS_SIGN = /^§§\s*(\d\w*(?:\.\w+)*(?:\s*(?:,|and|to|through|–|-)\s*\d\w*(?:\.\w+)*)+)\.?(?=[\s\]]|$)/;
const ARTICLE = /^(?:article|art\.?)\s+(\d+[a-z]?)(?=[\s.:—–-]|$)/i;
const DIVISION =
  /^(title|subtitle|part|subpart|chapter|subchapter|division|book|schedule|appendix|annex|section|rule|regulation)\s+(\d+(?:\.\d+)*[A-Za-z]?|[IVXLCDM]+|[A-Z])\.?(?=[\s.:—–-]|$)/i;
const APPENDIX_SUB = /^appendix\s+([A-Z](?:\.\d+)+)\.?(?=\s|$)/i;
const DOTTED = /^(\d+(?:\.\d+)*)\.?(?=\s|$)/;
const LETTERED = /^([A-Z](?:\.\d+)+)\.?(?=\s|$)/;
// The label before the parentheses is one run of word characters and dots ("2.1.1.", "12A", "Art 5a.");
// written without nested quantifiers so a long dotted label ("1.1.1.…") cannot backtrack exponentially.
const UNIT = /^((?:\d[\w.]*|[A-Za-z]+\s?\d+[A-Z]?\.[\w.]*)(?:\(\w{1,4}\)\.?)+)(?=\s|$)/;
const PAREN = /^\((\w{1,5})\)(?=\s|$)/;

function uniq(id: string, aliases: string[]): string[] {
  const out: string[] = [];
  for (const a of aliases) if (a !== id && a.length > 0 && !out.includes(a)) out.push(a);
  return out;
}

/**
 * Derives the canonical id and aliases of a heading or unit label.
 *
 * "Article 17 — Right to erasure" → `{id: "Article 17", aliases: ["Art. 17", "17", …]}`;
 * "§ 478.11 Meaning of terms." → "§ 478.11"; "9.3.1. GET" → "9.3.1"; "2.1.1.(1)" → "2.1.1.(1)";
 * "CHAPTER II— …" → "Chapter II". Returns `null` when the heading carries no number. Never throws.
 */
export function sectionIdFromHeading(heading: string): SectionIdentity | null {
  const h = heading.replace(/^[\s\uFEFF[]+/, "");
  let m = UNIT.exec(h);
  if (m) {
    const id = m[1];
    const compact = id.replace(/\.(?=\()/g, "").replace(/\.$/, "");
    return { id, aliases: uniq(id, [compact, id.replace(/\.$/, "")]) };
  }
  m = SECTIONS_SIGN.exec(h);
  if (m) {
    const nums = m[1].split(/\s*(?:,|and|to|through|–|-)\s*/).filter(Boolean);
    const id = `§ ${m[1]}`;
    return { id, aliases: uniq(id, [`§§ ${m[1]}`, ...nums.flatMap((n) => [`§ ${n}`, n])]) };
  }
  m = SECTION_SIGN.exec(h);
  if (m) {
    const n = m[1];
    return { id: `§ ${n}`, aliases: uniq(`§ ${n}`, [n, `§${n}`, `Section ${n}`, `section ${n}`, `Sec. ${n}`]) };
  }
  m = ARTICLE.exec(h);
  if (m) {
    const n = m[1];
    return { id: `Article ${n}`, aliases: uniq(`Article ${n}`, [`Art. ${n}`, `Art ${n}`, `article ${n}`, n]) };
  }
  m = APPENDIX_SUB.exec(h);
  if (m) {
    const n = m[1];
    return { id: `Appendix ${n}`, aliases: uniq(`Appendix ${n}`, [n, `${n}.`, `Section ${n}`, `appendix ${n}`]) };
  }
  m = DIVISION.exec(h);
  if (m) {
    const word = DIVISION_WORDS[m[1].toLowerCase()];
    const n = m[2];
    const id = `${word} ${n}`;
    const aliases = [m[1] !== word ? `${m[1]} ${n}` : "", id.toLowerCase(), id.toUpperCase()];
    if (word === "Section") aliases.push(`Sec. ${n}`, n);
    if (word === "Rule" || word === "Regulation") aliases.push(n);
    if (word === "Appendix") aliases.push(`App. ${n}`, `APP${n}`);
    return { id, aliases: uniq(id, aliases) };
  }
  m = DOTTED.exec(h);
  if (m) {
    const n = m[1];
    return { id: n, aliases: uniq(n, [`${n}.`, `Section ${n}`, `section ${n}`]) };
  }
  m = LETTERED.exec(h);
  if (m) {
    const n = m[1];
    return { id: n, aliases: uniq(n, [`${n}.`, `Appendix ${n}`, `Section ${n}`]) };
  }
  m = PAREN.exec(h);
  if (m) return { id: `(${m[1]})`, aliases: [] };
  return null;
}

/**
 * Aliases of a paragraph id built from its section's id and alias set plus the paragraph path,
 * e.g. "§ 203" + "(a)(1)" → ["Section 203(a)(1)", "203(a)(1)", …].
 */
export function paragraphAliases(sectionId: string, sectionAliases: string[], path: string): string[] {
  return uniq(
    sectionId + path,
    sectionAliases.map((a) => a + path),
  );
}

/** Extra aliases of a section from an ancestor "Title N" ("35 U.S.C. 101"), when it is a § section. */
export function citationAliases(id: string, ancestorIds: string[], isCfr: boolean): string[] {
  const m = /^§ (.+)$/.exec(id);
  if (!m) return [];
  const title = ancestorIds.map((a) => /^Title (\d+)$/.exec(a)).find((x) => x !== null);
  if (!title) return [];
  return isCfr ? [`${title[1]} CFR ${m[1]}`, `${title[1]} C.F.R. ${m[1]}`] : [`${title[1]} U.S.C. ${m[1]}`, `${title[1]} USC ${m[1]}`];
}
