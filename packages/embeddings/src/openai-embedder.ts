import { HierdocError, type Embedder } from "@hierdoc/core";
import type OpenAI from "openai";
import { estimateTokens, planBatches, type BatchLimits } from "./openai-batching.js";
import { isNetworkError, loadOpenAISdk, mapOpenAIError, type OpenAISdk } from "./openai-errors.js";
import { normalizeInPlace } from "./vector-math.js";

/** Which OpenAI-shaped service an {@link OpenAIEmbedder} talks to. */
export type OpenAIProvider = "openai" | "azure-openai" | "openai-compatible";

/** Options of {@link OpenAIEmbedder}. */
export interface OpenAIEmbedderOptions {
  provider?: OpenAIProvider;
  /** Model name (`text-embedding-3-small`); for Azure, the model behind the deployment. */
  model: string;
  /** Output size. Required for models not in {@link KNOWN_OPENAI_DIMENSIONS}. */
  dimensions?: number;
  /** Send `dimensions` in requests (text-embedding-3 shortening). Default: when `dimensions` is given and the provider is OpenAI or Azure. */
  sendDimensions?: boolean;
  /** API key; when absent the SDK reads OPENAI_API_KEY (Azure: AZURE_OPENAI_API_KEY). */
  apiKey?: string;
  /** Endpoint: `baseURL` for OpenAI / compatible servers (`http://localhost:11434/v1`), the resource endpoint for Azure. */
  baseURL?: string;
  /** Azure API version; default `2024-10-21`. */
  apiVersion?: string;
  /** Azure deployment; default `model`. */
  deployment?: string;
  /** Inputs per request; default 2048 (the OpenAI limit). */
  batchSize?: number;
  /** Estimated tokens per request; default 250 000 (the limit is 300 000). */
  maxTokensPerRequest?: number;
  /** Token estimate used for batching; default UTF-8 bytes / 3. */
  estimateTokens?: (text: string) => number;
  /** Wire format; default `base64` (decoded here). Use `float` for servers that cannot send base64. */
  encodingFormat?: "base64" | "float";
  /** SDK retries for 408/409/429/5xx and connection errors (exponential backoff, honours retry-after); default 3. */
  maxRetries?: number;
  /** Extra bounded retries of a batch after the SDK gave up on a network error; default 2. */
  networkRetries?: number;
  /** First delay of those extra retries in ms (doubles each time, ±25 % jitter, at most 8 s); default 500. */
  networkRetryDelayMs?: number;
  /** Per-request timeout in ms; default 60 000. */
  timeoutMs?: number;
  /** Batches in flight at once; default 2. */
  concurrency?: number;
  /** Custom fetch (proxies, tests). */
  fetch?: typeof fetch;
}

/** Native sizes of OpenAI embedding models. */
export const KNOWN_OPENAI_DIMENSIONS: Readonly<Record<string, number>> = Object.freeze({
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
});

interface EmbeddingItem {
  index: number;
  embedding: string | number[];
}

function decodeEmbedding(value: string | number[]): Float32Array {
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "base64");
    if (bytes.length % 4 !== 0) throw new SyntaxError(`base64 embedding of ${bytes.length} bytes is not float32`);
    const out = new Float32Array(bytes.length / 4);
    Buffer.from(out.buffer).set(bytes);
    return out;
  }
  if (Array.isArray(value)) return Float32Array.from(value);
  throw new SyntaxError("embedding is neither a base64 string nor an array");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Embedder over the OpenAI Embeddings API, Azure OpenAI, or any OpenAI-compatible endpoint (Ollama, vLLM,
 * LM Studio, llama.cpp server, TEI) through the official `openai` SDK. Batches by input count and estimated
 * tokens, retries 429/5xx (SDK) and network errors (SDK, then a bounded retry here), decodes base64 or float
 * responses, restores input order, and L2-normalises. Empty texts embed to the zero vector without a call.
 * The SDK loads, and the client is created, on the first request.
 */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly provider: OpenAIProvider;
  readonly model: string;
  private client?: OpenAI;
  private readonly createClient: (sdk: OpenAISdk) => OpenAI;
  private readonly limits: BatchLimits;
  private readonly encodingFormat: "base64" | "float";
  private readonly sendDimensions: boolean;
  private readonly networkRetries: number;
  private readonly networkRetryDelayMs: number;
  private readonly concurrency: number;

  /**
   * @throws HierdocError E_CONFIG for an unknown model without `dimensions` or bad limits. Settings the SDK
   *   itself refuses (a missing API key, Azure without an endpoint) are E_CONFIG from the first request.
   */
  constructor(options: OpenAIEmbedderOptions) {
    this.provider = options.provider ?? "openai";
    this.model = options.model;
    const dimensions = options.dimensions ?? KNOWN_OPENAI_DIMENSIONS[options.model];
    if (!this.model) throw new HierdocError("E_CONFIG", `${this.provider} embeddings: a model name is required`, { details: { path: "embedding.name" } });
    if (!Number.isInteger(dimensions) || dimensions <= 0) {
      throw new HierdocError("E_CONFIG", `${this.provider} embeddings: set embedding.dimensions for model "${this.model}"`, {
        details: { path: "embedding.dimensions" },
      });
    }
    this.dimensions = dimensions;
    this.sendDimensions = options.sendDimensions ?? (options.dimensions !== undefined && this.provider !== "openai-compatible" && this.model !== "text-embedding-ada-002");
    this.encodingFormat = options.encodingFormat ?? "base64";
    this.networkRetries = Math.max(0, options.networkRetries ?? 2);
    this.networkRetryDelayMs = Math.max(0, options.networkRetryDelayMs ?? 500);
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.limits = {
      maxInputs: Math.min(2048, Math.max(1, options.batchSize ?? 2048)),
      maxTokens: Math.max(1, options.maxTokensPerRequest ?? 250_000),
      estimateTokens: options.estimateTokens ?? estimateTokens,
    };
    const common = { apiKey: options.apiKey, maxRetries: options.maxRetries ?? 3, timeout: options.timeoutMs ?? 60_000, fetch: options.fetch };
    const deployment = options.deployment ?? options.model;
    this.createClient = (sdk) =>
      this.provider === "azure-openai"
        ? new sdk.AzureOpenAI({ ...common, endpoint: options.baseURL, deployment, apiVersion: options.apiVersion ?? "2024-10-21" })
        : new sdk.OpenAI({ ...common, baseURL: options.baseURL });
    const name = this.provider === "azure-openai" ? deployment : this.model;
    this.id = `${this.provider}:${name}:${dimensions}`;
  }

  /**
   * Embeds `texts` in order.
   *
   * @throws HierdocError E_EMBEDDING (retryable for 429/5xx/network), E_DIMENSION_MISMATCH when the service
   *   returns vectors of another size, E_CANCELLED when aborted.
   */
  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(0));
    const nonEmpty: number[] = [];
    texts.forEach((text, i) => (text.trim() ? nonEmpty.push(i) : (out[i] = new Float32Array(this.dimensions))));
    const batches = planBatches(texts, nonEmpty, this.limits);
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const batch = batches[next++];
        const vectors = await this.embedBatch(batch.map((i) => texts[i]));
        batch.forEach((textIndex, k) => (out[textIndex] = vectors[k]));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, batches.length) }, worker));
    return out;
  }

  /** Embeds one query. @throws as {@link OpenAIEmbedder.embedDocuments}. */
  async embedQuery(text: string): Promise<Float32Array> {
    const [vector] = await this.embedDocuments([text]);
    return vector;
  }

  /**
   * The client, created with the SDK loaded on first use.
   * @throws HierdocError E_CONFIG when the SDK refuses the settings (e.g. no API key)
   */
  private async getClient(): Promise<OpenAI> {
    if (this.client) return this.client;
    const sdk = await loadOpenAISdk();
    try {
      this.client = this.createClient(sdk);
    } catch (err) {
      const message = err instanceof sdk.OpenAIError ? err.message : String(err);
      throw new HierdocError("E_CONFIG", `${this.provider} embeddings: ${message}`, { cause: err, details: { path: "embedding" } });
    }
    return this.client;
  }

  private async embedBatch(input: string[]): Promise<Float32Array[]> {
    const where = { provider: this.provider, model: this.model };
    const client = await this.getClient().catch((err: unknown) => {
      throw mapOpenAIError(err, where);
    });
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await client.embeddings.create({
          model: this.model,
          input,
          encoding_format: this.encodingFormat,
          ...(this.sendDimensions ? { dimensions: this.dimensions } : {}),
        });
        return this.readResponse(response as unknown as { data?: EmbeddingItem[] }, input.length);
      } catch (err) {
        if (attempt < this.networkRetries && isNetworkError(err) && !(err instanceof HierdocError)) {
          await sleep(Math.min(8000, this.networkRetryDelayMs * 2 ** attempt) * (0.75 + Math.random() / 2));
          continue;
        }
        throw mapOpenAIError(err, where);
      }
    }
  }

  private readResponse(response: { data?: EmbeddingItem[] }, expected: number): Float32Array[] {
    const data = response?.data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw new SyntaxError(`expected ${expected} embeddings, got ${Array.isArray(data) ? data.length : typeof data}`);
    }
    const vectors: Float32Array[] = new Array(expected);
    for (const item of data) {
      if (!Number.isInteger(item?.index) || item.index < 0 || item.index >= expected || vectors[item.index]) {
        throw new SyntaxError(`embedding index ${item?.index} is missing, out of range or repeated`);
      }
      const vector = decodeEmbedding(item.embedding);
      if (vector.length !== this.dimensions) {
        throw new HierdocError("E_DIMENSION_MISMATCH", `${this.provider} model ${this.model} returned ${vector.length} dimensions, expected ${this.dimensions}`, {
          details: { adapter: this.provider, operation: "embed", expected: this.dimensions, actual: vector.length },
        });
      }
      vectors[item.index] = normalizeInPlace(vector);
    }
    return vectors;
  }
}
