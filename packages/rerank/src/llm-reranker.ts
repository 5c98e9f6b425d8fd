import type { Anthropic } from "@anthropic-ai/sdk";
import type { OpenAI } from "openai";
import { HierdocError, type RerankCandidate, type RerankScore, type Reranker } from "@hierdoc/core";
import { candidateText, requireKey, withRetries, type RetryOptions } from "./retry.js";
import { loadAnthropic, loadOpenAI } from "./sdk-loader.js";

/** Which wire format the LLM speaks. */
export type LlmRerankProvider = "anthropic" | "openai" | "openai-compatible";

/** Tokens an {@link LlmReranker} has used so far, summed over calls. */
export interface RerankUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** Options of {@link LlmReranker}. */
export interface LlmRerankerOptions extends RetryOptions {
  provider: LlmRerankProvider;
  /** Model name, e.g. `claude-3-5-haiku-latest` or `gpt-4.1-mini`. */
  model: string;
  apiKey?: string;
  baseUrl?: string;
  /** Candidates per prompt (default 10). */
  batchSize?: number;
  /** Characters of each candidate shown to the model (default 1500). */
  maxCharsPerCandidate?: number;
  /** Parallel prompts (default 2). */
  concurrency?: number;
}

const SYSTEM =
  "You rank passages of legal and technical documents by how well they answer a search query. " +
  'Reply with JSON only: {"scores": [{"id": <passage number>, "score": <0-10>}]}, one entry per passage. ' +
  "10 = directly answers the query, 0 = unrelated.";

/**
 * Reranks with an LLM (Anthropic Messages or OpenAI / compatible Chat Completions): candidates go in
 * batches of `batchSize` per prompt, the model returns JSON scores 0–10, ties keep the fused order.
 * Each call has a timeout and bounded retries; token usage is summed in {@link LlmReranker.usage}. The
 * provider's SDK loads on the first `rerank`.
 * @throws HierdocError E_CONFIG without an API key (constructor); E_RERANK (unparseable reply, API error) / E_TIMEOUT.
 */
export class LlmReranker implements Reranker {
  readonly id: string;
  readonly usage: RerankUsage = { calls: 0, inputTokens: 0, outputTokens: 0 };
  private readonly apiKey: string;
  private client?: { anthropic: Anthropic } | { openai: OpenAI };

  constructor(private readonly options: LlmRerankerOptions) {
    this.id = `llm:${options.provider}:${options.model}`;
    if (options.provider === "anthropic") {
      this.apiKey = requireKey("llm (anthropic)", options.apiKey, "ANTHROPIC_API_KEY");
    } else {
      this.apiKey = options.provider === "openai-compatible" ? (options.apiKey ?? "none") : requireKey("llm (openai)", options.apiKey, "OPENAI_API_KEY");
      if (options.provider === "openai-compatible" && !options.baseUrl) {
        throw new HierdocError("E_CONFIG", "rerank.base_url: an openai-compatible LLM reranker needs base_url", { details: { path: "rerank.base_url" } });
      }
    }
  }

  /** Scores every candidate (batched prompts) and returns the best `topN`. */
  async rerank(query: string, candidates: RerankCandidate[], topN: number): Promise<RerankScore[]> {
    const size = Math.max(1, this.options.batchSize ?? 10);
    const batches: RerankCandidate[][] = [];
    for (let i = 0; i < candidates.length; i += size) batches.push(candidates.slice(i, i + size));
    const scores = new Map<string, number>();
    const limit = Math.max(1, this.options.concurrency ?? 2);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batches.length) {
        const batch = batches[next++];
        for (const [id, s] of await this.scoreBatch(query, batch)) scores.set(id, s);
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, batches.length) }, worker));
    const order = new Map(candidates.map((c, i) => [c.id, i]));
    return candidates
      .map((c) => ({ id: c.id, score: scores.get(c.id) ?? 0, reasons: { llm: scores.get(c.id) ?? 0 } }))
      .sort((a, b) => b.score - a.score || (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
      .slice(0, topN);
  }

  private async scoreBatch(query: string, batch: RerankCandidate[]): Promise<Map<string, number>> {
    const max = this.options.maxCharsPerCandidate ?? 1500;
    const passages = batch.map((c, i) => `<passage id="${i + 1}">\n${candidateText(c, max)}\n</passage>`).join("\n");
    const user = `Query: ${query}\n\n${passages}\n\nScore each of the ${batch.length} passages.`;
    return withRetries(`llm ${this.options.provider}`, this.options, async (signal) => parseScores(await this.complete(user, signal, batch.length), batch));
  }

  /** The provider's client, created (and its SDK loaded) on first use. */
  private async getClient(): Promise<{ anthropic: Anthropic } | { openai: OpenAI }> {
    if (!this.client) {
      const { provider, baseUrl, timeoutMs } = this.options;
      const common = { apiKey: this.apiKey, maxRetries: 0, timeout: timeoutMs ?? 30_000 };
      this.client =
        provider === "anthropic"
          ? { anthropic: new (await loadAnthropic()).Anthropic({ ...common, baseURL: baseUrl ?? null }) }
          : { openai: new (await loadOpenAI()).OpenAI({ ...common, baseURL: baseUrl }) };
    }
    return this.client;
  }

  private async complete(user: string, signal: AbortSignal, n: number): Promise<string> {
    const maxTokens = 40 + n * 20;
    const client = await this.getClient();
    if ("anthropic" in client) {
      const msg = await client.anthropic.messages.create(
        { model: this.options.model, max_tokens: maxTokens, system: SYSTEM, messages: [{ role: "user", content: user }] },
        { signal, maxRetries: 0 },
      );
      this.count(msg.usage?.input_tokens, msg.usage?.output_tokens);
      return msg.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    }
    const res = await client.openai.chat.completions.create(
      {
        model: this.options.model,
        temperature: 0,
        max_tokens: maxTokens,
        messages: [
          { role: "system", content: SYSTEM },
          { role: "user", content: user },
        ],
      },
      { signal, maxRetries: 0 },
    );
    this.count(res.usage?.prompt_tokens, res.usage?.completion_tokens);
    return res.choices[0]?.message?.content ?? "";
  }

  private count(input?: number, output?: number): void {
    this.usage.calls++;
    this.usage.inputTokens += input ?? 0;
    this.usage.outputTokens += output ?? 0;
  }
}

/**
 * Reads `{"scores":[{"id":1,"score":7}, …]}` (possibly inside a code fence or prose) and maps passage
 * numbers back to candidate ids; scores are clamped to [0, 10].
 * @throws HierdocError E_RERANK when no JSON object with a `scores` array can be found.
 */
export function parseScores(text: string, batch: RerankCandidate[]): Map<string, number> {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  let parsed: unknown;
  try {
    parsed = start >= 0 && end > start ? JSON.parse(text.slice(start, end + 1)) : undefined;
  } catch {
    parsed = undefined;
  }
  const list = (parsed as { scores?: unknown })?.scores;
  if (!Array.isArray(list)) {
    throw new HierdocError("E_RERANK", `LLM reranker reply has no JSON scores: ${JSON.stringify(text.slice(0, 120))}`, { retryable: true });
  }
  const out = new Map<string, number>();
  for (const item of list as Array<{ id?: unknown; score?: unknown }>) {
    const idx = Number(item?.id) - 1;
    const score = Number(item?.score);
    const c = batch[idx];
    if (c && Number.isFinite(score)) out.set(c.id, Math.min(10, Math.max(0, score)));
  }
  return out;
}
