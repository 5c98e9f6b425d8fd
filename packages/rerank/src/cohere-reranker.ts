import { CohereClientV2 } from "cohere-ai";
import type { RerankCandidate, RerankScore, Reranker } from "@hierdoc/core";
import { byIndex, candidateText, requireKey, withRetries, type RetryOptions } from "./retry.js";

/** Options of {@link CohereReranker}. */
export interface CohereRerankerOptions extends RetryOptions {
  /** Default: the COHERE_API_KEY the caller read. */
  apiKey?: string;
  /** Default `rerank-v3.5`. */
  model?: string;
  /** API root (default https://api.cohere.com); the client posts to `<baseUrl>/v2/rerank`. */
  baseUrl?: string;
  /** Tokens per document the API keeps (its `max_tokens_per_doc`, default 4096). */
  maxTokensPerDoc?: number;
}

/**
 * Cohere Rerank (v2 `/rerank`) through the official `cohere-ai` SDK. The SDK's own retries are off; this
 * class retries 408/429/5xx and timeouts with a bounded back-off.
 * @throws HierdocError E_CONFIG without an API key (constructor); E_RERANK / E_TIMEOUT from `rerank`.
 */
export class CohereReranker implements Reranker {
  readonly id: string;
  private readonly client: CohereClientV2;
  private readonly model: string;

  constructor(private readonly options: CohereRerankerOptions = {}) {
    this.model = options.model ?? "rerank-v3.5";
    this.id = `cohere:${this.model}`;
    this.client = new CohereClientV2({
      token: requireKey("cohere", options.apiKey, "COHERE_API_KEY"),
      ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, "") } : {}),
      maxRetries: 0,
    });
  }

  /** Sends the candidates as documents and returns the API's top `topN` relevance scores. */
  async rerank(query: string, candidates: RerankCandidate[], topN: number): Promise<RerankScore[]> {
    if (candidates.length === 0) return [];
    const documents = candidates.map((c) => candidateText(c));
    const response = await withRetries("cohere", this.options, (signal) =>
      this.client.rerank(
        { model: this.model, query, documents, topN: Math.min(topN, documents.length), maxTokensPerDoc: this.options.maxTokensPerDoc },
        { abortSignal: signal, maxRetries: 0, timeoutInSeconds: Math.ceil((this.options.timeoutMs ?? 10_000) / 1000) + 1 },
      ),
    );
    return byIndex(response.results, candidates, "cohere");
  }
}
