// The JSON contract of DESIGN.md (snake_case results, records, definitions), shared by the CLI and the server.
import type { ChunkRecord, CrossReference, DefinitionEntry, SearchResponse, SearchResult } from "@hierdoc/core";
import { summarizeSkipped, type IngestReport } from "@hierdoc/tool";

/** A search result in the DESIGN.md RESULT shape (snake_case), the same as `hierdoc search --json`. */
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
    cross_references: r.crossReferences.map((x) => ({
      text: x.text,
      target_section_id: x.targetSectionId,
      external: x.external,
      // Where a citation leads outside this chunk's document: the target's file, or the cited document.
      ...(x.targetSourcePath ? { target_source_path: x.targetSourcePath } : {}),
      ...(x.citedDocument ? { cited_document: x.citedDocument } : {}),
    })),
  };
}

/** A search response as JSON, as `hierdoc search --json` and `POST /search` print it; `extra` fields are appended. */
export function responseJson(query: string, mode: string, res: SearchResponse, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const timings: Record<string, number> = {};
  for (const [k, v] of Object.entries(res.timingsMs)) timings[k] = Math.round(v * 100) / 100;
  return { query, mode, route: res.route, results: res.results.map(resultJson), warnings: res.warnings, timings_ms: timings, ...extra };
}

/** A cross-reference as JSON. */
export function crossReferenceJson(x: CrossReference): Record<string, unknown> {
  return { text: x.text, target_section_id: x.targetSectionId, external: x.external, cited_document: x.citedDocument ?? null };
}

/** A chunk record (section route) as JSON, the same as `hierdoc section --json`. */
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
    cross_references: r.crossReferences.map(crossReferenceJson),
  };
}

/** A definition as JSON, the same as `hierdoc define --json`. */
export function definitionJson(d: DefinitionEntry): Record<string, unknown> {
  return { term: d.term, definition_text: d.definitionText, source_section: d.sourceSection, source_path: d.sourcePath, chunk_id: d.chunkId };
}

/** An ingest report as JSON (per-file outcomes, counts, timings; no document text). */
export function ingestJson(report: IngestReport): Record<string, unknown> {
  return {
    files: report.files.map((f) => ({
      source_path: f.sourcePath,
      outcome: f.outcome,
      chunks: f.chunks,
      ...(f.error ? { error: { code: f.error.code, message: f.error.message } } : {}),
    })),
    skipped: skippedJson(report),
    chunks_written: report.chunksWritten,
    chunks_deleted: report.chunksDeleted,
    total_chunks: report.totalChunks,
    timings_ms: Object.fromEntries(Object.entries(report.timingsMs).map(([k, v]) => [k, Math.round(v)])),
  };
}

/**
 * `skipped` of the ingest JSON: `{total, by_reason, by_extension, unsupported_text, examples: [{source_path, reason}]}`
 * (`unsupported_text`: files skipped for their extension that look like text, which `--include` would take).
 */
function skippedJson(report: IngestReport): Record<string, unknown> {
  const s = summarizeSkipped(report.skipped ?? []);
  return {
    total: s.total,
    by_reason: s.byReason,
    by_extension: s.byExtension,
    unsupported_text: s.unsupportedText,
    examples: s.examples.map((e) => ({ source_path: e.path, reason: e.reason })),
  };
}
