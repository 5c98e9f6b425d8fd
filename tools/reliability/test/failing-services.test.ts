import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HierdocError, ToolConfigSchema, type KeywordDocument, type KeywordIndex, type KeywordSearchOptions, type ScoredId } from "@hierdoc/core";
import { HashEmbedder } from "@hierdoc/embeddings";
import { Bm25Index } from "@hierdoc/keyword-search";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool } from "@hierdoc/tool";
import { SAMPLE, runCli, stopAllClis } from "../src/index.js";

// LLM failures (429 / 529 / 500 / timeouts / malformed JSON) are covered in packages/contextualizer/test;
// this file covers the keyword leg, an embedding API and (postgres-drop.int.test.ts) a store connection.

/** A keyword index that works until told to fail: throw on search, hang on search, or throw on upsert. */
class FlakyKeyword implements KeywordIndex {
  readonly id = "flaky-keyword";
  mode: "ok" | "throw" | "hang" | "fail-upsert" = "ok";
  private readonly inner = new Bm25Index();
  async upsert(docs: KeywordDocument[]): Promise<void> {
    if (this.mode === "fail-upsert") throw new HierdocError("E_STORE_UNAVAILABLE", "keyword service: connection reset", { retryable: true });
    await this.inner.upsert(docs);
  }
  async remove(ids: string[]): Promise<void> {
    await this.inner.remove(ids);
  }
  async search(query: string, options: KeywordSearchOptions): Promise<ScoredId[]> {
    if (this.mode === "throw") throw new HierdocError("E_STORE_UNAVAILABLE", "keyword service: 503 Service Unavailable", { retryable: true });
    if (this.mode === "hang") return new Promise(() => {});
    return this.inner.search(query, options);
  }
  async size(): Promise<number> {
    return this.inner.size();
  }
  has(id: string): boolean {
    return this.inner.has(id);
  }
}

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hierdoc-failing-"));
});

afterAll(async () => {
  await stopAllClis();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openTool(indexDir: string, keyword: KeywordIndex): Promise<{ tool: HierarchicalDocumentTool; warnings: string[] }> {
  const warnings: string[] = [];
  const tool = await HierarchicalDocumentTool.open({
    config: ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: "." }),
    indexDir,
    store: new MemoryStore({ dir: join(indexDir, "store") }),
    embedder: new HashEmbedder({ dimensions: 256 }),
    keywordIndex: keyword,
    onWarning: (m) => warnings.push(m),
  });
  return { tool, warnings };
}

describe("a keyword index that fails", () => {
  it.each(["throw", "hang"] as const)("search still answers semantic-only with a warning when the keyword leg fails (%s)", async (mode) => {
    const keyword = new FlakyKeyword();
    const { tool, warnings } = await openTool(join(dir, `kw-${mode}`), keyword);
    try {
      await tool.ingest([SAMPLE]);
      const healthy = await tool.search("records retention period", { topK: 5, mode: "hybrid" });
      expect(healthy.results.some((r) => r.scores.keyword !== null)).toBe(true);
      keyword.mode = mode;
      const t0 = performance.now();
      const degraded = await tool.search("records retention period", { topK: 5, mode: "hybrid" });
      const elapsed = performance.now() - t0;
      expect(degraded.results.length).toBeGreaterThan(0);
      expect(degraded.results.every((r) => r.scores.keyword === null && r.scores.semantic !== null)).toBe(true);
      expect(degraded.warnings.join(" ")).toMatch(mode === "throw" ? /keyword.*503/ : /keyword.*timed out/);
      expect(warnings.join(" ")).toContain("keyword");
      // The semantic leg alone gives the same chunks as a semantic-mode search.
      const semantic = await tool.search("records retention period", { topK: 5, mode: "semantic" });
      expect(degraded.results.map((r) => r.id)).toEqual(semantic.results.map((r) => r.id));
      if (mode === "hang") expect(elapsed).toBeLessThan(15_000);
    } finally {
      keyword.mode = "ok";
      await tool.close();
    }
  }, 30_000);

  it("a keyword service that drops mid-ingest stops it with a clear error; a re-run in a new process completes every index", async () => {
    const keyword = new FlakyKeyword();
    const indexDir = join(dir, "kw-upsert");
    const docs = join(dir, "kw-docs");
    await cp(SAMPLE, docs, { recursive: true });
    const first = await openTool(indexDir, keyword);
    const names = (await readdir(docs)).sort();
    try {
      await first.tool.ingest([join(docs, names[0])]);
      keyword.mode = "fail-upsert";
      const err = await first.tool.ingest([docs]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HierdocError);
      expect((err as HierdocError).code).toBe("E_STORE_UNAVAILABLE");
      expect((err as HierdocError).message).toMatch(new RegExp(`${docs}/.+: keyword service: connection reset`));
    } finally {
      await first.tool.close();
    }
    keyword.mode = "ok";
    // A new process over the same store and keyword service: the store holds no record the keyword
    // index lacks, and the re-run ingests what the failed run could not.
    const second = await openTool(indexDir, keyword);
    try {
      const storedBefore: string[] = [];
      for await (const r of second.tool.store.scan()) storedBefore.push(r.id);
      expect(storedBefore.filter((id) => !keyword.has(id))).toEqual([]);
      const again = await second.tool.ingest([docs]);
      expect(again.files.filter((f) => f.outcome === "failed")).toEqual([]);
      expect(second.tool.sources().sort()).toEqual(names.map((n) => join(docs, n)));
      const ids: string[] = [];
      for await (const r of second.tool.store.scan()) ids.push(r.id);
      expect(ids.filter((id) => !keyword.has(id))).toEqual([]);
      expect(await keyword.size()).toBe(ids.length);
    } finally {
      await second.tool.close();
    }
  }, 30_000);
});

/** A local OpenAI-compatible embeddings endpoint: healthy (deterministic vectors), 500s, or malformed JSON. */
function embeddingServer(): { server: Server; state: { mode: "ok" | "500" | "malformed"; requests: number }; url: () => string } {
  const state = { mode: "ok" as "ok" | "500" | "malformed", requests: 0 };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      state.requests++;
      if (state.mode === "500") {
        res.writeHead(500, { "content-type": "application/json", "retry-after-ms": "5" });
        res.end(JSON.stringify({ error: { message: "upstream exploded", type: "server_error" } }));
        return;
      }
      if (state.mode === "malformed") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"object":"list","data":[{"object":"embedding","index":0,"embedding":');
        return;
      }
      const request = JSON.parse(body) as { input: string[] | string; encoding_format?: string; model: string };
      const inputs = Array.isArray(request.input) ? request.input : [request.input];
      const data = inputs.map((text, index) => {
        const v = new Float32Array(16);
        const h = createHash("sha256").update(text).digest();
        for (let i = 0; i < 16; i++) v[i] = (h[i] - 127.5) / 127.5;
        const embedding = request.encoding_format === "base64" ? Buffer.from(v.buffer).toString("base64") : Array.from(v);
        return { object: "embedding", index, embedding };
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data, model: request.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  return { server, state, url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

/** Every file under the index folder except the lock and the manifest's timestamp, by content hash. */
async function snapshot(indexDir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string, rel: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p, `${rel}${e.name}/`);
      else if (e.name !== "lock") {
        let text = await readFile(p);
        if (e.name === "hierdoc.json") text = Buffer.from(text.toString().replace(/"updatedAt": "[^"]*"/, ""));
        out[`${rel}${e.name}`] = createHash("sha256").update(text).digest("hex").slice(0, 16);
      }
    }
  };
  await walk(indexDir, "");
  return out;
}

describe("an embedding API that fails (OpenAI-compatible, via the CLI)", () => {
  const api = embeddingServer();
  beforeAll(async () => {
    await new Promise<void>((r) => api.server.listen(0, "127.0.0.1", r));
  });
  afterAll(async () => {
    // First any CLI left running by a failed or timed-out test: its open request would hold close() up.
    await stopAllClis();
    await new Promise<void>((r) => api.server.close(() => r()));
  });

  it.each(["500", "malformed"] as const)("reports a clear error and leaves the index exactly as it was (%s)", async (mode) => {
    const docs = join(dir, `emb-docs-${mode}`);
    const index = join(dir, `emb-index-${mode}`);
    await cp(SAMPLE, docs, { recursive: true });
    const config = join(dir, `agent-${mode}.yaml`);
    await writeFile(
      config,
      [
        "tools:",
        "  - name: docs",
        "    type: hierarchical_document",
        `    source: ${docs}`,
        `    embedding: { provider: openai-compatible, base_url: "${api.url()}", name: test-embed, api_key: test-key, dimensions: 16 }`,
        "",
      ].join("\n"),
    );
    api.state.mode = "ok";
    const good = await runCli(["ingest", docs, "--index", index, "--config", config, "--tool", "docs", "--quiet"]);
    expect({ code: good.code, stderr: good.stderr }).toEqual({ code: 0, stderr: "" });
    const before = await snapshot(index);
    const names = (await readdir(docs)).sort();
    await writeFile(join(docs, "added.md"), "# Added\n\n## Section 1\n\nA new file that needs embeddings.\n");
    const changed = join(docs, names[0]);
    await writeFile(changed, (await readFile(changed, "utf8")) + "\n\nAn amended closing paragraph.\n");

    api.state.mode = mode;
    api.state.requests = 0;
    const t0 = performance.now();
    const bad = await runCli(["ingest", docs, "--index", index, "--config", config, "--tool", "docs", "--quiet"]);
    const elapsed = performance.now() - t0;
    expect(bad.code).not.toBe(0);
    const errors = bad.stderr.split("\n").filter((l) => l.startsWith("error:"));
    expect(errors.length).toBeGreaterThan(0);
    for (const line of errors) expect(line).toMatch(/embed|openai|500|JSON|response/i);
    expect(errors.some((l) => l.includes("added.md") || l.includes(names[0]))).toBe(true);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    if (mode === "500") expect(api.state.requests).toBeGreaterThan(1); // retried
    expect(await snapshot(index)).toEqual(before);
    console.log(`embedding API ${mode}: exit ${bad.code}, ${api.state.requests} requests, ${(elapsed / 1000).toFixed(1)} s; first error: ${errors[0]}`);

    api.state.mode = "ok";
    const healed = await runCli(["ingest", docs, "--index", index, "--config", config, "--tool", "docs", "--quiet", "--json"]);
    expect(healed.code).toBe(0);
    const outcomes = (JSON.parse(healed.stdout) as { files: Array<{ source_path: string; outcome: string }> }).files;
    expect(outcomes.find((f) => f.source_path.endsWith("added.md"))?.outcome).toBe("added");
    expect(outcomes.find((f) => f.source_path === changed)?.outcome).toBe("updated");
  }, 120_000);
});
