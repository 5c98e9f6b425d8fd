import { SpanStatusCode, trace } from "@opentelemetry/api";
import type { KeywordDocument, KeywordIndex, KeywordSearchOptions, ScoredId } from "@hierdoc/core";

const tracer = trace.getTracer("@hierdoc/tool");

/**
 * A keyword index whose searches are OpenTelemetry spans (`keyword.search`, with `keyword.search.provider`,
 * `keyword.search.top_k`, `keyword.search.result_count`); writes pass through untouched.
 */
export function tracedKeywordIndex(inner: KeywordIndex): KeywordIndex {
  return {
    id: inner.id,
    upsert: (docs: KeywordDocument[]) => inner.upsert(docs),
    remove: (ids: string[]) => inner.remove(ids),
    size: () => inner.size(),
    search: (query: string, options: KeywordSearchOptions): Promise<ScoredId[]> =>
      tracer.startActiveSpan("keyword.search", async (span) => {
        span.setAttributes({ "keyword.search.provider": inner.id, "keyword.search.top_k": options.topK, "keyword.search.query_length": query.length });
        try {
          const hits = await inner.search(query, options);
          span.setAttribute("keyword.search.result_count", hits.length);
          return hits;
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
          throw err;
        } finally {
          span.end();
        }
      }),
  };
}
