/** A definition found in one paragraph; offsets are relative to the paragraph text. */
export interface DefinitionMatch {
  term: string;
  /** `[textStart, textEnd)` of the definition text inside the paragraph. */
  textStart: number;
  textEnd: number;
  /** Numbered point the definition sits in ("1" for GDPR "(1) ‘personal data’ means …"). */
  point?: string;
}

/** What the matcher knows about where a paragraph sits. */
export interface ParagraphContext {
  /** The paragraph is in a section whose heading names definitions ("Definitions", "Meaning of terms"). */
  inDefinitionsSection: boolean;
  /** The section's own heading names definitions (not only its parent's): enables `Term. Text.` entries. */
  ownDefinitionsSection?: boolean;
  /** The paragraph is a row of a glossary table (after a "Defined Terms<TAB>Definitions" header). */
  inGlossaryTable: boolean;
  /** The paragraph is a row of some other table (e.g. "Country<TAB>Index"): its rows are not definitions. */
  inOtherTable?: boolean;
}

const ENUMERATOR = /^\s*(?:[-*+>]\s+)*(?:\((\w{1,6})\)|(\d{1,3}|[a-z]|[ivxlc]{1,6})[.)])\s+/;
const OPEN_Q = "‘“\"'";
const CLOSE_Q = "’”\"'";
const QUOTED = `[${OPEN_Q}]([^${OPEN_Q}${CLOSE_Q}\\n]{1,100}?)[${CLOSE_Q}]`;
const MEANS = "(?:means|shall mean|mean|has the meaning|have the meaning|is defined as|are defined as|shall include|includes)";
const QUOTED_MEANS = new RegExp(
  `(?:\\b[Tt]he\\s+(?:term|expression|phrase|word|terms)\\s+)?${QUOTED}(?:\\s*\\([^)\\n]{0,60}\\))?,?\\s+${MEANS}\\b`,
  "gu",
);
const LEADING_QUOTED = new RegExp(
  `^(?:(?:An?|The|As used in this [\\w ]{1,40},)\\s+)?(?:(?:term|expression)\\s+)?${QUOTED}[^\\n]{0,200}?\\b(?:is|are|means|mean|includes?|shall)\\b`,
  "u",
);
const PLAIN_MEANS = /^(?:The\s+term\s+)?([A-Z0-9][\w’'()/-]*(?:\s+[\w’'()/-]+){0,7}?)\s+(?:means(?! (?:of|for|by)\b)|shall mean|is defined as)\b/u;
const STOP_FIRST =
  /^(?:this|that|it|its|these|those|such|which|what|he|she|they|there|here|each|any|all|no|nothing|so|thus|therefore|who|where|when|otherwise|a|an|the|if|in|for|by|although|however|whereas|while|since|because|unless|as|although)$/i;
const VERBS = /\b(?:shall|is|are|must|may|means|mean|will|has|have|was|were|should|would|can|could|includes?|does|do)\b/i;
const ABBREVIATION_TERM = /^((?:[A-Z]\.){3,}(?=\s)|[A-Z]{2,8}(?=\.\s))\.?\s+(?=[A-Z(])/u;
const HEAD_SENTENCE = /^(\*\*)?([A-Z0-9“"‘][^\n]{0,140}?)(\*\*)?\s*(?:(?<![A-Z]\.[A-Z]|\b[A-Z]|\b(?:No|Co|Inc|Ltd|e\.g|i\.e|etc|U\.S|v|vs))\.|—|:|\s[-–]\s)\s*(?=\S)/u;
const HEAD_LABEL = /^(\*\*)?([A-Za-z0-9“"‘][^\n:]{0,60}?)(\*\*)?\s*(?::|\s[-–—]\s)\s*(?=\S)/u;
const GLOSSARY_ROW = /^([^\t]{1,150}?)\s*\t+\s*(\S[^]*)$/u;
const ID_LIKE =
  /^(?:\(?[a-z]{1,4}\)|\(?[ivxlc]{1,6}\)|\(\w{1,6}\)|\d+(?:\.\w+)*\.?(?:\(\w+\)\.?)*|[A-Z]{1,5}\d+(?:\.\w+)+\.?|APP\d+|[a-z]\.|(?:part|rule|app|chapter|schedule|article|section|annex|appendix|guidance|table|note|figure)\s*[\dIVX(].*)$/i;

function enumerator(text: string): { label?: string; offset: number } {
  const m = ENUMERATOR.exec(text);
  if (!m) return { offset: 0 };
  return { label: m[1] ?? m[2], offset: m[0].length };
}

function cleanTerm(term: string): string {
  return term
    .replace(/\*\*|__/g, "")
    .replace(/\s+/g, " ")
    .replace(/^[\s,;:]+|[\s,;:]+$/g, "")
    .trim();
}

function wordCount(s: string): number {
  return s.split(/\s+/).filter(Boolean).length;
}

/** True when a table cell is a structural id ("1.2.1", "(a)", "APP2.A2.1.1") rather than a term. */
export function isIdLike(cell: string): boolean {
  return ID_LIKE.test(cell.trim());
}

/** True when a tab-separated row is a glossary header ("Defined Terms<TAB>Definitions"). */
export function isGlossaryHeader(line: string): boolean {
  const cells = line.split("\t").map((c) => c.trim().toLowerCase());
  return (
    cells.length >= 2 &&
    /^(?:defined\s+)?(?:terms?|words?|expressions?|abbreviations?)$/.test(cells[0]) &&
    /^(?:definitions?|meanings?|descriptions?)$/.test(cells[cells.length - 1])
  );
}

/**
 * Finds the definitions a paragraph states. Patterns that are reliable anywhere (`‘X’ means`, `The term “X”
 * means`, `X shall mean`) always apply; patterns that are noisy in running text (`Term. Text.`, `X: Y`,
 * `“X” is …`, `term<TAB>definition`) apply only inside definitions sections or glossary tables.
 */
export function matchDefinitions(paragraph: string, ctx: ParagraphContext): DefinitionMatch[] {
  const { label, offset } = enumerator(paragraph);
  const out: DefinitionMatch[] = [];
  const point = label === undefined ? {} : { point: label };

  const tab = GLOSSARY_ROW.exec(paragraph);
  if (tab && (ctx.inGlossaryTable || (ctx.inDefinitionsSection && !ctx.inOtherTable))) {
    const term = cleanTerm(tab[1]);
    if (term && !isIdLike(term) && !isGlossaryHeader(paragraph) && wordCount(term) <= 16) {
      return [{ term, textStart: 0, textEnd: paragraph.length }];
    }
    return [];
  }

  if (ctx.inDefinitionsSection && label === undefined) {
    const leading = leadingDefinition(paragraph, ctx.ownDefinitionsSection ?? true);
    if (leading) return [leading];
  }

  const quoted: Array<{ term: string; at: number }> = [];
  for (const m of paragraph.matchAll(QUOTED_MEANS)) {
    const term = cleanTerm(m[1]);
    if (term && wordCount(term) <= 12) quoted.push({ term, at: m.index ?? 0 });
  }
  if (quoted.length > 0) {
    quoted.forEach((q, k) => {
      const next = quoted[k + 1]?.at ?? paragraph.length;
      const startsPara = q.at <= offset + 2;
      const textStart = startsPara ? Math.max(q.at, offset) : sentenceStart(paragraph, q.at);
      out.push({ term: q.term, textStart, textEnd: trimEnd(paragraph, next), ...point });
    });
    return out;
  }

  const body = paragraph.slice(offset);
  const plain = PLAIN_MEANS.exec(body);
  if (plain) {
    const term = cleanTerm(plain[1]);
    const first = term.split(/\s+/)[0];
    if (!STOP_FIRST.test(first) && !VERBS.test(term) && (ctx.inDefinitionsSection || wordCount(term) <= 5)) {
      return [{ term, textStart: offset, textEnd: trimEnd(paragraph, paragraph.length), ...point }];
    }
  }

  if (ctx.inDefinitionsSection && label !== undefined) {
    const lead = LEADING_QUOTED.exec(body);
    const term = lead ? cleanTerm(lead[1]) : "";
    if (term && wordCount(term) <= 12) {
      return [{ term, textStart: offset, textEnd: trimEnd(paragraph, paragraph.length), ...point }];
    }
  }
  return out;
}

/** Definitions-section entries that start a paragraph: `A “X” is …` (17 U.S.C. 101), CFR `Term. Text.`, `X: Y`. */
function leadingDefinition(paragraph: string, own: boolean): DefinitionMatch | null {
  const end = trimEnd(paragraph, paragraph.length);
  const lead = LEADING_QUOTED.exec(paragraph);
  if (lead) {
    const term = cleanTerm(lead[1]);
    if (term && wordCount(term) <= 12) return { term, textStart: 0, textEnd: end };
  }
  const abbr = ABBREVIATION_TERM.exec(paragraph);
  if (abbr) return { term: abbr[1], textStart: 0, textEnd: end };
  const head = (own ? HEAD_SENTENCE : HEAD_LABEL).exec(paragraph);
  if (!head) return null;
  const term = cleanTerm(head[2]);
  const ok =
    term &&
    wordCount(term) <= (own ? 14 : 5) &&
    !VERBS.test(term) &&
    !/[.;!?]$/.test(term) &&
    !/^(?:for|in|when|where|as|the following|note|see)\b/i.test(term);
  return ok ? { term, textStart: 0, textEnd: end } : null;
}

function sentenceStart(text: string, at: number): number {
  const before = text.slice(0, at);
  const m = /(?:[.;:!?]\s+|\n)(?=[^.;:!?\n]*$)/.exec(before);
  return m ? (m.index ?? 0) + m[0].length : 0;
}

function trimEnd(text: string, end: number): number {
  let e = end;
  while (e > 0 && /\s/.test(text[e - 1])) e--;
  return e;
}
