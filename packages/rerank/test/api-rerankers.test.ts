import { afterEach, describe, expect, it } from "@jest/globals";
import type { RerankCandidate, Reranker } from "@hierdoc/core";
import { CohereReranker, JinaReranker, VoyageReranker } from "@hierdoc/rerank";
import { fakeServer, type Reply } from "./fake-server.js";

const candidates: RerankCandidate[] = ["capital adequacy", "client money", "audit deadline"].map((t, i) => ({
  id: `c${i}`,
  content: `Rules on ${t}.`,
  context: "",
  sectionId: `${i + 1}.1`,
  sectionTitle: t,
  parentChain: ["Rulebook", `Chapter ${i + 1}`],
}));
const QUERY = "when is the audit due";

/** One API: how to build it against a base URL, where it posts, how its body names top-n, a realistic success. */
interface Api {
  name: string;
  make: (baseUrl: string, extra?: { timeoutMs?: number; maxRetries?: number }) => Reranker;
  base: (url: string) => string;
  path: string;
  model: string;
  topKey: string;
  ok: Reply;
}

const apis: Api[] = [
  {
    name: "cohere v2 /rerank",
    make: (baseUrl, extra) => new CohereReranker({ apiKey: "co-key", baseUrl, model: "rerank-v3.5", retryBaseDelayMs: 5, ...extra }),
    base: (url) => url,
    path: "/v2/rerank",
    model: "rerank-v3.5",
    topKey: "top_n",
    ok: {
      json: {
        id: "07734bd2-2473-4f07-94e1-0d9f0e6843cf",
        results: [
          { index: 2, relevance_score: 0.9871 },
          { index: 0, relevance_score: 0.0312 },
        ],
        meta: { api_version: { version: "2" }, billed_units: { search_units: 1 } },
      },
    },
  },
  {
    name: "voyage /v1/rerank",
    make: (baseUrl, extra) => new VoyageReranker({ apiKey: "pa-key", baseUrl, model: "rerank-2.5", retryBaseDelayMs: 5, ...extra }),
    base: (url) => `${url}/v1`,
    path: "/v1/rerank",
    model: "rerank-2.5",
    topKey: "top_k",
    ok: {
      json: {
        object: "list",
        data: [
          { relevance_score: 0.9871, index: 2 },
          { relevance_score: 0.0312, index: 0 },
        ],
        model: "rerank-2.5",
        usage: { total_tokens: 42 },
      },
    },
  },
  {
    name: "jina /v1/rerank",
    make: (baseUrl, extra) => new JinaReranker({ apiKey: "jina_key", baseUrl, model: "jina-reranker-v2-base-multilingual", retryBaseDelayMs: 5, ...extra }),
    base: (url) => `${url}/v1`,
    path: "/v1/rerank",
    model: "jina-reranker-v2-base-multilingual",
    topKey: "top_n",
    ok: {
      json: {
        model: "jina-reranker-v2-base-multilingual",
        usage: { total_tokens: 42 },
        results: [
          { index: 2, relevance_score: 0.9871 },
          { index: 0, relevance_score: 0.0312 },
        ],
      },
    },
  },
];

describe.each(apis)("$name wire format", (api) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("posts model, query, documents and top-n with the bearer key, and maps indexes back to ids", async () => {
    const srv = await fakeServer([api.ok]);
    close = srv.close;
    const out = await api.make(api.base(srv.url)).rerank(QUERY, candidates, 2);
    expect(srv.seen).toHaveLength(1);
    const req = srv.seen[0];
    expect(req.method).toBe("POST");
    expect(req.url).toBe(api.path);
    expect(String(req.headers.authorization)).toMatch(/^Bearer (co-key|pa-key|jina_key)$/);
    expect(req.body.model).toBe(api.model);
    expect(req.body.query).toBe(QUERY);
    expect(req.body.documents).toEqual(["Rulebook > Chapter 1\nRules on capital adequacy.", "Rulebook > Chapter 2\nRules on client money.", "Rulebook > Chapter 3\nRules on audit deadline."]);
    expect(req.body[api.topKey]).toBe(2);
    expect(out).toEqual([
      { id: "c2", score: 0.9871 },
      { id: "c0", score: 0.0312 },
    ]);
  });

  it("retries a 429 (honouring Retry-After) and a 503, then succeeds", async () => {
    const srv = await fakeServer([
      { status: 429, json: { message: "rate limited" }, headers: { "retry-after": "0" } },
      { status: 503, json: { message: "unavailable" } },
      api.ok,
    ]);
    close = srv.close;
    const out = await api.make(api.base(srv.url), { maxRetries: 2 }).rerank(QUERY, candidates, 2);
    expect(srv.seen).toHaveLength(3);
    expect(out[0].id).toBe("c2");
  });

  it("gives up after the bounded retries with E_RERANK naming the status", async () => {
    const srv = await fakeServer([{ status: 500, json: { message: "boom" } }]);
    close = srv.close;
    await expect(api.make(api.base(srv.url), { maxRetries: 1 }).rerank(QUERY, candidates, 2)).rejects.toMatchObject({
      code: "E_RERANK",
      message: expect.stringMatching(/HTTP 500.*2 attempt/),
    });
    expect(srv.seen).toHaveLength(2);
  });

  it("does not retry a 400", async () => {
    const srv = await fakeServer([{ status: 400, json: { message: "invalid request: top_n" } }]);
    close = srv.close;
    await expect(api.make(api.base(srv.url), { maxRetries: 2 }).rerank(QUERY, candidates, 2)).rejects.toMatchObject({ code: "E_RERANK", retryable: false });
    expect(srv.seen).toHaveLength(1);
  });

  it("times out a hanging server with E_TIMEOUT after the bounded retries", async () => {
    const srv = await fakeServer([{ hang: true }]);
    close = srv.close;
    await expect(api.make(api.base(srv.url), { timeoutMs: 150, maxRetries: 1 }).rerank(QUERY, candidates, 2)).rejects.toMatchObject({ code: "E_TIMEOUT" });
    expect(srv.seen).toHaveLength(2);
  });

  it("rejects a response naming a document index that was not sent", async () => {
    const bad = JSON.parse(JSON.stringify(api.ok.json).replace('"index":2', '"index":7')) as unknown;
    const srv = await fakeServer([{ json: bad }]);
    close = srv.close;
    await expect(api.make(api.base(srv.url)).rerank(QUERY, candidates, 2)).rejects.toMatchObject({ code: "E_RERANK" });
  });
});

describe("API keys", () => {
  it("fails with E_CONFIG naming the environment variable when no key is given", () => {
    expect(() => new CohereReranker({})).toThrow(/COHERE_API_KEY/);
    expect(() => new VoyageReranker({})).toThrow(/VOYAGE_API_KEY/);
    expect(() => new JinaReranker({})).toThrow(/JINA_API_KEY/);
  });
});

const live: Array<[string, string, (key: string) => Reranker]> = [
  ["COHERE_API_KEY", "cohere", (apiKey) => new CohereReranker({ apiKey })],
  ["VOYAGE_API_KEY", "voyage", (apiKey) => new VoyageReranker({ apiKey })],
  ["JINA_API_KEY", "jina", (apiKey) => new JinaReranker({ apiKey })],
];
for (const [variable, name, make] of live) {
  const key = process.env[variable];
  const test = key ? it : it.skip;
  test(`live ${name} rerank ranks the audit chunk first${key ? "" : ` (skipped: ${variable} not set)`}`, async () => {
    const out = await make(key!).rerank(QUERY, candidates, 3);
    expect(out[0].id).toBe("c2");
  }, 30_000);
}
