/** A section id split into a canonical kind ("section", "article", …; null when bare) and its number. */
export interface ParsedSectionId {
  kind: string | null;
  /** Normalised number: lowercase, no spaces, no "." before "(", no trailing "." ("2.1.1(1)", "203(a)(1)"). */
  number: string;
}

/** A section id found inside a query. */
export interface FoundSectionId extends ParsedSectionId {
  /** The text as written ("Art. 4(11)"). */
  text: string;
  /** The cited code when written as a citation: "35 U.S.C.", "27 CFR". */
  code?: string;
  start: number;
  end: number;
}

const KIND_SYNONYMS: Array<[string, RegExp]> = [
  ["section", /^(?:sections?|secs?\.?|ss?\.|§§?|subsections?)$/i],
  ["article", /^(?:articles?|arts?\.?)$/i],
  ["rule", /^(?:rules?|r\.)$/i],
  ["paragraph", /^(?:paragraphs?|paras?\.?|¶)$/i],
  ["chapter", /^(?:chapters?|chap\.|ch\.)$/i],
  ["part", /^(?:parts?|pt\.)$/i],
  ["title", /^titles?$/i],
  ["annex", /^annex(?:es)?$/i],
  ["appendix", /^(?:appendix|appendices|app\.)$/i],
  ["schedule", /^(?:schedules?|sch\.)$/i],
  ["recital", /^recitals?$/i],
  ["clause", /^(?:clauses?|cl\.)$/i],
];

const KIND = String.raw`(?:subsections?|sections?|secs?\.?|ss?\.|§§?|articles?|arts?\.?|rules?|r\.|paragraphs?|paras?\.?|¶|chapters?|chap\.|ch\.|parts?|pt\.|titles?|annex(?:es)?|appendix|appendices|app\.|schedules?|sch\.|recitals?|clauses?|cl\.)`;
const PAREN = String.raw`(?:\s?\((?:[a-z]{1,4}|\d{1,3})\))`;
const COMPONENT = String.raw`(?:[a-z]{0,3}\d+[a-z]?)`;
const NUM_WITH_KIND = String.raw`(?:(?:[a-z]{1,4}\d+[a-z]{0,2}|\d+[a-z]{0,2}|[a-z](?=\.\d))(?:[.\-]${COMPONENT})*\.?${PAREN}*|[ivxlcdm]+\b|[a-z](?![\p{L}\p{N}]))`;
const NUM_BARE = String.raw`(?:(?:[a-z]{1,4}\d+|\d+[a-z]?|[a-z](?=\.\d))(?:\.${COMPONENT})+\.?${PAREN}*|\d+[a-z]?${PAREN}+)`;

const WITH_KIND = new RegExp(String.raw`(?<![\p{L}\p{N}])(${KIND})\s*(${NUM_WITH_KIND})(?![\p{L}\p{N}])`, "giu");
const BARE = new RegExp(String.raw`(?<![\p{L}\p{N}/.\-])(${NUM_BARE})(?![\p{L}\p{N}/]|\.\d)`, "giu");
const CITATION = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(\d+)\s*(U\.?\s?S\.?\s?C\.?(?:\s?A\.?)?|C\.?\s?F\.?\s?R\.?)\s*(?:§§?\s*|(?:sec(?:tion|s)?\.?|pt\.|part)\s*)?(${NUM_WITH_KIND})(?![\p{L}\p{N}])`,
  "giu",
);
const WHOLE = new RegExp(String.raw`^\s*(?:(${KIND})\s*)?(${NUM_WITH_KIND})\s*$`, "iu");
/** Direction marks, zero-width and no-break spaces: replaced by a space (same length, offsets stay valid). */
const INVISIBLE = /[\u00a0\u200b-\u200f\u202a-\u202f\u2060\u2066-\u2069\ufeff]/g;
const ROMAN = /^(?:[ivxlcdm]+|[a-z])$/i;

/** Canonical kind for a kind word ("§", "Art.", "s.", "para" …), or null when it is not one. */
export function canonicalKind(word: string): string | null {
  const w = word.trim();
  for (const [kind, re] of KIND_SYNONYMS) if (re.test(w)) return kind;
  return null;
}

/** Normalises the number part of an id: "2.1.1.(1)" → "2.1.1(1)", "203 (a)(1)" → "203(a)(1)", "4.2." → "4.2". */
export function normalizeNumber(num: string): string {
  return num.toLowerCase().replace(/\s+/g, "").replace(/\.\(/g, "(").replace(/\.$/, "");
}

/**
 * Parses a whole string as one section id ("Article 17", "§ 478.11", "9.3.1", "2.1.1.(1)", "Rule 2.14",
 * "Chapter IV"); null when it is not one (an unnumbered title, say).
 */
export function parseSectionId(id: string): ParsedSectionId | null {
  const m = WHOLE.exec(id.replace(INVISIBLE, " "));
  if (!m) return null;
  if (ROMAN.test(m[2]) && (!m[1] || m[2] !== m[2].toUpperCase())) return null;
  return { kind: m[1] ? canonicalKind(m[1]) : null, number: normalizeNumber(m[2]) };
}

const LIST = new RegExp(String.raw`^\s*(?:(${KIND})\s*)?(.+)$`, "iu");

/**
 * Parses an id that names several sections ("§§ 155, 155A", "3304 to 3307", "Sections 4 and 5"): each
 * listed number (integer ranges up to 50 numbers are expanded). Empty when it is not such a list.
 */
export function parseSectionIdList(id: string): ParsedSectionId[] {
  const single = parseSectionId(id);
  if (single) return [single];
  const m = LIST.exec(id);
  if (!m) return [];
  const kind = m[1] ? canonicalKind(m[1]) : null;
  const parts = m[2].split(/\s*(?:,|;|\band\b|&)\s*/i).filter(Boolean);
  const out: ParsedSectionId[] = [];
  for (const part of parts) {
    const range = /^(\d+)\s*(?:to|through|-|–)\s*(\d+)$/i.exec(part.trim());
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      if (b >= a && b - a <= 50) for (let n = a; n <= b; n++) out.push({ kind, number: String(n) });
      else out.push({ kind, number: range[1] }, { kind, number: range[2] });
      continue;
    }
    const one = parseSectionId(part);
    if (!one || one.kind) return [];
    out.push({ kind, number: one.number });
  }
  return out;
}

/**
 * Finds section ids inside a natural-language query: kind + number ("Article 17(3)(b)", "s. 203(a)(1)",
 * "§203(a)(1)", "Art. 4(11)", "Rule 2.14", "section 9.3.1 of RFC 9110"), code citations ("35 U.S.C. § 101",
 * "27 CFR 478.11", kind section, with `code`) and bare structured numbers
 * ("203(a)(1)", "9.3.1", "2.1.1.(1)"). Bare integers count only with a kind word. In text order.
 */
export function findSectionIds(raw: string): FoundSectionId[] {
  const query = raw.replace(INVISIBLE, " ");
  const found: FoundSectionId[] = [];
  const taken: Array<[number, number]> = [];
  const overlaps = (start: number, end: number) => taken.some(([a, b]) => start < b && end > a);
  for (const m of query.matchAll(CITATION)) {
    const start = m.index ?? 0;
    const code = `${m[1]} ${m[2].replace(/\s+/g, "").toUpperCase().replace(/\./g, "").replace(/^USC/, "U.S.C.")}`;
    found.push({ kind: "section", number: normalizeNumber(m[3]), text: m[0], code, start, end: start + m[0].length });
    taken.push([start, start + m[0].length]);
  }
  for (const m of query.matchAll(WITH_KIND)) {
    const num = m[2];
    if (ROMAN.test(num) && num !== num.toUpperCase()) continue;
    if (/^s{1,2}\.$/i.test(m[1]) && !/^\d/.test(num)) continue;
    const kind = canonicalKind(m[1]);
    if (!kind) continue;
    const start = m.index ?? 0;
    if (overlaps(start, start + m[0].length)) continue;
    found.push({ kind, number: normalizeNumber(num), text: m[0], start, end: start + m[0].length });
    taken.push([start, start + m[0].length]);
  }
  for (const m of query.matchAll(BARE)) {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    if (overlaps(start, end)) continue;
    found.push({ kind: null, number: normalizeNumber(m[0]), text: m[0], start, end });
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * Shorter forms of a number, longest first, for the longest-present-prefix fallback:
 * "17(3)(b)" → ["17(3)", "17"]; "9.3.1" → ["9.3", "9"]; "2.1.1(1)" → ["2.1.1", "2.1", "2"].
 */
export function numberPrefixes(num: string): string[] {
  const out: string[] = [];
  let cur = num;
  for (;;) {
    let next: string;
    if (/\([^()]*\)$/.test(cur)) next = cur.replace(/\([^()]*\)$/, "");
    else if (/[.\-][^.\-]+$/.test(cur)) next = cur.replace(/[.\-][^.\-]+$/, "");
    else break;
    if (!next || next === cur) break;
    out.push(next);
    cur = next;
  }
  return out;
}

/** Quoted phrases in a query ("..." or “...”), without the quotes, at least two characters long. */
export function findQuotedPhrases(query: string): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(/"([^"]{2,})"|“([^”]{2,})”/g)) out.push((m[1] ?? m[2]).trim());
  return out.filter((p) => p.length >= 2);
}
