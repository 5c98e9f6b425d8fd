import type { ChunkRecord, DefinitionEntry, SearchResult } from "@hierdoc/core";
import { basename } from "node:path";
import { citationOf } from "./citation.js";

/** A search result as the agent tools return it: the passage, its quotable citation and its provenance. */
export interface PassageJson {
  rank: number;
  score: number;
  /** Quote this when relying on the passage. */
  citation: string;
  uri: string;
  section_id: string;
  section_title: string;
  parent_chain: string[];
  source: string;
  source_path: string;
  start: number;
  end: number;
  chunk_type: string;
  content: string;
  definitions: Array<{ term: string; definition_text: string; source_section: string }>;
  cross_references: Array<{ text: string; target_section_id: string | null; external: boolean }>;
}

/** A search result as {@link PassageJson}. */
export function passageJson(r: SearchResult): PassageJson {
  const c = citationOf(r);
  return {
    rank: r.rank,
    score: r.score,
    citation: c.text,
    uri: c.uri,
    section_id: r.sectionId,
    section_title: r.sectionTitle,
    parent_chain: r.parentChain,
    source: c.source,
    source_path: r.sourcePath,
    start: r.start,
    end: r.end,
    chunk_type: r.chunkType,
    content: r.content,
    definitions: r.definitions.map((d) => ({ term: d.term, definition_text: d.definitionText, source_section: d.sourceSection })),
    cross_references: r.crossReferences.map((x) => ({ text: x.text, target_section_id: x.targetSectionId, external: x.external })),
  };
}

/** A whole section (its chunks in order) as the get_section tool returns it. */
export interface SectionJson {
  found: true;
  citation: string;
  uri: string;
  section_id: string;
  section_title: string;
  parent_chain: string[];
  source: string;
  source_path: string;
  /** Offsets of the section's first and last chunk in the converted source text. */
  start: number;
  end: number;
  /** The section's text: its chunks joined by a blank line. */
  content: string;
  cross_references: Array<{ text: string; target_section_id: string | null; external: boolean }>;
}

/** The chunks of one section (non-empty, in order) as {@link SectionJson}. */
export function sectionJson(records: ChunkRecord[]): SectionJson {
  const first = records[0];
  const c = citationOf(first);
  return {
    found: true,
    citation: c.text,
    uri: c.uri,
    section_id: first.sectionId,
    section_title: first.sectionTitle,
    parent_chain: first.parentChain,
    source: c.source,
    source_path: first.sourcePath,
    start: first.start,
    end: records[records.length - 1].end,
    content: records.map((r) => r.content.trim()).join("\n\n"),
    cross_references: records.flatMap((r) => r.crossReferences.map((x) => ({ text: x.text, target_section_id: x.targetSectionId, external: x.external }))),
  };
}

/** A definition as the lookup_definition tool returns it. */
export interface DefinitionJson {
  term: string;
  definition_text: string;
  source_section: string;
  source: string;
  /** "Article 4(1) (gdpr.md)": quote it with the definition. */
  citation: string;
}

/** A definition entry as {@link DefinitionJson}. */
export function definitionJson(d: DefinitionEntry): DefinitionJson {
  const source = basename(d.sourcePath);
  return { term: d.term, definition_text: d.definitionText, source_section: d.sourceSection, source, citation: `${d.sourceSection} (${source})` };
}
