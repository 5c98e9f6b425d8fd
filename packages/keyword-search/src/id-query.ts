import { findSectionIds, parseSectionId } from "./section-id.js";
import { ENGLISH_STOP_WORDS } from "./stop-words.js";

const LOOKUP_WORDS = new Set([
  "article", "articles", "art", "section", "sections", "sec", "rule", "rules", "paragraph", "para", "point", "points",
  "subsection", "chapter", "part", "schedule", "appendix", "annex", "title", "clause", "regulation", "recital",
  "say", "says", "said", "state", "states", "provide", "provides", "cover", "covers", "mean", "means", "text",
  "show", "tell", "read", "full", "exactly", "contents", "content", "under", "pursuant", "according", "about",
  "what", "which", "does", "do", "did", "how", "where", "when", "who", "whom", "whose", "why", "can", "could",
  "may", "me", "i", "we", "you", "please", "give", "find", "look", "up", "see", "require", "requires",
]);

/**
 * True when a query is essentially a lookup of a section id ("Article 17", "§ 478.11", "what does
 * Article 17(3)(b) say?") rather than a question that merely mentions one among many other words. Exact
 * hits are lifted to rank 1 only for such queries; otherwise the exact leg only takes part in fusion.
 * `maxOtherWords` content words may remain besides the id (default 2).
 */
export function isIdLookupQuery(query: string, maxOtherWords = 2): boolean {
  const found = findSectionIds(query);
  let rest = query;
  if (found.length === 0) {
    if (!parseSectionId(query.trim())) return false;
    rest = "";
  } else {
    for (const f of [...found].sort((a, b) => b.start - a.start)) rest = rest.slice(0, f.start) + " " + rest.slice(f.end);
  }
  const words = rest
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !ENGLISH_STOP_WORDS.has(w) && !LOOKUP_WORDS.has(w));
  return words.length <= maxOtherWords;
}
