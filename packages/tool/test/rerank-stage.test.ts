import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { join } from "node:path";
import { HierdocError, ToolConfigSchema, type RerankCandidate, type Reranker, type ToolConfigInput } from "@hierdoc/core";
import { HashEmbedder } from "@hierdoc/embeddings";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool } from "@hierdoc/tool";
import { workspace } from "./helpers.js";

/** Records what it was given and scores by a function of the candidate. */
class RecordingReranker implements Reranker {
  readonly id = "recording";
  calls: Array<{ query: string; candidates: RerankCandidate[]; topN: number }> = [];
  constructor(private readonly score: (c: RerankCandidate, i: number) => number) {}
  async rerank(query: string, candidates: RerankCandidate[], topN: number) {
    this.calls.push({ query, candidates, topN });
    return candidates.map((c, i) => ({ id: c.id, score: this.score(c, i) })).sort((a, b) => b.score - a.score).slice(0, topN);
  }
}

class FailingReranker implements Reranker {
  readonly id = "failing";
  async rerank(): Promise<never> {
    throw new HierdocError("E_RERANK", "upstream 503");
  }
}

async function open(index: string, reranker: Reranker | undefined, rerank?: ToolConfigInput["rerank"], warnings: string[] = []): Promise<HierarchicalDocumentTool> {
  const config = ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: ".", ...(rerank ? { rerank } : {}) });
  return HierarchicalDocumentTool.open({
    config,
    indexDir: index,
    store: new MemoryStore({ dir: join(index, "store") }),
    embedder: new HashEmbedder({ dimensions: 256 }),
    reranker,
    onWarning: (m) => warnings.push(m),
  });
}

describe("reranking stage after fusion", () => {
  let ws: ReturnType<typeof workspace>;
  let tool: HierarchicalDocumentTool | undefined;
  beforeEach(async () => {
    ws = workspace();
    const t = await open(ws.index, undefined);
    await t.ingest([ws.docs]);
    await t.close();
  });
  afterEach(async () => {
    await tool?.close();
    tool = undefined;
    ws.cleanup();
  });

  const QUERY = "standby pump maintenance and inspection of the garden";

  it("asks the router for `candidates` hits, applies the reranked order and cuts to topK", async () => {
    const plain = await open(ws.index, undefined);
    const fused = await plain.search(QUERY, { topK: 8 });
    await plain.close();
    // Reverse the fused order: the last of 8 candidates must come first.
    const reversing = new RecordingReranker((_c, i) => i);
    tool = await open(ws.index, reversing, { provider: "lexical", candidates: 8 });
    const res = await tool.search(QUERY, { topK: 3 });
    expect(reversing.calls).toHaveLength(1);
    const call = reversing.calls[0];
    expect(call.query).toBe(QUERY);
    expect(call.topN).toBe(3);
    expect(call.candidates.map((c) => c.id)).toEqual(fused.results.map((r) => r.id));
    expect(call.candidates[0].fusedRank).toBe(1);
    expect(call.candidates[0].content.length).toBeGreaterThan(0);
    expect(call.candidates.some((c) => c.parentChain.length > 0)).toBe(true);
    expect(res.results.map((r) => r.id)).toEqual(fused.results.map((r) => r.id).reverse().slice(0, 3));
    expect(res.results.map((r) => r.rank)).toEqual([1, 2, 3]);
    expect(res.results[0].score).toBe(7);
    expect(res.timingsMs.rerank).toBeGreaterThanOrEqual(0);
    expect(res.warnings).toEqual([]);
  });

  it("keeps the fused order with a warning when the reranker fails", async () => {
    const plain = await open(ws.index, undefined);
    const fused = await plain.search(QUERY, { topK: 5 });
    await plain.close();
    const warnings: string[] = [];
    tool = await open(ws.index, new FailingReranker(), { provider: "cohere", candidates: 20 }, warnings);
    const res = await tool.search(QUERY, { topK: 5 });
    expect(res.results.map((r) => r.id)).toEqual(fused.results.map((r) => r.id));
    expect(res.warnings.join(" ")).toMatch(/reranker failing failed, fused order kept: upstream 503/);
    expect(warnings).toEqual(res.warnings);
  });

  it("respects top_n below topK; `rerank: false` and single-leg modes skip the stage", async () => {
    const rr = new RecordingReranker((c) => c.content.length);
    tool = await open(ws.index, rr, { provider: "lexical", candidates: 10, top_n: 2 });
    const res = await tool.search(QUERY, { topK: 4 });
    expect(rr.calls[0].topN).toBe(2);
    expect(res.results).toHaveLength(4);
    const lengths = res.results.slice(0, 2).map((r) => r.content.length);
    expect(lengths[0]).toBeGreaterThanOrEqual(lengths[1]);
    const skipped = await tool.search(QUERY, { topK: 4, rerank: false });
    await tool.search(QUERY, { topK: 4, mode: "keyword" });
    expect(rr.calls).toHaveLength(1);
    expect(skipped.timingsMs.rerank).toBeUndefined();
  });

  it("skips the stage for identifier lookups, which the exact index answers", async () => {
    const rr = new RecordingReranker((_c, i) => i);
    tool = await open(ws.index, rr, { provider: "lexical" });
    const res = await tool.search("Section 4(2)", { topK: 3 });
    expect(rr.calls).toHaveLength(0);
    expect(res.results[0].sectionId).toMatch(/^Section 4/);
    await tool.search(QUERY, { topK: 3 });
    expect(rr.calls).toHaveLength(1);
  });
});
