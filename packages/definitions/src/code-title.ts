/**
 * One title of a US code: the United States Code (`usc`, "5 U.S.C.") or the Code of Federal Regulations
 * (`cfr`, "27 CFR").
 */
export interface CodeTitle {
  code: "usc" | "cfr";
  /** Title number as written ("5", "50A"). */
  title: string;
}

/** The name other documents cite a code title by: "5 U.S.C.", "27 CFR". */
export function codeTitleName(t: CodeTitle): string {
  return `${t.title} ${t.code === "cfr" ? "CFR" : "U.S.C."}`;
}

const CITED_USC = /^(?:title\s+(\d+[A-Za-z]?)(?:\s*,?\s*United\s+States\s+Code)?|(\d+[A-Za-z]?)\s+(?:U\.\s?S\.\s?C\.?|USC)(?:\s*A\.?)?)$/i;
const CITED_CFR = /^(?:(\d+[A-Za-z]?)\s+(?:CFR|C\.\s?F\.\s?R\.?)|title\s+(\d+[A-Za-z]?)\s*,?\s*Code\s+of\s+Federal\s+Regulations)$/i;

/**
 * Reads a cited document as the extractor writes it ("title 5", "42 U.S.C.", "27 CFR", "title 5, United
 * States Code") as a code title; a bare "title N" is a title of the United States Code. Null for anything
 * else ("HTTP/1.1", "such title", "RFC 9110"). Never throws.
 */
export function parseCodeTitle(cited: string): CodeTitle | null {
  const s = cited.trim().replace(/\s+/g, " ");
  const usc = CITED_USC.exec(s);
  if (usc) return { code: "usc", title: (usc[1] ?? usc[2]).toUpperCase() };
  const cfr = CITED_CFR.exec(s);
  if (cfr) return { code: "cfr", title: (cfr[1] ?? cfr[2]).toUpperCase() };
  return null;
}

/** The parts of a section the code title of its document is read from (a `Section` or a catalog entry fits). */
export interface CodeTitleEvidence {
  sectionId: string;
  aliases?: string[];
  /** Heading text ("Title 5— GOVERNMENT ORGANIZATION AND EMPLOYEES"). */
  title?: string;
  /** Ancestor headings, outermost first. */
  parentChain?: string[];
}

/** Aliases the chunker gives § sections under a "Title N" heading: "35 U.S.C. 101", "27 CFR 478.11". */
const ALIAS = /^(\d+[A-Za-z]?)\s+(U\.S\.C\.|USC|CFR|C\.F\.R\.)\s+\S/;
const TITLE_HEADING = /^[#\s]*(?:Title|TITLE)\s+(\d+[A-Za-z]?)\b(.*)$/;
const CFR_HEADING = /Code of Federal Regulations|\bC\.?F\.?R\b/i;

/**
 * The code title a document is, from its sections: the citation aliases the chunker gives its § sections
 * ("35 U.S.C. 101", "27 CFR 478.11") when they agree, else one top heading "Title 35—…" (a title of the
 * United States Code unless the heading names the Code of Federal Regulations). Null when the document is
 * not one title of a code, including when its sections name several titles. Never throws.
 */
export function documentCodeTitle(sections: Iterable<CodeTitleEvidence>, documentTitle?: string): CodeTitle | null {
  const fromAliases = new Map<string, CodeTitle>();
  const fromHeadings = new Map<string, CodeTitle>();
  const heading = (text: string | undefined) => {
    const m = text ? TITLE_HEADING.exec(text.trim()) : null;
    if (!m) return;
    const t: CodeTitle = { code: CFR_HEADING.test(m[2]) ? "cfr" : "usc", title: m[1].toUpperCase() };
    fromHeadings.set(codeTitleName(t), t);
  };
  heading(documentTitle);
  for (const s of sections) {
    for (const alias of s.aliases ?? []) {
      const m = ALIAS.exec(alias);
      if (!m) continue;
      const t: CodeTitle = { code: /C\.?F\.?R/.test(m[2]) ? "cfr" : "usc", title: m[1].toUpperCase() };
      fromAliases.set(codeTitleName(t), t);
    }
    const root = s.parentChain?.[0];
    heading(root ?? s.title);
    if (!root) heading(s.sectionId);
  }
  if (fromAliases.size === 1) return [...fromAliases.values()][0];
  if (fromAliases.size > 1) return null;
  return fromHeadings.size === 1 ? [...fromHeadings.values()][0] : null;
}
