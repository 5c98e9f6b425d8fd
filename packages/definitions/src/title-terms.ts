import type { ConvertedDocument, Section } from "@hierdoc/core";
import { wordTokens } from "./normalize.js";
import type { Paragraph } from "./document-map.js";

const GENERIC =
  /^(?:introduction|overview|abstract|purpose|scope|background|history|terminology|notation|conformance|requirements?|examples?|syntax|definitions?|summary|references?|acknowledge?ments?|considerations?|security|privacy|status|appendix|general|applicability|discussion|rationale|motivation|notes?)$/i;

/** A section title's candidate terms: "Fields" → ["Fields"], "Connections, Clients, and Servers" → three, "… (Realm)" → ["Realm"]. */
function titleCandidates(title: string): string[] {
  const bare = title.replace(/^\s*(?:appendix\s+)?[\dA-Z]+(?:\.\d+)*\.?\s+/i, "").trim();
  const paren = /\(([A-Za-z][\w-]*(?: [a-z][\w-]*)?)\)\s*$/.exec(bare);
  if (paren) return [paren[1]];
  if (!/^[A-Za-z][A-Za-z -]*(?:,\s*(?:and\s+)?[A-Za-z][A-Za-z -]*)*$/.test(bare)) return [];
  return bare
    .split(/,\s*(?:and\s+)?|\s+and\s+/)
    .map((t) => t.trim())
    .filter((t) => t && t.split(/\s+/).length <= 3 && !GENERIC.test(t) && !/\p{Lu}/u.test(t.slice(1)));
}

/** Singular keys of a phrase, for plural-aware comparison. */
function keys(text: string): string[] {
  return wordTokens(text).map((w) => w.key);
}

/**
 * Terms that a numbered section of a specification names in its title and then uses, in lower case, in its
 * first sentence ("## 6.4. Content" → "… as the message content:"). Only for sections with dotted numeric
 * ids (RFC and manual style); the definition text is that first sentence.
 */
export function titleTerms(
  doc: ConvertedDocument,
  section: Section,
  firstParagraph: Paragraph,
): Array<{ term: string; start: number; end: number }> {
  if (doc.format !== "markdown" || !/^(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)$/.test(section.sectionId)) return [];
  const sentenceEnd = /[.:!?](?=\s|$)/.exec(firstParagraph.text);
  const sentence = firstParagraph.text.slice(0, sentenceEnd ? (sentenceEnd.index ?? 0) + 1 : firstParagraph.text.length);
  const words = wordTokens(sentence);
  const out: Array<{ term: string; start: number; end: number }> = [];
  for (const candidate of titleCandidates(section.title)) {
    const want = keys(candidate.toLowerCase());
    const hit = words.findIndex(
      (w, i) => want.every((k, j) => words[i + j] && words[i + j].key === k && words[i + j].raw === words[i + j].raw.toLowerCase()),
    );
    if (hit < 0) continue;
    const used = words
      .slice(hit, hit + want.length)
      .map((w) => w.raw)
      .join(" ");
    out.push({ term: used, start: firstParagraph.start, end: firstParagraph.start + sentence.length });
  }
  return out;
}
