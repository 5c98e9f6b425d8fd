import { appendFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  backoffDelay,
  buildContextPrompt,
  contextCacheKey,
  CONTEXT_PROMPT_TEMPLATE,
  DEFAULT_RETRY_POLICY,
  documentWindow,
  FileContextCache,
  mapWithConcurrency,
  priceFor,
  renderContextPrompt,
  retryAfterMs,
  sanitizeContext,
  UsageMeter,
  mergeContextUsage,
  addContextUsage,
  readContextUsage,
} from "@hierdoc/contextualizer";

const headers = (h: Record<string, string>) => new Headers(h);

describe("prompt", () => {
  it("splits the plan's template at the document block and renders it back unchanged, even with $ patterns in text", () => {
    const p = buildContextPrompt("Doc $& text", "Chunk $1");
    expect(p.documentBlock).toBe("<document>\nDoc $& text\n</document>");
    expect(p.chunkBlock.startsWith("Here is the chunk")).toBe(true);
    expect(renderContextPrompt(p)).toBe(CONTEXT_PROMPT_TEMPLATE.split("{document}").join("Doc $& text").split("{chunk}").join("Chunk $1"));
  });
});

describe("retry policy", () => {
  it("reads retry-after-ms, retry-after seconds and HTTP dates", () => {
    expect(retryAfterMs(headers({ "retry-after-ms": "250" }))).toBe(250);
    expect(retryAfterMs(headers({ "retry-after": "3" }))).toBe(3000);
    expect(retryAfterMs(headers({ "retry-after": "Wed, 02 Dec 2026 10:00:10 GMT" }), Date.parse("Wed, 02 Dec 2026 10:00:00 GMT"))).toBe(10_000);
    expect(retryAfterMs(headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterMs(headers({}))).toBeUndefined();
  });

  it("backs off exponentially with jitter between half and all of the step, capped, and caps the server's wait", () => {
    const p = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(0, { ...p, random: () => 0 })).toBe(50);
    expect(backoffDelay(0, { ...p, random: () => 0.999999 })).toBe(100);
    expect(backoffDelay(3, { ...p, random: () => 0 })).toBe(400);
    expect(backoffDelay(10, { ...p, random: () => 0.999999 })).toBe(1000);
    expect(backoffDelay(0, p, 5000)).toBe(1000);
    expect(backoffDelay(0, p, 20)).toBe(20);
  });
});

describe("documentWindow", () => {
  const text = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, "0")}`).join("\n"); // 10 chars a line

  it("returns the whole document when it fits", () => {
    expect(documentWindow("short", 0, 5, 100)).toEqual({ text: "short", index: 0, windowed: false });
  });

  it("contains the chunk, respects the budget and gives neighbours the same window", () => {
    const budget = 2000;
    for (const start of [0, 3333, 5000, 9000, text.length - 40]) {
      const end = Math.min(text.length, start + 40);
      const w = documentWindow(text, start, end, budget);
      expect(w.windowed).toBe(true);
      expect(w.text).toContain(text.slice(start, end));
      expect(w.text.replace(/^\[…\]\n|\n\[…\]$/g, "").length).toBeLessThanOrEqual(budget);
    }
    expect(documentWindow(text, 5000, 5040, budget).index).toBe(documentWindow(text, 5100, 5140, budget).index);
    expect(documentWindow(text, 0, 40, budget).text.startsWith("[…]")).toBe(false);
    expect(documentWindow(text, text.length - 40, text.length, budget).text.endsWith("[…]")).toBe(false);
  });
});

describe("sanitizeContext", () => {
  it("strips control and bidi characters, collapses whitespace, drops a label and caps length at a word", () => {
    expect(sanitizeContext("Context:\n This\u0000 is\u202e  the\t\tcontext.\u200b", 100)).toBe("This is the context.");
    const long = sanitizeContext("word ".repeat(100), 50);
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long.endsWith("word…")).toBe(true);
  });
});

describe("usage and prices", () => {
  it("matches prices by the longest prefix and leaves unknown models without a cost", () => {
    expect(priceFor("claude-3-5-haiku-20241022")?.input).toBe(0.8);
    expect(priceFor("claude-3-haiku-20240307")?.input).toBe(0.25);
    expect(priceFor("gpt-4o-mini-2024-07-18")?.input).toBe(0.15);
    expect(priceFor("gpt-4o-2024-08-06")?.input).toBe(2.5);
    expect(priceFor("llama3.1:8b")).toBeUndefined();
    const meter = new UsageMeter();
    meter.addCall("claude-3-haiku-20240307", { inputTokens: 1_000_000, cacheCreationInputTokens: 1_000_000, cacheReadInputTokens: 1_000_000, outputTokens: 1_000_000 });
    meter.addCall("llama3", { inputTokens: 5, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 5 });
    const snap = meter.snapshot();
    expect(snap.models[0]!.costUsd).toBeCloseTo(0.25 + 0.3 + 0.03 + 1.25, 10);
    expect(snap.models[1]!.costUsd).toBeNull();
    expect(snap.totalCostUsd).toBeCloseTo(1.83, 10);
    const merged = mergeContextUsage(snap, snap);
    expect(merged.models.find((m) => m.model === "llama3")).toMatchObject({ requests: 2, inputTokens: 10, costUsd: null });
    expect(merged.totalCostUsd).toBeCloseTo(3.66, 10);
    expect(mergeContextUsage(undefined, snap)).toEqual(snap);
  });

  it("keeps lifetime totals in usage.json across ingests", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hierdoc-usage-"));
    try {
      expect(await readContextUsage(dir)).toBeUndefined();
      const meter = new UsageMeter();
      meter.addCall("gpt-4o-mini", { inputTokens: 100, cacheCreationInputTokens: 0, cacheReadInputTokens: 50, outputTokens: 10 });
      await addContextUsage(dir, meter.snapshot());
      const total = await addContextUsage(dir, meter.snapshot());
      expect(total.models[0]).toMatchObject({ requests: 2, inputTokens: 200, cacheReadInputTokens: 100, outputTokens: 20 });
      expect(await readContextUsage(dir)).toEqual(total);
      await writeFile(join(dir, "usage.json"), "{oops");
      await expect(readContextUsage(dir)).rejects.toMatchObject({ code: "E_INDEX_CORRUPT" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("FileContextCache and cache keys", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hierdoc-cache-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keys differ by model, template version, document hash and chunk text", () => {
    const base = { model: "anthropic:m", templateVersion: "v1", documentHash: "h", chunkText: "c" };
    const keys = new Set([
      contextCacheKey(base),
      contextCacheKey({ ...base, model: "anthropic:n" }),
      contextCacheKey({ ...base, templateVersion: "v2" }),
      contextCacheKey({ ...base, documentHash: "g" }),
      contextCacheKey({ ...base, chunkText: "d" }),
    ]);
    expect(keys.size).toBe(5);
    expect(contextCacheKey(base)).toBe(contextCacheKey({ ...base }));
  });

  it("persists across instances and skips a torn last line", async () => {
    const a = new FileContextCache(join(dir, "c1"));
    await a.set("k1", "ctx one");
    await a.set("k2", 'ctx "two"\nline');
    await a.flush();
    await appendFile(a.file, '{"k":"k3","c":"tor');
    const b = new FileContextCache(join(dir, "c1"));
    expect(await b.get("k1")).toBe("ctx one");
    expect(await b.get("k2")).toBe('ctx "two"\nline');
    expect(await b.get("k3")).toBeUndefined();
    expect(b.size).toBe(2);
  });

  it("reports an unreadable cache on get and a failed append on flush", async () => {
    const file = join(dir, "not-a-dir");
    await writeFile(file, "x");
    await expect(new FileContextCache(join(file, "sub")).get("k")).rejects.toMatchObject({ code: "E_INTERNAL" });
    const c = new FileContextCache(join(dir, "c2"));
    expect(await c.get("k")).toBeUndefined();
    await mkdir(c.file, { recursive: true });
    await c.set("k", "v");
    await expect(c.flush()).rejects.toMatchObject({ code: "E_INTERNAL" });
  });
});

describe("mapWithConcurrency", () => {
  it("keeps order and never exceeds the limit", async () => {
    let active = 0;
    let peak = 0;
    const out = await mapWithConcurrency([5, 1, 4, 2, 3, 0, 6], 3, async (x) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, x));
      active--;
      return x * 2;
    });
    expect(out).toEqual([10, 2, 8, 4, 6, 0, 12]);
    expect(peak).toBe(3);
  });
});
