import { OpenAIContextGenerator, CONTEXT_PROMPT_TEMPLATE, MODEL_PRICES, estimateCost } from "@hierdoc/contextualizer";
import { makeDocument, openaiResponder, startFakeServer, type FakeServer } from "./fake-llm-server.js";

const fastRetry = { baseDelayMs: 5, maxDelayMs: 2000, random: () => 0 };

describe("OpenAIContextGenerator against a local Chat Completions server", () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer(openaiResponder());
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.responder = openaiResponder();
  });

  it("openai: the plan's prompt as one user message, max_completion_tokens, temperature 0; cached tokens are cache reads", async () => {
    const gen = new OpenAIContextGenerator({ apiKey: "sk-o", baseURL: `${server.url}/v1`, maxTokens: 90, retry: fastRetry });
    const { document, chunks } = makeDocument(3);
    const results = await gen.generate(chunks.map((chunk) => ({ document, chunk })));
    expect(results.every((r) => !r.error && r.context.includes("sits in the test regulation"))).toBe(true);
    const req = server.requests[0]!;
    expect(req.url).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-o");
    expect(req.body).toMatchObject({ model: "gpt-4o-mini", max_completion_tokens: 90, temperature: 0 });
    expect(req.body.max_tokens).toBeUndefined();
    expect(req.body.messages[0].role).toBe("system");
    expect(req.body.messages[1]).toEqual({
      role: "user",
      content: CONTEXT_PROMPT_TEMPLATE.replace("{document}", document.text).replace("{chunk}", chunks[0]!.content),
    });
    const m = gen.usage().models[0]!;
    expect(m).toMatchObject({ model: "gpt-4o-mini", requests: 3, cacheCreationInputTokens: 0 });
    expect(m.cacheReadInputTokens).toBeGreaterThan(0);
    const promptTokens = server.requests.reduce(
      (s, r) => s + Math.ceil((r.body.messages as Array<{ content: string }>).map((x) => x.content).join("\n").length / 4),
      0,
    );
    expect(m.inputTokens + m.cacheReadInputTokens).toBe(promptTokens);
    expect(m.costUsd).toBeCloseTo(estimateCost(m, MODEL_PRICES["gpt-4o-mini"]!), 12);
  });

  it("openai-compatible (Ollama, vLLM, llama.cpp, LM Studio): baseURL, max_tokens, an unknown model reports tokens and no cost", async () => {
    const gen = new OpenAIContextGenerator({ provider: "openai-compatible", model: "llama3.1:8b", baseURL: `${server.url}/v1`, retry: fastRetry });
    const { document, chunks } = makeDocument(1);
    const [r] = await gen.generate([{ document, chunk: chunks[0]! }]);
    expect(r!.error).toBeUndefined();
    expect(server.requests[0]!.body).toMatchObject({ model: "llama3.1:8b", max_tokens: 100 });
    const usage = gen.usage();
    expect(usage.models[0]!.outputTokens).toBeGreaterThan(0);
    expect(usage.models[0]!.costUsd).toBeNull();
    expect(usage.totalCostUsd).toBeNull();
  });

  it("azure-openai: the deployment URL, api-version and api-key header of the AzureOpenAI client", async () => {
    const gen = new OpenAIContextGenerator({
      apiKey: "az-key",
      azure: { endpoint: server.url, deployment: "ctx-mini", apiVersion: "2024-10-21" },
      retry: fastRetry,
    });
    const { document, chunks } = makeDocument(1);
    const [r] = await gen.generate([{ document, chunk: chunks[0]! }]);
    expect(r!.error).toBeUndefined();
    const req = server.requests[0]!;
    expect(req.url).toBe("/openai/deployments/ctx-mini/chat/completions?api-version=2024-10-21");
    expect(req.headers["api-key"]).toBe("az-key");
    expect(req.body).toMatchObject({ model: "ctx-mini", max_tokens: 100 });
    expect(gen.id).toMatch(/^azure-openai:ctx-mini:/);
  });

  it("429 with retry-after-ms, then 502, then success", async () => {
    const replies = [
      { status: 429, headers: { "retry-after-ms": "30" }, json: { error: { message: "rate", type: "requests", code: "rate_limit_exceeded" } } },
      { status: 502, json: { error: { message: "bad gateway" } } },
    ];
    const ok = openaiResponder();
    server.responder = (req) => replies.shift() ?? ok(req);
    const waits: number[] = [];
    const gen = new OpenAIContextGenerator({ apiKey: "k", baseURL: server.url, retry: fastRetry, onRetry: (i) => waits.push(i.delayMs) });
    const { document, chunks } = makeDocument(1);
    const [r] = await gen.generate([{ document, chunk: chunks[0]! }]);
    expect(r!.error).toBeUndefined();
    expect(waits).toEqual([30, 5]); // server's wait, then 10·2^1/2 with jitter 0 → 5
    expect(server.requests).toHaveLength(3);
  });

  it("a response without choices is a malformed body (retried, then reported)", async () => {
    server.responder = () => ({ json: { id: "x", object: "chat.completion" } });
    const gen = new OpenAIContextGenerator({ apiKey: "k", baseURL: server.url, retry: { ...fastRetry, maxRetries: 1 } });
    const { document, chunks } = makeDocument(1);
    const [r] = await gen.generate([{ document, chunk: chunks[0]! }]);
    expect(r!.error).toMatchObject({ code: "E_LLM", message: expect.stringMatching(/malformed/) });
    expect(server.requests).toHaveLength(2);
  });
});
