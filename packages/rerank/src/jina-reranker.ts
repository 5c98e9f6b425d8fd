import { HierdocError, type RerankCandidate, type RerankScore, type Reranker } from "@hierdoc/core";
import { byIndex, candidateText, requireKey, withRetries, type RetryOptions } from "./retry.js";

/** Options of {@link JinaReranker}. */
export interface JinaRerankerOptions extends RetryOptions {
  /** Default: the JINA_API_KEY the caller read. */
  apiKey?: string;
  /** Default `jina-reranker-v2-base-multilingual`. */
  model?: string;
  /** API root including the version (default https://api.jina.ai/v1); posts to `<baseUrl>/rerank`. */
  baseUrl?: string;
}

/** An HTTP failure with its status and headers, so the retry policy can read 429 / Retry-After. */
class HttpStatusError extends Error {
  constructor(readonly status: number, readonly headers: Headers, body: string) {
    super(`HTTP ${status}: ${body.slice(0, 200)}`);
  }
}

/**
 * Jina AI Reranker (`/v1/rerank`) over `fetch` (Jina publishes no JS SDK). Retries 408/429/5xx, network
 * errors and timeouts with a bounded back-off.
 * @throws HierdocError E_CONFIG without an API key (constructor); E_RERANK / E_TIMEOUT from `rerank`.
 */
export class JinaReranker implements Reranker {
  readonly id: string;
  private readonly model: string;
  private readonly url: string;
  private readonly apiKey: string;

  constructor(private readonly options: JinaRerankerOptions = {}) {
    this.model = options.model ?? "jina-reranker-v2-base-multilingual";
    this.id = `jina:${this.model}`;
    this.apiKey = requireKey("jina", options.apiKey, "JINA_API_KEY");
    this.url = `${(options.baseUrl ?? "https://api.jina.ai/v1").replace(/\/+$/, "")}/rerank`;
  }

  /** Sends the candidates as documents and returns the API's top `topN` relevance scores. */
  async rerank(query: string, candidates: RerankCandidate[], topN: number): Promise<RerankScore[]> {
    if (candidates.length === 0) return [];
    const body = JSON.stringify({
      model: this.model,
      query,
      documents: candidates.map((c) => candidateText(c)),
      top_n: Math.min(topN, candidates.length),
      return_documents: false,
    });
    const json = await withRetries("jina", this.options, async (signal) => {
      const res = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${this.apiKey}` },
        body,
        signal,
      });
      const text = await res.text();
      if (!res.ok) throw new HttpStatusError(res.status, res.headers, text);
      try {
        return JSON.parse(text) as { results?: Array<{ index: number; relevance_score: number }> };
      } catch {
        throw new HierdocError("E_RERANK", `jina rerank returned invalid JSON: ${text.slice(0, 100)}`);
      }
    });
    if (!Array.isArray(json.results)) throw new HierdocError("E_RERANK", "jina rerank response has no `results` array", { details: { adapter: "jina", operation: "rerank" } });
    return byIndex(json.results.map((r) => ({ index: r.index, relevanceScore: r.relevance_score })), candidates, "jina");
  }
}
