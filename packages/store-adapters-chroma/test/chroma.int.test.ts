import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { HierdocError, type ErrorCode } from "@hierdoc/core";
import { axisVector, chunkRecordFor as record, expectHierdocError as expectStoreError, gdprArticleRecords, paragraphRecords as records, runStoreConformance } from "@hierdoc/core/testing";
import { ChromaClient } from "chromadb";
import { ChromaStore } from "@hierdoc/store-adapters-chroma";
import { freePort, startChromaServer, type ChromaServer } from "@hierdoc/store-adapters-chroma/testing";

// The GDPR articles from the shared corpora, when present (fixture builder shared in @hierdoc/core/testing).
const GDPR_MD = join(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora/gdpr/gdpr_2016_679.md");
const HAS_GDPR = existsSync(GDPR_MD);
const gdprArticles = (dimensions: number) => gdprArticleRecords(GDPR_MD, dimensions);

const D = 8;
const OPEN = { embedderId: "hash-8", dimensions: D };
let dataDir: string;
let server: ChromaServer | undefined;
let seq = 0;

function store(extra: { collection?: string; url?: string; retries?: number; scanPageSize?: number } = {}): ChromaStore {
  return new ChromaStore({ url: server?.url, collection: extra.collection ?? `c${++seq}-${process.pid}`, retryDelayMs: 20, ...extra });
}

function expectHierdocError(p: Promise<unknown>, code: ErrorCode, operation: string): Promise<HierdocError> {
  return expectStoreError(p, { code, adapter: "chroma", operation });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "hierdoc-chroma-"));
  server = await startChromaServer({ path: dataDir });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}, 20_000);

runStoreConformance("chroma (real local server)", {
  async create() {
    const collection = `conformance-${++seq}-${process.pid}`;
    const make = (): ChromaStore => new ChromaStore({ url: server?.url, collection, retryDelayMs: 20 });
    return {
      store: make(),
      reopen: async () => make(),
      async cleanup() {
        const { port } = new URL(server!.url);
        await new ChromaClient({ host: "127.0.0.1", port: Number(port) }).deleteCollection({ name: collection }).catch(() => undefined);
      },
    };
  },
  async unreachable() {
    return new ChromaStore({ url: `http://127.0.0.1:${await freePort()}`, retries: 1, retryDelayMs: 10 });
  },
});

describe("ChromaStore against a real local Chroma server", () => {
  it("declares frozen capabilities and reads max_batch_size from the server on open", async () => {
    const s = store();
    expect(Object.isFrozen(s.capabilities)).toBe(true);
    expect(s.capabilities).toMatchObject({ vectorSearch: true, nativeHybrid: false, fullText: false, persistent: true });
    await s.open(OPEN);
    expect(s.capabilities.maxBatchSize).toBeGreaterThan(1000);
    expect(Object.isFrozen(s.capabilities)).toBe(true);
  });

  it("round-trips a full chunk record (nested fields, unicode, indexed text) and skips missing ids", async () => {
    const s = store();
    await s.open(OPEN);
    const r = record("gdpr.md_chunk_7", "gdpr.md", "The data subject shall have the right to obtain … erasure “without undue delay”.");
    await s.upsert([{ record: r, vector: axisVector(D, 0) }]);
    expect(await s.get(["missing", r.id])).toEqual([r]);
  });

  it("upserts idempotently: same ids twice keep the count, a changed record replaces the old one", async () => {
    const s = store();
    await s.open(OPEN);
    const batch = records(20, D);
    await s.upsert(batch);
    await s.upsert(batch);
    expect(await s.count()).toBe(20);
    const changed = { ...batch[3], record: { ...batch[3].record, content: "changed" } };
    await s.upsert([changed, { ...changed, record: { ...changed.record, content: "changed twice" } }]);
    expect(await s.count()).toBe(20);
    expect((await s.get([changed.record.id]))[0].content).toBe("changed twice");
  });

  it("returns the top-k by cosine, best first, score = 1 - distance, honouring a source filter", async () => {
    const s = store();
    await s.open(OPEN);
    await s.upsert([
      { record: record("a.md_chunk_0", "a.md", "x"), vector: axisVector(D, 0) },
      { record: record("a.md_chunk_1", "a.md", "x"), vector: axisVector(D, 0, 0.5) },
      { record: record("b.md_chunk_0", "b.md", "x"), vector: axisVector(D, 0, 0.1) },
      { record: record("b.md_chunk_1", "b.md", "x"), vector: axisVector(D, 3) },
    ]);
    const hits = await s.vectorSearch({ topK: 3, vector: axisVector(D, 0) });
    expect(hits.map((h) => h.id)).toEqual(["a.md_chunk_0", "b.md_chunk_0", "a.md_chunk_1"]);
    expect(hits[0].score).toBeCloseTo(1, 4);
    expect(hits[2].score).toBeCloseTo(1 / Math.sqrt(1.25), 4);
    const filtered = await s.vectorSearch({ topK: 10, vector: axisVector(D, 0), filter: { sourcePaths: ["b.md"] } });
    expect(filtered.map((h) => h.id)).toEqual(["b.md_chunk_0", "b.md_chunk_1"]);
    expect(await s.vectorSearch({ topK: 10, vector: axisVector(D, 0), filter: { sourcePaths: [] } })).toEqual([]);
  });

  it("deletes by id and by source path", async () => {
    const s = store();
    await s.open(OPEN);
    const batch = records(9, D, 3);
    await s.upsert(batch);
    await s.deleteByIds([batch[0].record.id, "never-existed"]);
    expect(await s.count()).toBe(8);
    await s.deleteBySource("doc1.md");
    const left = (await s.get(batch.map((b) => b.record.id))).map((r) => r.sourcePath);
    expect(left.sort()).toEqual(["doc0.md", "doc0.md", "doc2.md", "doc2.md", "doc2.md"]);
  });

  it("scans every record across pages", async () => {
    const s = store({ scanPageSize: 4 });
    await s.open(OPEN);
    const batch = records(10, D);
    await s.upsert(batch);
    const seen: string[] = [];
    for await (const r of s.scan()) seen.push(r.id);
    expect(seen.sort()).toEqual(batch.map((b) => b.record.id).sort());
  });

  it("rejects wrong vector sizes before writing, and reopening with another embedder or size", async () => {
    const s = store({ collection: "mismatch-check" });
    await s.open(OPEN);
    await expectHierdocError(s.upsert([{ record: record("x_chunk_0", "x", "x"), vector: new Float32Array(3) }]), "E_DIMENSION_MISMATCH", "upsert");
    await expectHierdocError(s.vectorSearch({ topK: 1, vector: new Float32Array(3) }), "E_DIMENSION_MISMATCH", "vectorSearch");
    expect(await s.count()).toBe(0);
    await expectHierdocError(store({ collection: "mismatch-check" }).open({ embedderId: "other", dimensions: D }), "E_EMBEDDER_MISMATCH", "open");
    await expectHierdocError(store({ collection: "mismatch-check" }).open({ ...OPEN, dimensions: 16 }), "E_DIMENSION_MISMATCH", "open");
  });

  it("keeps data across a new adapter instance and a server restart; a write while down fails cleanly and re-running it completes", async () => {
    const s = store({ collection: "persisted" });
    await s.open(OPEN);
    await s.upsert(records(12, D));
    await s.flush();
    await s.close();
    const reopened = store({ collection: "persisted" });
    await reopened.open(OPEN);
    expect(await reopened.count()).toBe(12);

    const port = server!.port;
    await server!.stop();
    const down = await expectHierdocError(reopened.count(), "E_STORE_UNAVAILABLE", "count");
    expect(down.retryable).toBe(true);
    const more = records(20, D).slice(12);
    await expectHierdocError(reopened.upsert(more), "E_STORE_UNAVAILABLE", "upsert");
    server = await startChromaServer({ path: dataDir, port });
    const afterRestart = store({ collection: "persisted" });
    await afterRestart.open(OPEN);
    expect(await afterRestart.count()).toBe(12);
    await afterRestart.upsert(more);
    expect(await afterRestart.count()).toBe(20);
    const hits = await afterRestart.vectorSearch({ topK: 1, vector: records(12, D)[5].vector });
    expect(hits[0].id).toBe(records(12, D)[5].record.id);
  }, 60_000);

  it("reports an unreachable store as a retryable E_STORE_UNAVAILABLE naming adapter and operation", async () => {
    const port = await freePort();
    const s = new ChromaStore({ url: `http://127.0.0.1:${port}`, retries: 2, retryDelayMs: 10 });
    const err = await expectHierdocError(s.open(OPEN), "E_STORE_UNAVAILABLE", "open");
    expect(err.retryable).toBe(true);
    expect(err.details.attempts).toBe(3);
    expect(err.message).toContain(`127.0.0.1:${port}`);
  });

  it("throws E_STORE before open", async () => {
    await expectHierdocError(store().count(), "E_STORE", "count");
  });
});

(HAS_GDPR ? describe : describe.skip)(
  `GDPR smoke: the 99 articles through a real Chroma server${HAS_GDPR ? "" : " (skipped: ../shared/corpora not present)"}`,
  () => {
    const DIMS = 256;
    it("stores real article records unchanged, finds Article 17 by its vector, and erases the whole source", async () => {
      const s = store({ collection: "gdpr-smoke" });
      await s.open({ embedderId: "toy-hash-256", dimensions: DIMS });
      const articles = gdprArticles(DIMS);
      await s.upsert(articles);
      expect(await s.count()).toBe(99);
      const art17 = articles.find((a) => a.record.sectionId === "Article 17") as (typeof articles)[number];
      const [stored] = await s.get([art17.record.id]);
      expect(stored).toEqual(art17.record);
      expect(stored.content).toBe(readFileSync(GDPR_MD, "utf8").slice(stored.start, stored.end));
      const hits = await s.vectorSearch({ topK: 3, vector: art17.vector, filter: { sourcePaths: ["gdpr.md"] } });
      expect(hits[0].id).toBe(art17.record.id);
      await s.deleteBySource("gdpr.md");
      expect(await s.count()).toBe(0);
    });
  },
);
