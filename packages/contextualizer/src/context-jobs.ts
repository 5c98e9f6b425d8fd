import type { ContextRequest, ContextResult, ConvertedDocument } from "@hierdoc/core";
import { contextCacheKey, hashText, type ContextCache } from "./context-cache.js";
import { CHARS_PER_TOKEN, documentWindow, estimateTokens } from "./document-window.js";
import { buildContextPrompt, CONTEXT_SYSTEM_PROMPT, PROMPT_TEMPLATE_VERSION, type ContextPrompt } from "./prompt.js";

/** System text and the prompt parts, as handed to a provider. */
export interface LlmCallInput {
  system: string;
  prompt: ContextPrompt;
}

/** One LLM call to make: a cache key, the prompt, the document window it shares, the requests it answers. */
export interface ContextJob {
  key: string;
  chunkId: string;
  /** `documentHash#windowIndex`: jobs of one group share a prompt-cache prefix. */
  group: string;
  input: LlmCallInput;
  /** Indexes into the request list answered by this job (identical chunks of one document share a job). */
  indexes: number[];
}

/** Settings of {@link planContextJobs}. */
export interface PlanSettings {
  /** `provider:model`, part of the cache key. */
  modelKey: string;
  cache: ContextCache;
  contextWindowTokens: number;
  maxTokens: number;
  /** Memo of document hashes (per generator). */
  hashes?: WeakMap<ConvertedDocument, string>;
}

/** What {@link planContextJobs} found: results pre-filled from the cache, and the calls still needed. */
export interface ContextPlan {
  results: ContextResult[];
  jobs: ContextJob[];
  cacheHits: number;
}

/**
 * Looks every request up in the cache and turns the misses into deduplicated jobs with their prompt: the
 * whole document, or a fixed window around the chunk when the document would not fit the context window
 * next to the longest chunk of that document, the system text and the answer.
 * @throws whatever the cache's `get` throws
 */
export async function planContextJobs(requests: ContextRequest[], settings: PlanSettings): Promise<ContextPlan> {
  const hashes = settings.hashes ?? new WeakMap<ConvertedDocument, string>();
  const hashOf = (d: ConvertedDocument): string => {
    let h = hashes.get(d);
    if (!h) hashes.set(d, (h = hashText(d.text)));
    return h;
  };
  const results: ContextResult[] = requests.map((r) => ({ chunkId: r.chunk.id, context: "" }));
  const jobs = new Map<string, ContextJob>();
  const reserve = new Map<ConvertedDocument, number>();
  for (const r of requests) reserve.set(r.document, Math.max(reserve.get(r.document) ?? 0, estimateTokens(r.chunk.content)));
  let cacheHits = 0;
  for (const [i, r] of requests.entries()) {
    const documentHash = hashOf(r.document);
    const key = contextCacheKey({ model: settings.modelKey, templateVersion: PROMPT_TEMPLATE_VERSION, documentHash, chunkText: r.chunk.content });
    const cached = await settings.cache.get(key);
    if (cached !== undefined) {
      results[i] = { chunkId: r.chunk.id, context: cached };
      cacheHits++;
      continue;
    }
    const existing = jobs.get(key);
    if (existing) {
      existing.indexes.push(i);
      continue;
    }
    const budgetTokens = settings.contextWindowTokens - settings.maxTokens - estimateTokens(CONTEXT_SYSTEM_PROMPT) - 200 - (reserve.get(r.document) ?? 0);
    const window = documentWindow(r.document.text, r.chunk.start, r.chunk.end, Math.max(1000, Math.floor(budgetTokens * CHARS_PER_TOKEN)));
    const input = { system: CONTEXT_SYSTEM_PROMPT, prompt: buildContextPrompt(window.text, r.chunk.content) };
    jobs.set(key, { key, chunkId: r.chunk.id, group: `${documentHash}#${window.index}`, input, indexes: [i] });
  }
  return { results, jobs: [...jobs.values()], cacheHits };
}
