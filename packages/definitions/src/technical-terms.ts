import type { DefinitionMatch } from "./definition-patterns.js";

const T = String.raw`"?([A-Za-z][\w-]*(?: [a-z][\w-]*){0,3}?)"?`;
const W = String.raw`[a-z][\w-]*`;
const START = String.raw`(?:^|[.:;]\s+|\n)`;
const NOT_PREDICATE = String.raw`(?!not\b|also\b|only\b|usually\b|often\b|always\b|never\b|still\b|unable\b|able\b|free\b|likely\b|unlikely\b|responsible\b|subject\b|expected\b|required\b|allowed\b|permitted\b|encouraged\b|[a-z]+ed\b(?<!defined|dedicated))`;
const PATTERNS: RegExp[] = [
  new RegExp(String.raw`\b[Tt]he terms? ((?:"[^"\n]{1,40}"|[\w-]+(?: [\w-]+){0,3}?)(?:(?:,| and| or|, and|, or) (?:"[^"\n]{1,40}"|[\w-]+(?: [\w-]+){0,3}?))*) (?:refers? to|are used|is used|describes?|denotes?)\b`, "g"),
  new RegExp(String.raw`\b(?:(?:is|are) )?(?:then |often |also |commonly |collectively )*(?:called|referred to as|known as|termed) (?:an? |the )?${T}((?: or | and )${W})?(?=[.,;:)(]| if\b| when\b| because\b| or\b| the\b| \(| \[)`, "g"),
  new RegExp(String.raw`\b(?:also (?:commonly )?known as|a\.k\.a\.,?) (?:an? |the )?${T}(?=[.,;:)(]| \[)`, "g"),
  new RegExp(String.raw`${START}(?:[A-Z][a-z]+(?: [a-z]+)?, )?[Aa]n? (?:[A-Z][\w/.-]* )?(${W}(?: ${W}){0,2})(?: \(a\.k\.a\.,? [^)]{1,40}\) |, in contrast, | )(?:(?:is|are) ${NOT_PREDICATE}(?:an?|the|one|information|defined|representation|metadata|dedicated)|consists of)\b`, "g"),
  new RegExp(String.raw`${START}(?:[A-Z][a-z]+, )?[Aa]n? (${W}) ${W} is one (?:whose|where|that|which|for which)\b`, "g"),
  new RegExp(String.raw`${START}(?:For example, )?(${W}) is an? (?:attack|mechanism|process|technique|property)\b`, "g"),
  new RegExp(String.raw`${START}The (${W}(?: ${W}){0,2}?) (?:(?:for|of) (?:an? |the )?(?:given )?[\w-]+ )?(?:is (?:the|an?) (?:[a-z]+ )?(?:information|time|triple|pair|set|combination|value|sum|mechanism|process|portion|part)|consists of|is only used)\b`, "g"),
  new RegExp(String.raw`\bform of [\w-]+ is (?:the|an?) (${W})[.,]`, "g"),
  new RegExp(String.raw`\b(?:is|are) (?:considered|said to be) (${W}) (?:if|when)\b`, "g"),
  new RegExp(String.raw`${START}(?:[A-Z][a-z]+, )?[Aa]n? [\w -]{1,40}? is (${W}) (?:if|when)\b`, "g"),
  new RegExp(String.raw`\b(?:forms|kinds|types) of (?:[A-Z]+ )?(${W}): (${W}(?:, ${W})*,? and ${W})`, "g"),
  new RegExp(String.raw`\b(?:[Tt]he|[Tt]his)(?: general)? notion of (?:an? |the )?(${W}(?: ${W}){0,2}?)(?=[:.,;]| is\b| in\b)`, "g"),
  new RegExp(String.raw`(?:^|[\s(])(${W}(?: ${W})?) (?:\[[^\]\n]{1,20}\] )?\((?:a\.k\.a\.,?|also (?:commonly )?known as) (?:an? |the )?(${W}(?: ${W}){0,2}?)(?:\)| \[)`, "g"),
  new RegExp(String.raw`(?:^|[.,;]\s+)(${W}) (?:specifically )?means that\b`, "g"),
  new RegExp(String.raw`\b(?:is|are) intended to be (${W}):`, "g"),
  new RegExp(String.raw`\bdefined by this specification is "([^"\n]{1,40})"`, "g"),
  new RegExp(String.raw`\b(?:is|are) defined as (${W}(?: ${W})?)\s?[.,;(]`, "g"),
  new RegExp(String.raw`${START}Otherwise, the [\w-]+ is (${W})\.`, "g"),
  new RegExp(String.raw`${START}(?:An?|The) [\w-]+['’]s (${W}(?: ${W})?) is (?:the|an?)\b`, "g"),
  new RegExp(String.raw`\b(?:whereas|while) an? (${W}(?: ${W}){0,2}) is (?:an?|the|assigned|defined)\b`, "g"),
  new RegExp(String.raw`\bto (${W} ${W}) — or\b`, "g"),
  /<(?:x:)?dfn\b[^>]*>([^<]{1,60})<\/(?:x:)?dfn>/g,
  /^\*\*(?!(?:Type name|Subtype name|Required parameters|Optional parameters|Encoding considerations|Security considerations|Interoperability considerations|Published specification|Applications that use|Fragment identifier|Additional information|Person|Intended usage|Restrictions on usage|Author|Change controller|Field name|Status|Specification document|Comments|Magic number|File extension|Macintosh|Deprecated alias|Reference|Description|Value|Name|Note)\b)([^*\n]{1,60}?):?\*\*\s*:/g,
];
const STOP_START = /^(?:does|do|is|are|was|were|not|also|may|can|must|shall|will|should|micro)\b/i;
const NOISE = new Set(
  "this general valid invalid true false required present absent possible allowed necessary sent received used made done given defined available applicable appropriate known unknown able unable useful it this that one there what which".split(
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
      const captured = m.slice(1).filter((g): g is string => !!g);
      for (const raw of captured.flatMap((g) => g.split(/,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/))) {
        const term = raw.replace(/^"|"$/g, "").replace(/^(?:with|a|an|the|and|or)\s+/i, "").trim();
        if (!term || NOISE.has(term.toLowerCase()) || seen.has(term.toLowerCase()) || STOP_START.test(term)) continue;
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
