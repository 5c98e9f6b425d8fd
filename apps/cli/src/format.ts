import type { SearchResult } from "@hierdoc/core";

export { resultJson, responseJson, recordJson, definitionJson } from "@hierdoc/runtime";
export { errorJson } from "./error-json.js";

/** "Chapter III › Section 3 › Article 17 — Right to erasure". */
export function breadcrumb(parentChain: string[], sectionTitle: string, sectionId: string): string {
  const own = sectionTitle || sectionId;
  const chain = parentChain.length > 0 && parentChain[parentChain.length - 1] === own ? parentChain : [...parentChain, own];
  return chain.filter(Boolean).join(" › ");
}

/** One line of text at most `width` characters, whitespace collapsed. */
export function snippet(text: string, width = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}

/** Pretty lines for results, as the terminal shows them. */
export function prettyResults(results: SearchResult[]): string {
  if (results.length === 0) return "no results\n";
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${String(r.rank).padStart(3)}. ${r.score.toFixed(4)}  ${r.sourcePath}  [${r.sectionId}]`);
    lines.push(`     ${breadcrumb(r.parentChain, r.sectionTitle, r.sectionId)}`);
    lines.push(`     ${snippet(r.content)}`);
    if (r.definitions.length > 0) lines.push(`     terms: ${r.definitions.map((d) => `${d.term} (${d.sourceSection})`).join(", ")}`);
  }
  return lines.join("\n") + "\n";
}
