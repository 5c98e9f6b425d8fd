import { afterEach, describe, expect, it } from "@jest/globals";
import type { RerankCandidate } from "@hierdoc/core";
import { LlmReranker, parseScores } from "@hierdoc/rerank";
import { fakeServer, type Reply } from "./fake-server.js";

const candidates: RerankCandidate[] = Array.from({ length: 5 }, (_, i) => ({
  id: `c${i}`,
  content: `Passage number ${i} about ${i === 3 ? "the audit deadline" : "fees"}.`,
  context: "",
  sectionId: `${i}`,
  sectionTitle: "",
  parentChain: ["Rulebook"],
}));

/** Scores each passage in a prompt: the one mentioning "audit" gets 9, others 1 + position. */
function scoresFor(prompt: string): string {
  const passages = [...prompt.matchAll(/<passage id="(\d+)">\n([^<]*)<\/passage>/g)];
  return JSON.stringify({ scores: passages.map((m) => ({ id: Number(m[1]), score: m[2].includes("audit") ? 9 : 1 })) });
}

function anthropicReply(text: string): Reply {
  return {
    json: {
      id: "msg_01",
      type: "message",
      role: "assistant",
      model: "claude-3-5-haiku-latest",
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 120, output_tokens: 30 },
    },
  };
}

function openaiReply(text: string): Reply {
  return {
    json: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1700000000,
      model: "gpt-4.1-mini",
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    },
  };
}

describe("LlmReranker", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("batches candidates into Messages calls and ranks by the JSON scores (Anthropic)", async () => {
    const replies: Reply[] = [];
    const dynamic = await fakeServer(replies);
    close = dynamic.close;
    const batch1 = candidates.slice(0, 3).map((c, i) => `<passage id="${i + 1}">\nRulebook\n${c.content}\n</passage>`).join("\n");
    const batch2 = candidates.slice(3).map((c, i) => `<passage id="${i + 1}">\nRulebook\n${c.content}\n</passage>`).join("\n");
    replies.push(anthropicReply(scoresFor(batch1)), anthropicReply("Here you go:\n```json\n" + scoresFor(batch2) + "\n```"));
    const rr = new LlmReranker({ provider: "anthropic", model: "claude-3-5-haiku-latest", apiKey: "sk-ant", baseUrl: dynamic.url, batchSize: 3, concurrency: 1 });
    const out = await rr.rerank("when is the audit due", candidates, 2);
    expect(dynamic.seen).toHaveLength(2);
    const first = dynamic.seen[0];
    expect(first.url).toBe("/v1/messages");
    expect(String(first.headers["x-api-key"] ?? first.headers.authorization)).toMatch(/^(Bearer )?sk-ant$/);
    expect(first.headers["anthropic-version"]).toBeTruthy();
    expect(first.body.model).toBe("claude-3-5-haiku-latest");
    expect(String(first.body.system)).toMatch(/JSON only/);
    const user = (first.body.messages as Array<{ content: string }>)[0].content;
    expect(user).toContain("Query: when is the audit due");
    expect(user.match(/<passage id=/g)).toHaveLength(3);
    expect(out.map((s) => s.id)).toEqual(["c3", "c0"]);
    expect(out[0].score).toBe(9);
    expect(rr.usage).toEqual({ calls: 2, inputTokens: 240, outputTokens: 60 });
  });

  it("speaks Chat Completions for openai-compatible endpoints and retries a 429", async () => {
    const prompt = candidates.map((c, i) => `<passage id="${i + 1}">\nRulebook\n${c.content}\n</passage>`).join("\n");
    const srv = await fakeServer([{ status: 429, json: { error: { message: "slow down" } }, headers: { "retry-after": "0" } }, openaiReply(scoresFor(prompt))]);
    close = srv.close;
    const rr = new LlmReranker({ provider: "openai-compatible", model: "local-llm", baseUrl: `${srv.url}/v1`, batchSize: 10, retryBaseDelayMs: 5 });
    const out = await rr.rerank("audit", candidates, 5);
    expect(srv.seen.map((s) => s.url)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
    expect(srv.seen[1].body.model).toBe("local-llm");
    expect((srv.seen[1].body.messages as Array<{ role: string }>).map((m) => m.role)).toEqual(["system", "user"]);
    expect(out[0].id).toBe("c3");
    expect(out.slice(1).map((s) => s.id)).toEqual(["c0", "c1", "c2", "c4"]);
    expect(rr.usage.calls).toBe(1);
  });

  it("fails with E_RERANK when the model's reply has no JSON scores (after its retries)", async () => {
    const srv = await fakeServer([openaiReply("I think passage 2 is best.")]);
    close = srv.close;
    const rr = new LlmReranker({ provider: "openai", model: "gpt-4.1-mini", apiKey: "sk", baseUrl: `${srv.url}/v1`, maxRetries: 1, retryBaseDelayMs: 5 });
    await expect(rr.rerank("audit", candidates.slice(0, 2), 2)).rejects.toMatchObject({ code: "E_RERANK" });
    expect(srv.seen).toHaveLength(2);
  });

  it("parseScores clamps scores and ignores unknown passage numbers", () => {
    const out = parseScores('{"scores":[{"id":1,"score":14},{"id":2,"score":-3},{"id":9,"score":5}]}', candidates.slice(0, 2));
    expect([...out]).toEqual([
      ["c0", 10],
      ["c1", 0],
    ]);
  });

  it("needs a key for hosted providers and a base_url for openai-compatible", () => {
    expect(() => new LlmReranker({ provider: "anthropic", model: "m" })).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => new LlmReranker({ provider: "openai-compatible", model: "m" })).toThrow(/base_url/);
  });
});
