/** What kind of unit a citation names; decides the canonical prefix of the target id. */
export type CitationKind =
  | "section"
  | "article"
  | "chapter"
  | "part"
  | "appendix"
  | "annex"
  | "schedule"
  | "relative";

const KIND_WORDS: Array<[RegExp, CitationKind]> = [
  [/^(?:sections?|§§?|secs?\.|rules?|regulations?|clauses?)$/i, "section"],
  [/^(?:articles?|arts?\.)$/i, "article"],
  [/^chapters?$/i, "chapter"],
  [/^parts?$/i, "part"],
  [/^(?:appendix|appendices|app\.?)$/i, "appendix"],
  [/^annex(?:es)?$/i, "annex"],
  [/^schedules?$/i, "schedule"],
  [/^(?:paragraphs?|subsections?|subparagraphs?|points?|sub-paragraphs?|subclauses?|items?)$/i, "relative"],
];

/** Maps a citing word ("Articles", "§", "subsection") to its {@link CitationKind}. */
export function kindOf(word: string): CitationKind {
  for (const [re, kind] of KIND_WORDS) if (re.test(word.trim())) return kind;
  return "section";
}

const SUB = String.raw`(?:\s?\((?:[A-Za-z]{1,4}|\d{1,3}[A-Za-z]?)\))`;
/** One cited id: "6(1)(a)", "9.3.1", "B.1", "478.11", "(b)", "III", "A4.3.2". */
export const ID = String.raw`(?:(?:[A-Z]{1,3}\d+(?:\.\d+)*|\d+[A-Za-z]{0,2}(?:[.–-]\d+[A-Za-z]?)*|[A-Z](?:\.\d+)+|[A-Z](?![\w.])|[IVXLC]{1,6}(?![\w]))${SUB}*|${SUB}+)`;
const SP = String.raw`[\s\u200E\u200F\u202A-\u202E]`;
const SEP = String.raw`(?:${SP}*,${SP}*(?:and${SP}+|or${SP}+)?|${SP}+(?:and|or|to|through|and/or)${SP}+|${SP}*[–-]${SP}*)`;
const KIND =
  String.raw`(?:Sections?|sections?|SECTION|§§?|[Ss]ecs?\.|Rules?|rules?|Regulations?|Clauses?|clauses?|Articles?|articles?|Arts?\.|Chapters?|chapters?|CHAPTER|Parts?|parts?|PART|Appendix|Appendices|appendix|App\.?|Annex(?:es)?|annex|Schedules?|schedule|[Pp]aragraphs?|[Ss]ubsections?|[Ss]ubparagraphs?|[Pp]oints?|[Ss]ub-paragraphs?)`;
const TAIL = String.raw`(?:\s+(?:of|in|under)\s+(?:the\s+)?(?:\[(?<bracket>[^\]\n]{1,40})\]|(?<rfc>RFC\s?\d{1,5})|(?<title>[Tt]itle\s+\d+[A-Za-z]?)(?!\s+of)|(?<thistitle>this\s+[Tt]itle)|(?<guide>the\s+(?:Guidance|Guidelines|Handbook|Standards?)\b(?:\s+(?:on|for)(?:\s+(?:[A-Z][\w-]*|and|of)){1,6})?)|(?<such>(?:such|that)\s+(?:title|Code|Act|Directive|Regulation|Decision|Treaty|Convention|Law)\b|the\s+(?:Charter|Treaty|Convention)\b(?:\s+on\s+[A-Z][\w ]{2,60}?(?=[,.;)]))?)|(?<own>(?:this|these)\s+(?:Regulation|Directive|Act|part|chapter|subchapter|section|Rulebook|Rules|Regulations)\b)|(?<art>Articles?\s+\d+[a-z]?${SUB}*)|(?<para>paragraph\s+\d+[a-z]?)(?!\s+of\s+Article)|(?<chapter>Chapter\s+[IVXLC\d]+)|(?<law>Public\s+Law\s+\d+[–-]\d+|(?:[A-Z][\w.'’-]*\s+(?:(?:of|and|for|on|to|the)\s+)?){0,10}Act(?:\s+of\s+(?:[A-Z][a-z]+\s+\d{1,2},\s+)?\d{4})?|Regulation\s+\(E[CU]\)\s+(?:No\s+)?\d+\/\d+|Directive\s+\d+\/\d+\/E[CU]+)|(?<code>[A-Z]{2,6})(?![\w.]))|\s+(?<code2>of\s+(?:the\s+)?[A-Z]{3,6})(?=\W)|\s+(?<treaty>TFEU|TEU)\b)?`;

/** `Section 5`, `§§ 4.2 and 4.3`, `Articles 15 to 22`, `paragraph 3 of Article 9`, `Section 11.2 of [HTTP/1.1]`. */
export const CITATION = new RegExp(String.raw`(?<![\w§])(?<kind>${KIND})(?:(?<=§)${SP}*|${SP}+)(?<ids>${ID}(?:${SEP}${ID})*)${TAIL}`, "gu");
/** `42 U.S.C. 11301`, `15 U.S.C. 278g–3`, `27 CFR 478.11`. */
export const CODE_CITATION =
  /\b(?<title>\d{1,2})\s+(?<code>U\.\s?S\.\s?C\.|USC|CFR|C\.F\.R\.)\s*(?<unit>§+\s*|[Pp]arts?\s+|[Cc]hapters?\s+)?(?<sec>\d+[A-Za-z]*(?:[.–-]\d+[A-Za-z]*)*(?:\(\w{1,4}\))*)/gu;
/**
 * A bare rule number after a preposition, as rulebooks cite each other's units ("under 7.1.2(1)(c)",
 * "in 3.2.4 and 3.2.5"): two or more dots, or one dot and a bracketed point. Used for plain-text documents only.
 */
export const BARE_CITATION = new RegExp(
  String.raw`(?<=\b(?:of|in|under|see|per|with|to|and|or|by|at|also|from|purposes of|accordance with|pursuant to)${SP}+)(?<ids>(?:\d{1,3}(?:\.\d{1,3}[A-Z]?){2,5}|\d{1,3}\.\d{1,3}[A-Z]?(?=\())${SUB}*(?:${SEP}(?:\d{1,3}(?:\.\d{1,3}[A-Z]?){1,5}${SUB}*|${SUB}+))*)(?![\w%]|\.\d)`,
  "gu",
);

/** A rulebook code just before the citation: "GEN Rule 5.2.14", "MKT Rule 4.3.1(13)". */
export const CODE_BEFORE = /(?:^|[^\w])([A-Z]{2,5}),?\s*$/u;

/** `[URI], Section 3.2.2` — the cited document comes first. */
export const BRACKET_BEFORE = /\[([^\]\n]{1,40})\],?\s*$/u;

/** Splits the id list of a citation into single ids, expanding ranges ("15 to 22", "8.2 to 8.4"). */
export function splitIds(ids: string): string[] {
  const parts = ids.split(new RegExp(`(${SEP})`, "u"));
  const out: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const id = parts[i].replace(/[\s\u200E\u200F\u202A-\u202E]+/g, " ").trim().replace(/\.$/, "");
    if (!id) continue;
    const sep = (parts[i - 1] ?? "").replace(/[\s\u200E\u200F\u202A-\u202E]+/g, " ").trim().toLowerCase();
    const prev = out[out.length - 1];
    if (prev !== undefined && /^(?:to|through|[–-])$/.test(sep)) out.push(...expandRange(prev, id).slice(1));
    else out.push(id);
  }
  return out;
}

function expandRange(from: string, to: string): string[] {
  const a = /^(.*?)(\d+)$/.exec(from);
  const b = /^(.*?)(\d+)$/.exec(to);
  if (!a || !b || a[1] !== b[1]) return [from, to];
  const lo = Number(a[2]);
  const hi = Number(b[2]);
  if (!(hi > lo) || hi - lo > 60) return [from, to];
  const out: string[] = [];
  for (let n = lo; n <= hi; n++) out.push(`${a[1]}${n}`);
  return out;
}
