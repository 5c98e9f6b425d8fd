import type { ChunkRecord, LegValues, SearchResult } from "@hierdoc/core";
import type { TermIndex } from "@hierdoc/definitions";
import type { ReferenceResolver } from "./layered-resolver.js";

/** A fused hit from the router. */
export interface RoutedHit {
  id: string;
  score: number;
  scores: LegValues;
  ranks: LegValues;
}

/** Definitions attached to one result at most. */
const MAX_DEFINITIONS = 12;

/**
 * Turns fused hits into results: provenance from the stored record, the definitions of the defined
 * terms the chunk uses, and its cross-references resolved against the corpus (with the target's source when
 * `sourceOf` knows the target chunk, the cited document when external). Hits whose record is gone (deleted
 * meanwhile) are dropped; ranks stay 1-based and dense.
 */
export function buildResults(
  hits: RoutedHit[],
  records: ChunkRecord[],
  terms: TermIndex,
  resolver: ReferenceResolver,
  sourceOf: (chunkId: string) => string | undefined = () => undefined,
): SearchResult[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  const out: SearchResult[] = [];
  for (const hit of hits) {
    const r = byId.get(hit.id);
    if (!r) continue;
    const definitions = terms
      .termsUsedIn(r.content, r.sourcePath)
      .slice(0, MAX_DEFINITIONS)
      .map((d) => ({ term: d.term, definitionText: d.definitionText, sourceSection: d.sourceSection }));
    const crossReferences = r.crossReferences.map((x) => {
      const resolved = resolver.resolve(x, r.sourcePath);
      const targetSourcePath = resolved.targetChunkId ? sourceOf(resolved.targetChunkId) : undefined;
      return {
        text: x.text,
        targetSectionId: resolved.targetSectionId,
        external: resolved.external,
        ...(targetSourcePath && !resolved.external ? { targetSourcePath } : {}),
        ...(resolved.external && resolved.citedDocument ? { citedDocument: resolved.citedDocument } : {}),
      };
    });
    out.push({
      id: r.id,
      rank: out.length + 1,
      score: hit.score,
      content: r.content,
      context: r.context,
      sourcePath: r.sourcePath,
      start: r.start,
      end: r.end,
      sectionId: r.sectionId,
      sectionTitle: r.sectionTitle,
      parentChain: r.parentChain,
      chunkType: r.chunkType,
      scores: hit.scores,
      ranks: hit.ranks,
      definitions,
      crossReferences,
    });
  }
  return out;
}
