import type { CohereClientV2 } from "cohere-ai";
import type { RerankCandidate, RerankScore, Reranker } from "@hierdoc/core";
import { byIndex, candidateText, requireKey, withRetries, type RetryOptions } from "./retry.js";
import { loadCohere } from "./sdk-loader.js";

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
 * Cohere Rerank (v2 `/rerank`) through the official `cohere-ai` SDK, which loads on the first `rerank`. The
 * SDK's own retries are off; this class retries 408/429/5xx and timeouts with a bounded back-off.
 * @throws HierdocError E_CONFIG without an API key (constructor); E_RERANK / E_TIMEOUT from `rerank`.
 */
export class CohereReranker implements Reranker {
  readonly id: string;
  private readonly model: string;
  private readonly token: string;
  private client?: CohereClientV2;

  constructor(private readonly options: CohereRerankerOptions = {}) {
    this.model = options.model ?? "rerank-v3.5";
    this.id = `cohere:${this.model}`;
    this.token = requireKey("cohere", options.apiKey, "COHERE_API_KEY");
  }

  /** Sends the candidates as documents and returns the API's top `topN` relevance scores. */
  async rerank(query: string, candidates: RerankCandidate[], topN: number): Promise<RerankScore[]> {
    if (candidates.length === 0) return [];
    const documents = candidates.map((c) => candidateText(c));
    const client = await this.getClient();
    const response = await withRetries("cohere", this.options, (signal) =>
      client.rerank(
        { model: this.model, query, documents, topN: Math.min(topN, documents.length), maxTokensPerDoc: this.options.maxTokensPerDoc },
        { abortSignal: signal, maxRetries: 0, timeoutInSeconds: Math.ceil((this.options.timeoutMs ?? 10_000) / 1000) + 1 },
      ),
    );
    return byIndex(response.results, candidates, "cohere");
  }

  private async getClient(): Promise<CohereClientV2> {
    if (!this.client) {
      const { CohereClientV2 } = await loadCohere();
      const baseUrl = this.options.baseUrl?.replace(/\/+$/, "");
      this.client = new CohereClientV2({ token: this.token, ...(baseUrl ? { baseUrl } : {}), maxRetries: 0 });
    }
    return this.client;
  }
}
