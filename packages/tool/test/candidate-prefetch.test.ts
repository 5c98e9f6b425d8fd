import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { join } from "node:path";
import { ToolConfigSchema, type ChunkRecord, type RerankCandidate, type Reranker, type StoreQuery } from "@hierdoc/core";
import { makeStoreRecords } from "@hierdoc/core/testing";
import { HashEmbedder } from "@hierdoc/embeddings";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool } from "@hierdoc/tool";
import { CandidatePrefetch } from "../src/candidate-prefetch.js";
import { workspace } from "./helpers.js";

/** A real memory store that logs the ids each `get` asks for and can fail its first `get`s. */
class LoggingStore extends MemoryStore {
  gets: string[][] = [];
  failures = 0;
  override async get(ids: string[]): Promise<ChunkRecord[]> {
    this.gets.push([...ids]);
    if (this.failures > 0) {
      this.failures--;
      throw new Error("store unreachable");
    }
    return super.get(ids);
  }
}

const turns = (n: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, n));

describe("CandidatePrefetch", () => {
  let store: LoggingStore;
  const ids = Array.from({ length: 12 }, (_, i) => `docs/${i % 2 ? "beta" : "alpha"}.md_chunk_${i}`);
  beforeEach(async () => {
    store = new LoggingStore();
    await store.open({ embedderId: "fixture", dimensions: 8 });
    await store.upsert(makeStoreRecords(12, { dimensions: 8 }));
    expect((await store.get(ids)).map((r) => r.id)).toEqual(ids);
    store.gets = [];
  });

  it("reuses the records it read ahead and reads only the others; the answer equals the store's", async () => {
    const warmed: string[] = [];
    const p = new CandidatePrefetch(store, (r) => warmed.push(r.id));
    p.start(ids.slice(0, 6));
    await turns(30);
    expect(p.asked).toEqual(ids.slice(0, 6));
    expect(warmed).toEqual(ids.slice(0, 6));
    store.gets = [];
    const wanted = [ids[7], ids[2], ids[0], ids[9], ids[5]];
    const got = await p.get(wanted);
    expect(store.gets).toEqual([[ids[7], ids[9]]]);
    expect(got).toEqual(await store.get(wanted));
  });

  it("stops at get(): nothing read ahead when asked at once, the same records either way", async () => {
    const p = new CandidatePrefetch(store);
    p.start(ids);
    const got = await p.get(ids.slice(3, 8));
    await turns(20);
    expect(p.asked).toEqual([]);
    expect(store.gets).toEqual([ids.slice(3, 8)]);
    expect(got.map((r) => r.id)).toEqual(ids.slice(3, 8));
  });

  it("leaves out ids the store does not hold, as the store does", async () => {
    const p = new CandidatePrefetch(store);
    p.start([ids[0], "gone", ids[2]]);
    await turns(30);
    expect(p.asked).toEqual([ids[0], "gone", ids[2]]);
    store.gets = [];
    const wanted = [ids[0], "gone", ids[4], ids[2]];
    const got = await p.get(wanted);
    expect(store.gets).toEqual([["gone", ids[4]]]);
    expect(got.map((r) => r.id)).toEqual([ids[0], ids[4], ids[2]]);
  });

  it("stops reading ahead at a failed read and reads those ids again", async () => {
    store.failures = 1;
    const p = new CandidatePrefetch(store);
    p.start(ids);
    await turns(30);
    expect(store.gets).toEqual([ids.slice(0, 4)]);
    store.gets = [];
    const got = await p.get(ids.slice(0, 6));
    expect(store.gets).toEqual([ids.slice(0, 6)]);
    expect(got.map((r) => r.id)).toEqual(ids.slice(0, 6));
  });

  it("starts once per search", async () => {
    const p = new CandidatePrefetch(store);
    p.start([ids[0]]);
    p.start([ids[1]]);
    await turns(20);
    expect(p.asked).toEqual([ids[0]]);
  });
});

/** A real memory store whose dense search answers late (as a busy search thread or remote engine would). */
class SlowDenseStore extends LoggingStore {
  override async vectorSearch(query: StoreQuery & { vector: Float32Array }) {
    await turns(40);
    return super.vectorSearch(query);
  }
}

/** Scores candidates by their content and defined terms, and keeps what it was given. */
class ContentReranker implements Reranker {
  readonly id = "content";
  seen: RerankCandidate[][] = [];
  async rerank(_query: string, candidates: RerankCandidate[], topN: number) {
    this.seen.push(candidates);
    return candidates
      .map((c) => ({ id: c.id, score: (c.content.length % 17) + (c.definitions?.length ?? 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, topN);
  }
}

describe("hybrid search with the keyword leg's records read ahead", () => {
  let ws: ReturnType<typeof workspace>;
  const open = async (store: MemoryStore, reranker: Reranker) => {
    const config = ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: ".", rerank: { provider: "lexical", candidates: 20 } });
    return HierarchicalDocumentTool.open({ config, indexDir: ws.index, store, embedder: new HashEmbedder({ dimensions: 256 }), reranker });
  };
  beforeEach(async () => {
    ws = workspace();
    const t = await open(new MemoryStore({ dir: join(ws.index, "store") }), new ContentReranker());
    await t.ingest([ws.docs]);
    await t.close();
  });
  afterEach(() => ws.cleanup());

  it("gives the same candidates and results as without the read-ahead, and the rerank stage reads only what was not read ahead", async () => {
    const query = "standby pump maintenance and inspection of the garden";
    const fastStore = new LoggingStore({ dir: join(ws.index, "store") });
    const fastRanker = new ContentReranker();
    const fast = await open(fastStore, fastRanker);
    fastStore.gets = [];
    const expected = await fast.search(query, { topK: 8 });
    await fast.close();
    const candidates = fastRanker.seen[0].map((c) => c.id);
    // A dense leg answering at once leaves no time to read ahead: the stage reads every candidate at once.
    expect(fastStore.gets).toEqual([candidates]);

    const slowStore = new SlowDenseStore({ dir: join(ws.index, "store") });
    const slowRanker = new ContentReranker();
    const slow = await open(slowStore, slowRanker);
    slowStore.gets = [];
    const got = await slow.search(query, { topK: 8 });
    await slow.close();
    expect(got.results).toEqual(expected.results);
    expect(slowRanker.seen[0]).toEqual(fastRanker.seen[0]);
    // Read-ahead batches of at most 4 ids, then the stage's one read of the candidates not read ahead.
    const batches = slowStore.gets.slice(0, -1);
    const readAhead = new Set(batches.flat());
    expect(batches.length).toBeGreaterThan(0);
    for (const b of batches) expect(b.length).toBeLessThanOrEqual(4);
    expect(candidates.filter((id) => readAhead.has(id)).length).toBeGreaterThan(0);
    expect(slowStore.gets.at(-1)).toEqual(candidates.filter((id) => !readAhead.has(id)));
  });
});
