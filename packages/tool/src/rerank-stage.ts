import { SpanStatusCode, trace } from "@opentelemetry/api";
import type { ChunkRecord, RerankCandidate, Reranker } from "@hierdoc/core";
import type { RoutedHit } from "./search-results.js";

const tracer = trace.getTracer("@hierdoc/tool");

/** Reordered hits, plus a warning when the reranker failed and the fused order was kept. */
export interface RerankOutcome {
  hits: RoutedHit[];
  warning?: string;
}

/**
 * Runs the reranking stage inside a `hierarchical_document.rerank` span: builds candidates from the
 * stored records, asks the reranker for `topN` scores and puts the scored hits first (best first, score =
 * the reranker's), followed by the remaining hits in fused order. A reranker failure never fails the
 * search: the fused order is returned with a warning naming the reranker and the error.
 */
export async function rerankHits(
  reranker: Reranker,
  query: string,
  hits: RoutedHit[],
  records: ChunkRecord[],
  topN: number,
  termsOf: (r: ChunkRecord) => Array<{ term: string; definitionText?: string }>,
): Promise<RerankOutcome> {
  return tracer.startActiveSpan("hierarchical_document.rerank", async (span) => {
    const byId = new Map(records.map((r) => [r.id, r]));
    const candidates: RerankCandidate[] = [];
    for (const [i, h] of hits.entries()) {
      const r = byId.get(h.id);
      if (!r) continue;
      candidates.push({
        id: r.id,
        content: r.content,
        context: r.context,
        sectionId: r.sectionId,
        sectionTitle: r.sectionTitle,
        parentChain: r.parentChain,
        definitions: termsOf(r),
        fusedScore: h.score,
        fusedRank: i + 1,
        scores: h.scores,
        ranks: h.ranks,
        chunkType: r.chunkType,
        citedSections: r.crossReferences.flatMap((x) => (x.targetSectionId && !x.external ? [x.targetSectionId] : [])),
      });
    }
    span.setAttributes({ "rerank.provider": reranker.id, "rerank.candidates": candidates.length, "rerank.top_n": topN });
    try {
      if (candidates.length === 0) return { hits };
      const scores = await reranker.rerank(query, candidates, topN);
      const byHit = new Map(hits.map((h) => [h.id, h]));
      const seen = new Set<string>();
      const out: RoutedHit[] = [];
      for (const s of [...scores].sort((a, b) => b.score - a.score)) {
        const h = byHit.get(s.id);
        if (!h || seen.has(s.id) || !Number.isFinite(s.score)) continue;
        seen.add(s.id);
        out.push({ ...h, score: s.score });
      }
      for (const h of hits) if (!seen.has(h.id)) out.push(h);
      return { hits: out };
    } catch (err) {
      const message = `reranker ${reranker.id} failed, fused order kept: ${(err as Error).message ?? String(err)}`;
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message });
      return { hits, warning: message };
    } finally {
      span.end();
    }
  });
}
