import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, SAMPLE } from "./run-cli.js";

/** A local server speaking the Anthropic Messages wire format, with prompt-caching usage. */
function anthropicStub(): { server: Server; requests: Array<Record<string, unknown>>; start: () => Promise<string> } {
  const requests: Array<Record<string, unknown>> = [];
  const cachedDocs = new Set<string>();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.startsWith("/v1/messages")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "no" } }));
        return;
      }
      const parsed = JSON.parse(body) as { model: string; messages: Array<{ content: Array<{ type: string; text: string; cache_control?: unknown }> }> };
      requests.push(parsed as unknown as Record<string, unknown>);
      const blocks = parsed.messages[0].content;
      const doc = blocks.find((b) => b.cache_control)?.text ?? "";
      const docTokens = Math.ceil(doc.length / 4);
      const first = !cachedDocs.has(doc);
      cachedDocs.add(doc);
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `msg_${requests.length}`,
          type: "message",
          role: "assistant",
          model: parsed.model,
          content: [{ type: "text", text: "This chunk belongs to the Harbour Data Protection Act and concerns port records." }],
          stop_reason: "end_turn",
          stop_sequence: null,
          usage: {
            input_tokens: 60,
            cache_creation_input_tokens: first ? docTokens : 0,
            cache_read_input_tokens: first ? 0 : docTokens,
            output_tokens: 18,
          },
        }),
      );
    });
  });
  return {
    server,
    requests,
    start: () => new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
  };
}

describe("hierdoc ingest with an LLM context model (local Anthropic-format server)", () => {
  const tmp = mkdtempSync(join(tmpdir(), "hierdoc-llm-"));
  const stub = anthropicStub();
  let config = "";
  beforeAll(async () => {
    const url = await stub.start();
    config = join(tmp, "agent.yaml");
    writeFileSync(
      config,
      `tools:
  - name: legal
    type: hierarchical_document
    source: ${join(SAMPLE, "harbour-data-act.md")}
    context_model: { provider: anthropic, name: claude-3-haiku-20240307, base_url: "${url}", api_key: "\${TEST_ANTHROPIC_KEY}" }
    context_concurrency: 4
`,
    );
  });
  afterAll(async () => {
    await new Promise((r) => stub.server.close(r));
    rmSync(tmp, { recursive: true, force: true });
  });

  it("writes the document to the cache once, reads it for every other chunk, and reports the cost", async () => {
    const res = await runCli(["ingest", "--config", config, "--tool", "legal", "--index", join(tmp, "index"), "--json"], {
      env: { TEST_ANTHROPIC_KEY: "sk-test-not-a-secret" },
    });
    expect(res.stderr).not.toContain("error:");
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    const chunks = out.files[0].chunks;
    expect(chunks).toBeGreaterThan(5);
    expect(stub.requests).toHaveLength(chunks);
    const usage = out.llm_usage.models[0];
    expect(usage.requests).toBe(chunks);
    expect(usage.cacheCreationInputTokens).toBeGreaterThan(0);
    expect(usage.cacheReadInputTokens).toBe(usage.cacheCreationInputTokens * (chunks - 1));
    expect(usage.costUsd).toBeGreaterThan(0);
    const first = stub.requests[0] as { model: string; max_tokens: number; messages: Array<{ content: Array<{ cache_control?: unknown }> }> };
    expect(first.model).toBe("claude-3-haiku-20240307");
    expect(first.max_tokens).toBe(100);
    expect(first.messages[0].content.some((b) => b.cache_control)).toBe(true);
    const hit = JSON.parse((await runCli(["search", "port records", "--index", join(tmp, "index"), "--json", "--top-k", "1"])).stdout);
    expect(hit.results[0].context).toContain("Harbour Data Protection Act");
    const stats = JSON.parse((await runCli(["stats", "--index", join(tmp, "index"), "--json"])).stdout);
    expect(JSON.stringify(stats)).not.toContain("sk-test");
    expect(stats.llm_usage.models[0].requests).toBe(chunks);
  });

  it("makes zero LLM calls when the same file is ingested again, even with --force", async () => {
    const before = stub.requests.length;
    const res = await runCli(["ingest", "--config", config, "--tool", "legal", "--index", join(tmp, "index"), "--force", "--json"], {
      env: { TEST_ANTHROPIC_KEY: "sk-test-not-a-secret" },
    });
    expect(res.code).toBe(0);
    expect(stub.requests.length).toBe(before);
    expect(JSON.parse(res.stdout).llm_usage.models[0].cachedContexts).toBeGreaterThan(5);
  });

  it("fails with a config error naming the variable when the API key is missing", async () => {
    const res = await runCli(["ingest", "--config", config, "--tool", "legal", "--index", join(tmp, "index2")]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("TEST_ANTHROPIC_KEY");
  });
});
