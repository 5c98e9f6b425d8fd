import { SearchRouter } from "@hierdoc/hybrid-fusion";
import { isHierdocError } from "@hierdoc/core";
import { ArrayStore, CountingKeywordIndex, MapExact, TableEmbedder, record } from "./fakes.js";

// Vectors: query "alpha" = (1, 0.2, 0) → cosine order d2 (0.996), d1 (0.981), d3 (0.196), d4 (0).
// Texts: "alpha" occurs twice in d3, once in d1 → keyword order d3, d1.
// RRF (k = 60): d3 = 1/63 + 1/61 > d1 = 2/62 > d2 = 1/61 > d4 = 1/64.
const vectors: Record<string, number[]> = { d1: [1, 0, 0], d2: [0.9, 0.1, 0], d3: [0, 1, 0], d4: [0, 0, 1] };
const texts: Record<string, string> = { d1: "alpha", d2: "beta", d3: "alpha alpha gamma", d4: "gamma" };
const queries: Record<string, number[]> = { alpha: [1, 0.2, 0], "alpha Section 9": [1, 0.2, 0] };

async function setup(store = new ArrayStore(), keyword: CountingKeywordIndex | undefined = new CountingKeywordIndex()) {
  for (const id of Object.keys(vectors)) {
    await store.upsert([{ record: record(id, texts[id]), vector: Float32Array.from(vectors[id]) }]);
    await keyword?.upsert([{ id, text: texts[id], sourcePath: "doc.md" }]);
  }
  return { store, keyword };
}

const ids = (r: { hits: Array<{ id: string }> }) => r.hits.map((h) => h.id);

describe("SearchRouter, app-level fusion", () => {
  it("fuses dense and keyword legs with weighted RRF (order derived by hand)", async () => {
    const { store, keyword } = await setup();
    const router = new SearchRouter({ store, keyword, embedder: new TableEmbedder(queries) });
    const res = await router.search("alpha", { topK: 10 });
    expect(res.route).toBe("fallback");
    expect(ids(res)).toEqual(["d3", "d1", "d2", "d4"]);
    expect(res.hits[0].score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(res.hits[0].ranks).toEqual({ semantic: 3, keyword: 1, exact: null });
    expect(res.hits[1].scores.keyword).toBe(1);
    expect(res.warnings).toEqual([]);
    expect(res.timingsMs.total).toBeGreaterThanOrEqual(0);
  });

  it("applies leg weights", async () => {
    const { store, keyword } = await setup();
    const router = new SearchRouter({ store, keyword, embedder: new TableEmbedder(queries), weights: { keyword: 0.5 } });
    expect(ids(await router.search("alpha", { topK: 2 }))).toEqual(["d1", "d3"]);
  });

  it("puts an exact-id hit at rank 1", async () => {
    const { store, keyword } = await setup();
    const exact = new MapExact({ "Section 9": ["d4"] });
    const router = new SearchRouter({ store, keyword, exact, embedder: new TableEmbedder(queries) });
    const res = await router.search("alpha Section 9", { topK: 3 });
    expect(ids(res)).toEqual(["d4", "d3", "d1"]);
    expect(res.hits[0].ranks.exact).toBe(1);
  });

  it("lifts at most exactBoostLimit exact hits (default 3)", async () => {
    const { store, keyword } = await setup();
    const exact = new MapExact({ "Section 9": ["d4", "d2", "d1", "d3"] });
    const res = await new SearchRouter({ store, keyword, exact, embedder: new TableEmbedder(queries) }).search("alpha Section 9", { topK: 4 });
    // all four have exact score 4; the three best by fused score are lifted: d1 (sem 2, kw 2, exact 3),
    // d3 (sem 3, kw 1, exact 4), d2 (sem 1, exact 2); d4 keeps its fused place
    expect(ids(res)).toEqual(["d1", "d3", "d2", "d4"]);
    const one = await new SearchRouter({ store, keyword, exact, embedder: new TableEmbedder(queries), exactBoostLimit: 1 }).search("alpha Section 9", { topK: 4 });
    expect(one.hits[0].id).toBe("d1");
  });

  it("uses the store's full text as keyword leg when no keyword index is given", async () => {
    const { store } = await setup(new ArrayStore({ fullText: true }, { fullText: true }), undefined);
    const router = new SearchRouter({ store, embedder: new TableEmbedder(queries) });
    const res = await router.search("alpha", { topK: 10 });
    expect(store.calls.sort()).toEqual(["fullText", "vector"]);
    expect(ids(res)).toEqual(["d3", "d1", "d2", "d4"]);
  });

  it("post-filters the dense leg and filters the keyword leg with allowIds", async () => {
    const { store, keyword } = await setup();
    const router = new SearchRouter({ store, keyword, embedder: new TableEmbedder(queries) });
    const res = await router.search("alpha", { topK: 10, allowIds: new Set(["d1", "d4"]) });
    expect(ids(res)).toEqual(["d1", "d4"]);
  });

  it("dispatches the dense search before the keyword and exact legs' synchronous work, so a store searching elsewhere overlaps them", async () => {
    const order: string[] = [];
    class LoggingStore extends ArrayStore {
      override async vectorSearch(q: Parameters<ArrayStore["vectorSearch"]>[0]) {
        order.push("dense");
        return super.vectorSearch(q);
      }
    }
    class LoggingKeyword extends CountingKeywordIndex {
      override async search(query: string, options: Parameters<CountingKeywordIndex["search"]>[1]) {
        order.push("keyword");
        return super.search(query, options);
      }
    }
    class LoggingExact extends MapExact {
      override lookup(query: string, options?: { allowIds?: ReadonlySet<string> }) {
        order.push("exact");
        return super.lookup(query, options);
      }
    }
    const { store, keyword } = await setup(new LoggingStore(), new LoggingKeyword());
    const router = new SearchRouter({ store, keyword, exact: new LoggingExact({ "Section 9": ["d4"] }), embedder: new TableEmbedder(queries) });
    const res = await router.search("alpha Section 9", { topK: 3 });
    expect(order).toEqual(["dense", "exact", "keyword"]);
    expect(ids(res)).toEqual(["d4", "d3", "d1"]);
    order.length = 0;
    await router.search("alpha", { topK: 3, mode: "keyword" });
    expect(order).toEqual(["keyword"]);
  });

  it("hands each leg's results to onLegResults as the leg answers, before a slower leg and fusion", async () => {
    let releaseDense: () => void = () => undefined;
    const denseGate = new Promise<void>((resolve) => (releaseDense = resolve));
    class SlowStore extends ArrayStore {
      override async vectorSearch(q: Parameters<ArrayStore["vectorSearch"]>[0]) {
        await denseGate;
        return super.vectorSearch(q);
      }
    }
    const { store, keyword } = await setup(new SlowStore());
    const router = new SearchRouter({ store, keyword, exact: new MapExact({ "Section 9": ["d4"] }), embedder: new TableEmbedder(queries) });
    const seen: Array<[string, string[]]> = [];
    const pending = router.search("alpha Section 9", { topK: 3, onLegResults: (leg, results) => seen.push([leg, results.map((r) => r.id)]) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The dense leg is still held: the keyword and exact answers are already out.
    expect(seen).toEqual([["exact", ["d4"]], ["keyword", ["d3", "d1"]]]);
    releaseDense();
    const res = await pending;
    expect(seen.map(([leg]) => leg)).toEqual(["exact", "keyword", "semantic"]);
    expect(seen[2][1]).toEqual(["d2", "d1", "d3", "d4"]);
    expect(ids(res)).toEqual(["d4", "d3", "d1"]);
  });
});

describe("SearchRouter, native hybrid", () => {
  it("uses store.hybridSearch when capabilities say nativeHybrid, and not the keyword index", async () => {
    const { store, keyword } = await setup(new ArrayStore({ nativeHybrid: true, fullText: true }, { hybrid: true, fullText: true }));
    const router = new SearchRouter({ store, keyword, embedder: new TableEmbedder(queries) });
    const res = await router.search("alpha", { topK: 4 });
    expect(res.route).toBe("native_hybrid");
    expect(store.calls).toEqual(["hybrid"]);
    expect(keyword!.searches).toBe(0);
    // the store's own order: text count × 10 + cosine → d3 (20.2), d1 (10.98), d2, d4
    expect(ids(res)).toEqual(["d3", "d1", "d2", "d4"]);
    expect(res.hits[1].score).toBeCloseTo(10 + 1 / Math.sqrt(1.04), 6);
  });

  it("ignores a hybridSearch method the capabilities do not declare", async () => {
    const { store, keyword } = await setup(new ArrayStore({ nativeHybrid: false }, { hybrid: true }));
    const res = await new SearchRouter({ store, keyword, embedder: new TableEmbedder(queries) }).search("alpha", { topK: 4 });
    expect(res.route).toBe("fallback");
    expect(store.calls).not.toContain("hybrid");
  });

  it("still lifts exact hits to rank 1", async () => {
    const { store } = await setup(new ArrayStore({ nativeHybrid: true }, { hybrid: true }), undefined);
    const router = new SearchRouter({ store, exact: new MapExact({ "Section 9": ["d2"] }), embedder: new TableEmbedder(queries) });
    const res = await router.search("alpha Section 9", { topK: 2 });
    expect(ids(res)).toEqual(["d2", "d3"]);
  });
});

describe("SearchRouter, graceful degradation", () => {
  it("keyword failure → semantic-only results with a warning", async () => {
    const { store, keyword } = await setup(new ArrayStore(), new CountingKeywordIndex("fail"));
    const seen: string[] = [];
    const router = new SearchRouter({ store, keyword, embedder: new TableEmbedder(queries), onWarning: (w) => seen.push(w.leg) });
    const res = await router.search("alpha", { topK: 3 });
    expect(ids(res)).toEqual(["d2", "d1", "d3"]);
    expect(res.hits[0].ranks.keyword).toBeNull();
    expect(res.warnings).toHaveLength(1);
    expect(res.warnings[0]).toMatch(/keyword leg failed \(connect ECONNREFUSED.*semantic only/);
    expect(seen).toEqual(["keyword"]);
  });

  it("slow keyword leg → times out, semantic-only with a warning", async () => {
    const { store, keyword } = await setup(new ArrayStore(), new CountingKeywordIndex("hang"));
    const router = new SearchRouter({ store, keyword, embedder: new TableEmbedder(queries), legTimeoutMs: 50 });
    const res = await router.search("alpha", { topK: 2 });
    expect(ids(res)).toEqual(["d2", "d1"]);
    expect(res.warnings[0]).toMatch(/timed out after 50 ms/);
  });

  it("dense failure → keyword-only results with a warning", async () => {
    const { store, keyword } = await setup();
    const router = new SearchRouter({ store, keyword, embedder: new TableEmbedder(queries, true) });
    const res = await router.search("alpha", { topK: 5 });
    expect(ids(res)).toEqual(["d3", "d1"]);
    expect(res.warnings[0]).toMatch(/semantic leg failed \(embedding endpoint unreachable\); continuing with keyword only/);
  });

  it("native hybrid failure → app-level fusion with a warning", async () => {
    const store = new ArrayStore({ nativeHybrid: true }, { hybrid: true });
    store.hybridSearch = async () => {
      throw new Error("hybrid pipeline missing");
    };
    const { keyword } = await setup(store);
    const res = await new SearchRouter({ store, keyword, embedder: new TableEmbedder(queries) }).search("alpha", { topK: 4 });
    expect(res.route).toBe("fallback");
    expect(ids(res)).toEqual(["d3", "d1", "d2", "d4"]);
    expect(res.warnings[0]).toMatch(/native_hybrid leg failed/);
  });

  it("with semantic and keyword weighted 0, hybrid returns the exact leg alone (no error)", async () => {
    const { store, keyword } = await setup();
    const router = new SearchRouter({ store, keyword, exact: new MapExact({ "Section 9": ["d3"] }), embedder: new TableEmbedder(queries), weights: { semantic: 0, keyword: 0 } });
    expect(ids(await router.search("alpha Section 9", { topK: 3 }))).toEqual(["d3"]);
    expect(ids(await router.search("alpha", { topK: 3 }))).toEqual([]);
  });

  it("every leg failing → HierdocError", async () => {
    const { store, keyword } = await setup(new ArrayStore(), new CountingKeywordIndex("fail"));
    const router = new SearchRouter({ store, keyword, embedder: new TableEmbedder(queries, true) });
    const err = await router.search("alpha", { topK: 3 }).then(() => null, (e: unknown) => e);
    expect(isHierdocError(err, "E_STORE_UNAVAILABLE")).toBe(true);
    expect((err as Error).message).toMatch(/every search leg failed/);
  });
});

describe("SearchRouter, single-leg modes", () => {
  it("semantic, keyword and exact modes return one leg's ranking", async () => {
    const { store, keyword } = await setup();
    const router = new SearchRouter({ store, keyword, exact: new MapExact({ alpha: ["d4", "d1"] }), embedder: new TableEmbedder(queries) });
    const sem = await router.search("alpha", { topK: 2, mode: "semantic" });
    expect([sem.route, ...ids(sem)]).toEqual(["single_leg", "d2", "d1"]);
    expect(sem.hits[1].ranks).toEqual({ semantic: 2, keyword: null, exact: null });
    expect(ids(await router.search("alpha", { topK: 5, mode: "keyword" }))).toEqual(["d3", "d1"]);
    expect(ids(await router.search("alpha", { topK: 5, mode: "exact" }))).toEqual(["d4", "d1"]);
  });

  it("rejects modes whose leg is not configured and bad topK", async () => {
    const { store } = await setup(new ArrayStore(), undefined);
    const router = new SearchRouter({ store, embedder: new TableEmbedder(queries) });
    const kw = await router.search("alpha", { topK: 2, mode: "keyword" }).then(() => null, (e: unknown) => e);
    expect(isHierdocError(kw, "E_KEYWORD_UNAVAILABLE")).toBe(true);
    const ex = await router.search("alpha", { topK: 2, mode: "exact" }).then(() => null, (e: unknown) => e);
    expect(isHierdocError(ex, "E_INVALID_ARGUMENT")).toBe(true);
    const bad = await router.search("alpha", { topK: 0 }).then(() => null, (e: unknown) => e);
    expect(isHierdocError(bad, "E_INVALID_ARGUMENT")).toBe(true);
  });

  it("hybrid without any keyword provider runs semantic (+ exact) and says so", async () => {
    const { store } = await setup(new ArrayStore(), undefined);
    const res = await new SearchRouter({ store, embedder: new TableEmbedder(queries) }).search("alpha", { topK: 2 });
    expect(ids(res)).toEqual(["d2", "d1"]);
    expect(res.warnings[0]).toMatch(/keyword leg skipped/);
  });
});
