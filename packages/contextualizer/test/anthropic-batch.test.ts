import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnthropicBatchContextGenerator, BATCH_MODEL_PRICES, estimateCost, FileContextCache } from "@hierdoc/contextualizer";
import { anthropicResponder, makeDocument, startFakeServer, type FakeServer, type SeenRequest } from "./fake-llm-server.js";

interface FakeBatch {
  id: string;
  requests: Array<{ custom_id: string; params: unknown }>;
  polls: number;
}

/** Speaks the Message Batches API: create, retrieve (ends after `endAfter` polls), results as JSONL. */
function batchesResponder(server: () => FakeServer, endAfter: number, failIds: (customId: string, index: number) => boolean = () => false) {
  const batches = new Map<string, FakeBatch>();
  const message = anthropicResponder();
  const view = (b: FakeBatch) => {
    const ended = b.polls >= endAfter;
    return {
      id: b.id,
      type: "message_batch",
      processing_status: ended ? "ended" : "in_progress",
      request_counts: { processing: ended ? 0 : b.requests.length, succeeded: ended ? b.requests.length : 0, errored: 0, canceled: 0, expired: 0 },
      created_at: "2026-12-02T10:00:00Z",
      expires_at: "2026-12-03T10:00:00Z",
      ended_at: ended ? "2026-12-02T10:05:00Z" : null,
      archived_at: null,
      cancel_initiated_at: null,
      results_url: ended ? `${server().url}/v1/messages/batches/${b.id}/results` : null,
    };
  };
  return (req: SeenRequest) => {
    if (req.method === "POST" && req.url === "/v1/messages/batches") {
      const b: FakeBatch = { id: `msgbatch_${batches.size + 1}`, requests: req.body.requests, polls: 0 };
      batches.set(b.id, b);
      return { json: view(b) };
    }
    const m = /^\/v1\/messages\/batches\/([^/?]+)(\/results)?/.exec(req.url);
    const b = m ? batches.get(m[1]!) : undefined;
    if (!b) return { status: 404, json: { type: "error", error: { type: "not_found_error", message: "no batch" } } };
    if (!m![2]) {
      b.polls++;
      return { json: view(b) };
    }
    const lines = b.requests.map((r, i) =>
      JSON.stringify({
        custom_id: r.custom_id,
        result: failIds(r.custom_id, i)
          ? { type: "errored", error: { type: "error", error: { type: "api_error", message: "x" } } }
          : { type: "succeeded", message: (message({ ...req, body: r.params }).json as object) },
      }),
    );
    return { headers: { "content-type": "application/binary" }, text: `${lines.join("\n")}\n` };
  };
}

describe("AnthropicBatchContextGenerator against a local Message Batches server", () => {
  let server: FakeServer;
  let dir: string;
  beforeAll(async () => {
    server = await startFakeServer(() => ({ status: 500 }));
    dir = await mkdtemp(join(tmpdir(), "hierdoc-batch-"));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("submits one batch, records it, resumes it after a restart without resubmitting, and then needs no calls", async () => {
    server.requests.length = 0;
    server.responder = batchesResponder(() => server, 3, (_, i) => i === 4);
    const stateDir = join(dir, "contexts");
    const { document, chunks } = makeDocument(6);
    const requests = chunks.map((chunk) => ({ document, chunk }));
    const make = (maxWaitMs: number) =>
      new AnthropicBatchContextGenerator({ stateDir, model: "claude-3-haiku-20240307", apiKey: "k", baseURL: server.url, cache: new FileContextCache(stateDir), pollIntervalMs: 5, maxWaitMs, retry: { baseDelayMs: 5 } });

    // run 1: submit and return at once
    const first = await make(0).generate(requests);
    expect(first.every((r) => r.context === "" && r.error?.message.includes("pending in Anthropic batch msgbatch_1"))).toBe(true);
    const creates = server.requests.filter((r) => r.method === "POST");
    expect(creates).toHaveLength(1);
    const sent = creates[0]!.body.requests;
    expect(sent).toHaveLength(6);
    expect(sent[0].custom_id).toMatch(/^[0-9a-f]{64}$/);
    expect(sent[0].params.messages[0].content[0].cache_control).toEqual({ type: "ephemeral" });
    expect(sent[0].params).toMatchObject({ model: "claude-3-haiku-20240307", max_tokens: 100, temperature: 0 });
    const state = JSON.parse(await readFile(join(stateDir, "anthropic-batches.json"), "utf8"));
    expect(state.batches.map((b: { id: string }) => b.id)).toEqual(["msgbatch_1"]);

    // run 2 ("after a restart"): a new instance collects the same batch
    server.requests.length = 0;
    const gen2 = make(60_000);
    const second = await gen2.generate(requests);
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(0);
    expect(second.filter((r) => r.context !== "")).toHaveLength(5);
    expect(second[4]!.error).toMatchObject({ code: "E_LLM", retryable: true });
    const m = gen2.usage().models[0]!;
    expect(m.requests).toBe(5);
    expect(m.costUsd).toBeCloseTo(estimateCost(m, BATCH_MODEL_PRICES["claude-3-haiku"]!), 12);
    expect(BATCH_MODEL_PRICES["claude-3-haiku"]!.input).toBe(0.125);
    expect(JSON.parse(await readFile(join(stateDir, "anthropic-batches.json"), "utf8")).batches).toEqual([]);

    // run 3: the five cached contexts cost nothing; the errored chunk is resubmitted alone
    server.requests.length = 0;
    const third = await make(60_000).generate(requests);
    const posts = server.requests.filter((r) => r.method === "POST");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body.requests).toHaveLength(1);
    expect(third.every((r) => r.context !== "" && !r.error)).toBe(true);
    expect(third.slice(0, 4)).toEqual(second.slice(0, 4));

    // run 4: nothing left to ask
    server.requests.length = 0;
    await make(60_000).generate(requests);
    expect(server.requests).toHaveLength(0);
  });
});
