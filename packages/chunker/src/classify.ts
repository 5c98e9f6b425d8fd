import type { ChunkType } from "@hierdoc/core";

const DEFINITION_SECTION = /\b(definitions?|meaning of terms|terminology|glossary|interpretation|defined terms)\b/i;
const DEFINITION_TEXT =
  /(^|\n)\s*(\(\w{1,4}\)\s*)?(the term\s+)?[“"‘']?[A-Z][^\n“”"]{0,80}?[”"’']?\s+(means|shall mean|has the meaning|includes|is defined as)\b/;
const QUOTED_MEANS = /[“"‘][^”"’\n]{1,80}[”"’]\s*(means|shall mean|has the meaning|is defined as)\b/;
const REQUIREMENT = /\b(shall|must|MUST|SHALL|REQUIRED|SHOULD|RECOMMENDED|is required to|are required to)\b/;

/**
 * Classifies a chunk as `definition` (in a definitions-like section, or "X means …"), `requirement`
 * (shall / must / RFC 2119 words), `header` (a heading with little or no body) or `content`.
 *
 * Use it on a chunk's text with its section title and parent chain. Never throws.
 */
export function classifyChunk(text: string, sectionTitle: string, parentChain: string[]): ChunkType {
  const body = stripHeadingLine(text, sectionTitle).trim();
  if (body.length < 24 && body.split(/\s+/).filter(Boolean).length < 5) return "header";
  if (DEFINITION_SECTION.test(sectionTitle) || parentChain.some((p) => DEFINITION_SECTION.test(p))) return "definition";
  const head = body.length > 4000 ? body.slice(0, 4000) : body;
  if (QUOTED_MEANS.test(head) || DEFINITION_TEXT.test(head)) return "definition";
  if (REQUIREMENT.test(body)) return "requirement";
  return "content";
}

function stripHeadingLine(text: string, title: string): string {
  const nl = text.indexOf("\n");
  const first = nl < 0 ? text : text.slice(0, nl);
  const t = title.trim();
  if (t.length > 0 && first.includes(t.slice(0, Math.min(40, t.length)))) return nl < 0 ? "" : text.slice(nl + 1);
  if (/^\s{0,3}#{1,6}(\s|$)/.test(first)) return nl < 0 ? "" : text.slice(nl + 1);
  return text;
}
