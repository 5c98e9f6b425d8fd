import type { ChunkRecord, DefinitionEntry, HierdocError, SearchResponse, SearchResult } from "@hierdoc/core";

/** A result in the CLI's JSON contract (snake_case, see DESIGN.md). */
export function resultJson(r: SearchResult): Record<string, unknown> {
  return {
    id: r.id,
    rank: r.rank,
    score: r.score,
    content: r.content,
    context: r.context,
    source_path: r.sourcePath,
    start: r.start,
    end: r.end,
    section_id: r.sectionId,
    section_title: r.sectionTitle,
    parent_chain: r.parentChain,
    chunk_type: r.chunkType,
    scores: r.scores,
    ranks: r.ranks,
    definitions: r.definitions.map((d) => ({ term: d.term, definition_text: d.definitionText, source_section: d.sourceSection })),
    cross_references: r.crossReferences.map((x) => ({ text: x.text, target_section_id: x.targetSectionId, external: x.external })),
  };
}

/** A search response as JSON. */
export function responseJson(query: string, mode: string, res: SearchResponse, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    query,
    mode,
    route: res.route,
    results: res.results.map(resultJson),
    warnings: res.warnings,
    timings_ms: roundTimings(res.timingsMs),
    ...extra,
  };
}

/** A chunk record (section command) as JSON. */
export function recordJson(r: ChunkRecord): Record<string, unknown> {
  return {
    id: r.id,
    content: r.content,
    context: r.context,
    source_path: r.sourcePath,
    start: r.start,
    end: r.end,
    section_id: r.sectionId,
    section_title: r.sectionTitle,
    aliases: r.sectionAliases,
    unit_ids: r.unitIds,
    parent_chain: r.parentChain,
    chunk_type: r.chunkType,
    tokens: r.tokens,
    definitions: r.definitions.map(definitionJson),
    cross_references: r.crossReferences.map((x) => ({ text: x.text, target_section_id: x.targetSectionId, external: x.external, cited_document: x.citedDocument ?? null })),
  };
}

/** A definition as JSON. */
export function definitionJson(d: DefinitionEntry): Record<string, unknown> {
  return { term: d.term, definition_text: d.definitionText, source_section: d.sourceSection, source_path: d.sourcePath, chunk_id: d.chunkId };
}

/** An error as JSON (stderr or a batch line). */
export function errorJson(err: HierdocError | Error): Record<string, unknown> {
  const e = err as HierdocError;
  return { code: e.code ?? "E_INTERNAL", message: err.message, ...(e.details && Object.keys(e.details).length > 0 ? { details: safeDetails(e.details) } : {}) };
}

function safeDetails(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details)) if (v !== undefined && typeof v !== "function") out[k] = v;
  return out;
}

function roundTimings(t: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(t)) out[k] = Math.round(v * 100) / 100;
  return out;
}

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
