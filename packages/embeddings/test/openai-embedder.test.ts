import { OpenAIEmbedder, cosineSimilarity } from "@hierdoc/embeddings";
import { FakeEmbeddingsServer, fakeVector, json } from "./fake-embeddings-server.js";

const server = new FakeEmbeddingsServer();
let baseURL: string;

beforeAll(async () => {
  baseURL = `${await server.start()}/v1`;
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.queue.length = 0;
  server.dims = 8;
});

function normalized(values: number[]): number[] {
  const n = Math.hypot(...values);
  return values.map((x) => Math.fround(Math.fround(x) / n));
}

function embedder(extra: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}): OpenAIEmbedder {
  return new OpenAIEmbedder({ provider: "openai-compatible", model: "nomic-embed-text", dimensions: 8, apiKey: "sk-test", baseURL, maxRetries: 2, ...extra });
}

describe("OpenAIEmbedder against a local Embeddings server", () => {
  it("sends model, input and encoding_format=base64, decodes base64 floats in input order, normalised", async () => {
    const texts = ["Right to erasure", "Highway funds", "Firearms records"];
    const vectors = await embedder().embedDocuments(texts);
    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/v1/embeddings");
    expect(req.headers.authorization).toBe("Bearer sk-test");
    expect(req.body).toEqual({ model: "nomic-embed-text", input: texts, encoding_format: "base64" });
    texts.forEach((t, i) => {
      expect(vectors[i]).toHaveLength(8);
      Array.from(vectors[i]).forEach((x, d) => expect(x).toBeCloseTo(normalized(fakeVector(t, 8))[d], 6));
    });
    expect(cosineSimilarity(vectors[0], vectors[1])).toBeLessThan(0.9999);
  });

  it("accepts float arrays when encoding_format=float and sends dimensions to OpenAI text-embedding-3", async () => {
    const e = new OpenAIEmbedder({ model: "text-embedding-3-small", dimensions: 8, apiKey: "sk-test", baseURL, encodingFormat: "float" });
    expect(e.id).toBe("openai:text-embedding-3-small:8");
    const v = await e.embedQuery("erasure of personal data");
    expect(server.requests[0].body).toEqual({ model: "text-embedding-3-small", input: ["erasure of personal data"], encoding_format: "float", dimensions: 8 });
    expect(Array.from(v).map((x) => Number(x.toFixed(5)))).toEqual(normalized(fakeVector("erasure of personal data", 8)).map((x) => Number(x.toFixed(5))));
  });

  it("batches by input count and by estimated tokens, preserving order", async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `text number ${i} ${"word ".repeat(i * 3)}`);
    const byCount = await embedder({ batchSize: 3 }).embedDocuments(texts);
    expect(server.requests.map((r) => (r.body?.input as string[]).length)).toEqual([3, 3, 1]);
    server.requests.length = 0;
    const byTokens = await embedder({ maxTokensPerRequest: 20, estimateTokens: (t) => t.split(" ").length, concurrency: 1 }).embedDocuments(texts);
    const sizes = server.requests.map((r) => (r.body?.input as string[]).map((t) => t.split(" ").length));
    for (const batch of sizes) if (batch.length > 1) expect(batch.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(20);
    expect(server.requests.flatMap((r) => r.body?.input as string[])).toEqual(texts);
    expect(byTokens.map((v) => Array.from(v))).toEqual(byCount.map((v) => Array.from(v)));
  });

  it("embeds empty texts to zero vectors without sending them", async () => {
    const [a, b] = await embedder().embedDocuments(["", "real text"]);
    expect(Array.from(a)).toEqual(new Array(8).fill(0));
    expect(Math.hypot(...b)).toBeCloseTo(1, 5);
    expect(server.requests[0].body?.input).toEqual(["real text"]);
  });

  it("retries a 429 (honouring retry-after-ms) and then succeeds", async () => {
    server.queue.push((_req, res) => json(res, 429, { error: { message: "Rate limit reached", type: "rate_limit_error" } }, { "retry-after-ms": "10" }));
    const v = await embedder().embedQuery("retry me");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].body).toEqual(server.requests[0].body);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });

  it("gives up after persistent 500s with a retryable E_EMBEDDING naming the status", async () => {
    for (let i = 0; i < 5; i++) server.queue.push((_req, res) => json(res, 500, { error: { message: "boom" } }, { "retry-after-ms": "5" }));
    await expect(embedder({ maxRetries: 2 }).embedQuery("x")).rejects.toMatchObject({
      name: "HierdocError",
      code: "E_EMBEDDING",
      retryable: true,
      details: { adapter: "openai-compatible", operation: "embed", status: 500 },
    });
    expect(server.requests).toHaveLength(3);
  });

  it("maps a 400 to a non-retryable E_EMBEDDING without retrying", async () => {
    server.queue.push((_req, res) => json(res, 400, { error: { message: "input too long", type: "invalid_request_error" } }));
    const err = await embedder().embedQuery("x").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "E_EMBEDDING", retryable: false, details: { status: 400 } });
    expect(String((err as Error).message)).toMatch(/HTTP 400/);
    expect(server.requests).toHaveLength(1);
  });

  it("maps malformed JSON and wrong-shaped bodies to E_EMBEDDING", async () => {
    server.queue.push((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"object":"list","data":[{"index":0,');
      return true;
    });
    const truncated = await embedder().embedQuery("x").catch((e: unknown) => e);
    expect(truncated).toMatchObject({ code: "E_EMBEDDING", retryable: false });
    expect((truncated as Error).message).toMatch(/malformed/);
    server.queue.push((_req, res) => json(res, 200, { object: "list", data: [] }));
    const empty = await embedder().embedQuery("x").catch((e: unknown) => e);
    expect(empty).toMatchObject({ code: "E_EMBEDDING", retryable: false });
    expect((empty as Error).message).toMatch(/malformed.*expected 1 embeddings/);
  });

  it("reports E_DIMENSION_MISMATCH when the service returns another size", async () => {
    server.dims = 12;
    await expect(embedder().embedQuery("x")).rejects.toMatchObject({ code: "E_DIMENSION_MISMATCH", details: { expected: 8, actual: 12 } });
  });

  it("retries network errors itself after the SDK gives up, then maps them as retryable", async () => {
    server.queue.push((_req, res) => {
      res.socket?.destroy();
      return true;
    });
    const v = await embedder({ maxRetries: 0, networkRetries: 1, networkRetryDelayMs: 5 }).embedQuery("flaky network");
    expect(server.requests).toHaveLength(2);
    expect(v).toHaveLength(8);
    const unreachable = new OpenAIEmbedder({ provider: "openai-compatible", model: "m", dimensions: 8, apiKey: "k", baseURL: "http://127.0.0.1:1/v1", maxRetries: 0, networkRetries: 0 });
    await expect(unreachable.embedQuery("x")).rejects.toMatchObject({ code: "E_EMBEDDING", retryable: true });
  });

  it("maps a request timeout to a retryable E_EMBEDDING", async () => {
    server.queue.push((req, res) => {
      setTimeout(() => server.respondEmbeddings(req, res), 300);
      return true;
    });
    const err = await embedder({ timeoutMs: 50, maxRetries: 0, networkRetries: 0 }).embedQuery("slow").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "E_EMBEDDING", retryable: true });
    expect((err as Error).message).toMatch(/timed out|cannot reach/i);
  });

  it("talks to Azure OpenAI deployments with api-version and api-key", async () => {
    const azure = new OpenAIEmbedder({ provider: "azure-openai", model: "text-embedding-3-large", deployment: "emb-prod", dimensions: 8, apiKey: "az-key", baseURL: baseURL.replace(/\/v1$/, ""), apiVersion: "2024-10-21" });
    expect(azure.id).toBe("azure-openai:emb-prod:8");
    await azure.embedQuery("erasure");
    const [req] = server.requests;
    expect(req.url).toBe("/openai/deployments/emb-prod/embeddings?api-version=2024-10-21");
    expect(req.headers["api-key"]).toBe("az-key");
    expect(req.body).toMatchObject({ input: ["erasure"], encoding_format: "base64", dimensions: 8 });
  });

  it("refuses an unknown model without dimensions (E_CONFIG)", () => {
    expect(() => new OpenAIEmbedder({ provider: "openai-compatible", model: "mystery", apiKey: "k", baseURL })).toThrow(
      expect.objectContaining({ code: "E_CONFIG", details: { path: "embedding.dimensions" } }),
    );
  });

  it("refuses a missing API key with E_CONFIG on the first request (the SDK is created then), sending nothing", async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const keyless = new OpenAIEmbedder({ model: "text-embedding-3-small", baseURL });
      await expect(keyless.embedQuery("erasure")).rejects.toMatchObject({ code: "E_CONFIG", details: { path: "embedding" }, message: expect.stringMatching(/OPENAI_API_KEY/) });
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
