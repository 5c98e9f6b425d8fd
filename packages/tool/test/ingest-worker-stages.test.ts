import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolConfigSchema, type WorkerRecipe } from "@hierdoc/core";
import { StructuralContextGenerator } from "@hierdoc/contextualizer";
import { GloveEmbedder, HashEmbedder, OpenAIEmbedder, wordTokens } from "@hierdoc/embeddings";
import { Bm25Index } from "@hierdoc/keyword-search";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool, type IngestProgress } from "@hierdoc/tool";
import { workerComponents } from "../src/worker-stages.js";
import { openTool, workspace } from "./helpers.js";

// Worker threads run the built packages (dist): `npm test` builds first.

/** A markdown file of `n` short sections: one chunk each. */
function manySections(n: number): string {
  return Array.from({ length: n }, (_, i) => `## Section ${i + 1}\n\nThe operator shall inspect valve ${i + 1} every ${i + 2} days.\n`).join("\n");
}

/** A hash embedder whose worker recipe builds a different one (another size): what a worker must refuse to use. */
class DriftingHashEmbedder extends HashEmbedder {
  override readonly workerRecipe: WorkerRecipe = { module: "@hierdoc/embeddings", factory: "hashEmbedderFromRecipe", options: { dimensions: 32 } };
}

describe("contexts and vectors written in the ingest workers", () => {
  let ws: ReturnType<typeof workspace>;
  let tool: HierarchicalDocumentTool | undefined;
  afterEach(async () => {
    await tool?.close();
    tool = undefined;
    ws?.cleanup();
  });

  it("chunk-level embed progress of a large file comes from its worker, per batch up to its chunk count", async () => {
    ws = workspace();
    const big = join(ws.dir, "big.md");
    writeFileSync(big, manySections(200));
    tool = await openTool(ws.index, { ingest: { workers: 1 } });
    const events: IngestProgress[] = [];
    const report = await tool.ingest([big], { onProgress: (e) => events.push(e) });
    const chunks = report.files[0]!.chunks;
    expect(chunks).toBeGreaterThan(64);
    const within = events.filter((e) => e.stage === "embed" && e.stageTotal !== undefined);
    expect(within.map((e) => e.stageDone)).toEqual(Array.from({ length: Math.ceil(chunks / 64) }, (_, i) => Math.min((i + 1) * 64, chunks)));
    expect(within.every((e) => e.stageTotal === chunks && e.sourcePath === big && e.file === 1)).toBe(true);
    // Reported while this thread waited for the file, before storing it.
    expect(events.findIndex((e) => e.stage === "embed" && e.stageTotal !== undefined)).toBeLessThan(events.findIndex((e) => e.stage === "store"));
    expect(report.timingsMs.embed).toBeGreaterThan(0);
  });

  it("cancelling while a worker embeds stops the ingest; the files finished before are kept", async () => {
    ws = workspace();
    const more = join(ws.dir, "more");
    mkdirSync(more);
    writeFileSync(join(more, "a-small.md"), "## Section 1\n\nThe lighthouse keeper shall log every beacon failure.\n");
    writeFileSync(join(more, "zz-big.md"), manySections(300));
    tool = await openTool(ws.index, { ingest: { workers: 2 } });
    const controller = new AbortController();
    const run = tool.ingest([more], {
      signal: controller.signal,
      onProgress: (e) => {
        if (e.stage === "embed" && e.sourcePath.endsWith("zz-big.md") && (e.stageDone ?? 0) >= 64) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: "E_CANCELLED" });
    await tool.close();
    tool = await openTool(ws.index);
    expect((await tool.search("lighthouse beacon failure", { topK: 1, mode: "keyword" })).results[0]?.sourcePath).toContain("a-small.md");
    expect(tool.sources().some((s) => s.endsWith("zz-big.md"))).toBe(false);
  });

  it("a worker whose embedder copy differs from this thread's refuses to index: E_EMBEDDER_MISMATCH naming the file, nothing stored", async () => {
    ws = workspace();
    const config = ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: ws.docs, ingest: { workers: 2 } });
    const store = new MemoryStore({ dir: join(ws.index, "store") });
    tool = await HierarchicalDocumentTool.open({ config, indexDir: ws.index, store, embedder: new DriftingHashEmbedder({ dimensions: 64 }) });
    const err = (await tool.ingest([ws.docs]).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: string; message?: string };
    expect(err?.code).toBe("E_EMBEDDER_MISMATCH");
    expect(err?.message).toMatch(/docs\/.+: the ingest worker could not start: .*hash:fnv1a:32:v1 \(32 dimensions\).*hash:fnv1a:64:v1 \(64 dimensions\)/);
    expect(tool.chunkCount).toBe(0);
  });

  it("the default offline embedder (GloVe from its cache) embeds in the workers bit for bit as in this thread", async () => {
    ws = workspace();
    // A GloVe source over the corpus' own words (deterministic vectors), converted once into a cache in the workspace.
    const words = [...new Set(readdirSync(ws.docs).flatMap((f) => wordTokens(readFileSync(join(ws.docs, f), "utf8"))))].sort();
    const vectors: Record<string, number[]> = {};
    words.forEach((w, i) => {
      const row = Array.from({ length: 8 }, (_, d) => Math.sin((i + 1) * (d + 1.7)));
      vectors[w] = [...row, Math.hypot(...row), i];
    });
    const sourcePath = join(ws.dir, "corpus-embeddings.json");
    writeFileSync(sourcePath, JSON.stringify({ precision: 8, l2NormIndex: 8, wordIndex: 9, size: words.length, dimensions: 8, words, vectors, unkVector: [...Array(9).fill(0), -1] }));
    const cacheDir = join(ws.dir, "cache");
    mkdirSync(cacheDir);
    const stored: Record<number, string[]> = {};
    for (const workers of [0, 2]) {
      const embedder = await GloveEmbedder.load({ cacheDir, sourcePath });
      expect(embedder.workerRecipe).toBeDefined();
      const counted = { n: 0 };
      const embed = embedder.embedDocuments.bind(embedder);
      embedder.embedDocuments = (texts) => ((counted.n += texts.length), embed(texts));
      const index = join(ws.dir, `glove-${workers}`);
      const store = new MemoryStore({ dir: join(index, "store") });
      const config = ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: ws.docs, ingest: { workers } });
      const t = await HierarchicalDocumentTool.open({ config, indexDir: index, store, embedder });
      try {
        await t.ingest([ws.docs]);
        const ids: string[] = [];
        for await (const r of store.scan()) ids.push(r.id);
        stored[workers] = (await store.getWithVectors(ids)).map((r) => `${r.record.id} ${Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength).toString("hex")}`);
        expect(counted.n > 0).toBe(workers === 0);
      } finally {
        await t.close();
      }
    }
    expect(stored[0]!.length).toBeGreaterThan(5);
    expect(stored[2]).toEqual(stored[0]);
  });
});

describe("workerComponents: what runs in the workers is the components' declared capability", () => {
  const hash = new HashEmbedder({ dimensions: 16 });
  const api = new OpenAIEmbedder({ provider: "openai", model: "text-embedding-3-small", apiKey: "sk-test" });
  const llmLike = { id: "llm:test", generate: async () => [] };

  it("offline embedder + structural context without terms: both, and the records; with terms: neither (the embedded text needs the context)", () => {
    expect(workerComponents(hash, new StructuralContextGenerator())).toEqual({
      context: { recipe: new StructuralContextGenerator().workerRecipe, id: "structural:v1" },
      embedder: { recipe: hash.workerRecipe, id: hash.id, dimensions: 16 },
      records: true,
    });
    expect(workerComponents(hash, new StructuralContextGenerator({ parts: ["section", "terms"], termsFor: () => [] }))).toEqual({});
    expect(workerComponents(hash, llmLike)).toEqual({});
    expect(workerComponents(hash, undefined)).toEqual({ embedder: { recipe: hash.workerRecipe, id: hash.id, dimensions: 16 }, records: true });
  });

  it("the in-memory BM25's analysis moves with the indexed texts; a keyword index that takes only texts does not", () => {
    const bm25 = new Bm25Index({ variant: "lucene" });
    const keyword = { analyzer: bm25.analyzerOptions, id: "standard(stem=true,stop=true)" };
    expect(workerComponents(hash, new StructuralContextGenerator(), bm25)).toMatchObject({ keyword, records: true });
    expect(workerComponents(api, undefined, new Bm25Index({ variant: "okapi" }))).toEqual({ keyword: { analyzer: { kind: "rank-bm25" }, id: "rank-bm25" }, records: true });
    expect(workerComponents(hash, llmLike, bm25)).toEqual({});
    const textsOnly = { id: "opensearch", upsert: async () => {}, remove: async () => {}, search: async () => [], size: async () => 0 };
    expect(workerComponents(hash, undefined, textsOnly)).toEqual({ embedder: { recipe: hash.workerRecipe, id: hash.id, dimensions: 16 }, records: true });
  });

  it("an API embedder stays in this thread; a portable context writer still moves", () => {
    expect(workerComponents(api, new StructuralContextGenerator())).toEqual({ context: { recipe: new StructuralContextGenerator().workerRecipe, id: "structural:v1" }, records: true });
    expect(workerComponents(api, undefined)).toEqual({ records: true });
  });
});
