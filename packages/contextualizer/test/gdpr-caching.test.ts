import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Chunk, ConvertedDocument } from "@hierdoc/core";
import { AnthropicContextGenerator, FileContextCache, MODEL_PRICES, estimateCost } from "@hierdoc/contextualizer";
import { anthropicResponder, startFakeServer, type FakeServer } from "./fake-llm-server.js";

const corpora = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora");
const gdprPath = join(corpora, "gdpr/gdpr_2016_679.md");
const present = existsSync(gdprPath);
const suite = present ? describe : describe.skip;

/** One chunk per article (real text; the chunker is not needed to measure caching). */
function gdprArticles(): { document: ConvertedDocument; chunks: Chunk[] } {
  const text = readFileSync(gdprPath, "utf8");
  const starts = [...text.matchAll(/^#{3,4} Article (\d+)[^\n]*$/gm)].map((m) => ({ at: m.index!, n: m[1]! }));
  const chunks = starts.map((s, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.at : text.length;
    const content = text.slice(s.at, Math.min(end, s.at + 3000));
    return {
      id: `gdpr_chunk_${i}`, sourcePath: "gdpr.md", chunkIndex: i, content, start: s.at, end: s.at + content.length,
      sectionId: `Article ${s.n}`, sectionTitle: `Article ${s.n}`, parentChain: [], chunkType: "content" as const, tokens: 0, unitIds: [],
    };
  });
  return { document: { sourcePath: "gdpr.md", fileType: "markdown", format: "markdown", text, title: "GDPR" }, chunks };
}

suite(`GDPR (99 articles) through the Anthropic generator and a caching Messages server${present ? "" : " (skipped: ../shared/corpora not present)"}`, () => {
  let server: FakeServer;
  let dir: string;
  beforeAll(async () => {
    server = await startFakeServer(anthropicResponder());
    dir = await mkdtemp(join(tmpdir(), "hierdoc-gdpr-ctx-"));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("whole document: one cache write, 98 cache reads, about 1/7 of the uncached price; a second run makes no call", async () => {
    const { document, chunks } = gdprArticles();
    expect(chunks).toHaveLength(99);
    const requests = chunks.map((chunk) => ({ document, chunk }));
    const gen = new AnthropicContextGenerator({ model: "claude-3-haiku-20240307", apiKey: "k", baseURL: server.url, cache: new FileContextCache(dir) });
    const results = await gen.generate(requests);
    expect(results.filter((r) => r.error)).toHaveLength(0);
    const m = gen.usage().models[0]!;
    const docTokens = m.cacheCreationInputTokens;
    expect(docTokens).toBeGreaterThan(80_000);
    expect(m.cacheReadInputTokens).toBe(98 * docTokens);
    const price = MODEL_PRICES["claude-3-haiku"]!;
    const uncached = estimateCost({ ...m, inputTokens: m.inputTokens + m.cacheCreationInputTokens + m.cacheReadInputTokens, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 }, price);
    expect(m.costUsd!).toBeLessThan(uncached / 5);
    if (process.env.HIERDOC_PRINT_USAGE) console.log(JSON.stringify({ ...m, uncachedCostUsd: uncached }));
    server.requests.length = 0;
    const again = await new AnthropicContextGenerator({ model: "claude-3-haiku-20240307", apiKey: "k", baseURL: server.url, cache: new FileContextCache(dir) }).generate(requests);
    expect(server.requests).toHaveLength(0);
    expect(again).toEqual(results);
  });

  it("with a 32k-token window: one cache write per window used, every other chunk reads its window", async () => {
    server.responder = anthropicResponder();
    server.requests.length = 0;
    const { document, chunks } = gdprArticles();
    const gen = new AnthropicContextGenerator({ model: "claude-3-haiku-20240307", apiKey: "k", baseURL: server.url, contextWindowTokens: 32_000 });
    await gen.generate(chunks.map((chunk) => ({ document, chunk })));
    const docs = server.requests.map((r) => r.body.messages[0].content[0].text as string);
    const windows = new Set(docs);
    expect(windows.size).toBeGreaterThan(3);
    expect(Math.max(...docs.map((d) => d.length))).toBeLessThan(32_000 * 3.5);
    const m = gen.usage().models[0]!;
    // each distinct window was written exactly once; all other requests were reads
    expect(m.cacheCreationInputTokens).toBe([...windows].reduce((s, w) => s + Math.ceil(w.length / 4), 0));
    const readTokens = docs.reduce((s, d) => s + Math.ceil(d.length / 4), 0) - m.cacheCreationInputTokens;
    expect(m.cacheReadInputTokens).toBe(readTokens);
    if (process.env.HIERDOC_PRINT_USAGE) console.log(JSON.stringify({ windows: windows.size, ...m }));
  });
});
