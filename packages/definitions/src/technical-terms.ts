import type { DefinitionMatch } from "./definition-patterns.js";

const T = String.raw`"?([A-Za-z][\w-]*(?: [a-z][\w-]*){0,3}?)"?`;
const PATTERNS: RegExp[] = [
  new RegExp(String.raw`\b[Tt]he terms? ((?:"[^"\n]{1,40}"|[\w-]+(?: [\w-]+){0,3}?)(?:(?:,| and| or|, and|, or) (?:"[^"\n]{1,40}"|[\w-]+(?: [\w-]+){0,3}?))*) (?:refers? to|are used|is used|describes?|denotes?)\b`, "g"),
  new RegExp(String.raw`\b(?:is|are) (?:then |often |also |commonly |collectively )*(?:called|referred to as|known as|termed) (?:an? |the )?${T}(?=[.,;:)(]| if\b| when\b| because\b| or\b| \(| \[)`, "g"),
  new RegExp(String.raw`\b(?:also (?:commonly )?known as|a\.k\.a\.,?) (?:an? |the )?${T}(?=[.,;:)(]| \[)`, "g"),
  new RegExp(String.raw`(?:^|[.:]\s+)An? ([a-z][\w-]*(?: [a-z][\w-]*){0,2}) is (?:an?|the|one|information|defined as) `, "g"),
  new RegExp(String.raw`\b(?:is|are) (?:considered |said to be |called )?([a-z][\w-]*) (?:if|when)\b`, "g"),
  /^\*\*([^*\n]{1,60})\*\*\s*:/g,
];
const NOISE = new Set(
  "valid invalid true false required present absent possible allowed necessary sent received used made done given defined available applicable appropriate known unknown able unable useful safe-ish it this that one there what which".split(
    " ",
  ),
);

/**
 * Terminology phrases of technical specifications (RFC style, where the markup that marked the defined term
 * is lost in markdown): "The term X refers to", "The terms X and Y are used", "is called X", "referred to as X",
 * "also known as X", "A X is a …", "is considered X if", and `**X**:` definition lists. The definition text
 * is the sentence that states it.
 */
export function matchTechnicalTerms(paragraph: string): DefinitionMatch[] {
  const out: DefinitionMatch[] = [];
  const seen = new Set<string>();
  for (const re of PATTERNS) {
    for (const m of paragraph.matchAll(re)) {
      const at = (m.index ?? 0) + m[0].indexOf(m[1]);
      for (const raw of m[1].split(/,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/)) {
        const term = raw.replace(/^"|"$/g, "").trim();
        if (!term || NOISE.has(term.toLowerCase()) || seen.has(term.toLowerCase())) continue;
        seen.add(term.toLowerCase());
        const { start, end } = sentenceAround(paragraph, at);
        out.push({ term, textStart: start, textEnd: end });
      }
    }
  }
  return out;
}

function sentenceAround(text: string, at: number): { start: number; end: number } {
  let start = at;
  while (start > 0 && !/[.!?]\s/.test(text.slice(start - 2, start))) start--;
  const rest = /[.!?](?=\s|$)/.exec(text.slice(at));
  const end = rest ? at + (rest.index ?? 0) + 1 : text.length;
  return { start, end };
}
