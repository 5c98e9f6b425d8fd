import type { VoyageAIClient } from "voyageai";
import type { RerankCandidate, RerankScore, Reranker } from "@hierdoc/core";
import { byIndex, candidateText, requireKey, withRetries, type RetryOptions } from "./retry.js";
import { loadVoyage } from "./sdk-loader.js";

/** Options of {@link VoyageReranker}. */
export interface VoyageRerankerOptions extends RetryOptions {
  /** Default: the VOYAGE_API_KEY the caller read. */
  apiKey?: string;
  /** Default `rerank-2.5`. */
  model?: string;
  /** API root including the version (default https://api.voyageai.com/v1); posts to `<baseUrl>/rerank`. */
  baseUrl?: string;
}

/**
 * Voyage AI rerank (`/v1/rerank`) through the official `voyageai` SDK (loaded on the first `rerank`); the
 * API's `top_k` is our `topN`.
 * The SDK's own retries are off; this class retries 408/429/5xx and timeouts with a bounded back-off.
 * @throws HierdocError E_CONFIG without an API key (constructor); E_RERANK / E_TIMEOUT from `rerank`.
 */
export class VoyageReranker implements Reranker {
  readonly id: string;
  private readonly model: string;
  private readonly apiKey: string;
  private client?: VoyageAIClient;

  constructor(private readonly options: VoyageRerankerOptions = {}) {
    this.model = options.model ?? "rerank-2.5";
    this.id = `voyage:${this.model}`;
    this.apiKey = requireKey("voyage", options.apiKey, "VOYAGE_API_KEY");
  }

  /** Sends the candidates as documents and returns the API's top `topN` relevance scores. */
  async rerank(query: string, candidates: RerankCandidate[], topN: number): Promise<RerankScore[]> {
    if (candidates.length === 0) return [];
    const documents = candidates.map((c) => candidateText(c));
    const client = await this.getClient();
    const response = await withRetries("voyage", this.options, (signal) =>
      client.rerank(
        { model: this.model, query, documents, topK: Math.min(topN, documents.length), truncation: true },
        { abortSignal: signal, maxRetries: 0, timeoutInSeconds: Math.ceil((this.options.timeoutMs ?? 10_000) / 1000) + 1 },
      ),
    );
    const data = (response.data ?? []).map((d) => ({ index: d.index ?? -1, relevanceScore: d.relevanceScore ?? Number.NaN }));
    return byIndex(data, candidates, "voyage");
  }

  private async getClient(): Promise<VoyageAIClient> {
    if (!this.client) {
      const { VoyageAIClient } = await loadVoyage();
      const baseUrl = this.options.baseUrl?.replace(/\/+$/, "");
      this.client = new VoyageAIClient({ apiKey: this.apiKey, ...(baseUrl ? { baseUrl } : {}), maxRetries: 0 });
    }
    return this.client;
  }
}
