import type { ChunkRecord } from "../document.js";
import type { StoreRecord, VectorStoreAdapter } from "../interfaces.js";
import { expectHierdocError, expectStoreUnavailable } from "./expect-errors.js";
import { jestApi } from "./jest-api.js";
import {
  FIXTURE_DIMENSIONS,
  FIXTURE_EMBEDDER_ID,
  makeStoreRecord,
  makeStoreRecords,
  makeVector,
  vectorWithSimilarity,
} from "./fixtures.js";

/** A fresh store for one conformance test, and how to reopen and dispose of it. */
export interface StoreUnderTest {
  /** A new, empty, not yet opened store (the suite calls `open`). */
  store: VectorStoreAdapter;
  /**
   * A new, not yet opened adapter over the same data (same folder, table or collection). Required for
   * the persistence tests when `capabilities.persistent` is true.
   */
  reopen?: () => Promise<VectorStoreAdapter>;
  /** Removes what `create` made (folders, tables, collections). Called after the store is closed. */
  cleanup(): Promise<void>;
}

/** How the suite gets stores. */
export interface StoreConformanceFactory {
  /** Makes a fresh, isolated store for each test. */
  create(): Promise<StoreUnderTest>;
  /** Vector size to open stores with (default {@link FIXTURE_DIMENSIONS}). */
  dimensions?: number;
  /** Expected `details.adapter` of the adapter's errors (default: `store.id`). */
  adapterName?: string;
  /**
   * Makes an adapter pointed at a store that cannot be reached (closed port, bad host). When given, the
   * suite asserts that `open()` rejects with a retryable E_STORE_UNAVAILABLE naming the adapter and the
   * operation "open".
   */
  unreachable?: () => Promise<VectorStoreAdapter>;
  /** Timeout of each test and hook in milliseconds (default 30 000; remote stores may need more). */
  timeoutMs?: number;
}

function byId(records: ChunkRecord[]): ChunkRecord[] {
  return records.slice().sort((a, b) => a.id.localeCompare(b.id));
}

async function upsertInBatches(store: VectorStoreAdapter, records: StoreRecord[], batch?: number): Promise<number> {
  const size = Math.max(1, Math.min(batch ?? store.capabilities.maxBatchSize, store.capabilities.maxBatchSize));
  let calls = 0;
  for (let i = 0; i < records.length; i += size) {
    await store.upsert(records.slice(i, i + size));
    calls++;
  }
  return calls;
}

async function collect(iterable: AsyncIterable<ChunkRecord>): Promise<ChunkRecord[]> {
  const out: ChunkRecord[] = [];
  for await (const r of iterable) out.push(r);
  return out;
}

/**
 * Registers the shared `VectorStoreAdapter` conformance tests (Jest `describe`/`it`) for one adapter:
 * capabilities, idempotent batched upsert, get, delete by id and by source, top-k vector search with a
 * source filter, scan, full text (when `fullText`), native hybrid (when `nativeHybrid`), persistence
 * across reopen (when `persistent`), dimension and embedder mismatches, and an unreachable store (when
 * `factory.unreachable` is given). Call it at the top level of a Jest test file.
 * @throws HierdocError E_INTERNAL when called outside Jest.
 */
export function runStoreConformance(name: string, factory: StoreConformanceFactory): void {
  const { describe, it, expect, beforeEach, afterEach } = jestApi();
  const dims = factory.dimensions ?? FIXTURE_DIMENSIONS;
  const timeout = factory.timeoutMs ?? 30_000;
  const openOptions = { embedderId: FIXTURE_EMBEDDER_ID, dimensions: dims };

  describe(`${name}: VectorStoreAdapter conformance`, () => {
    let sut: StoreUnderTest;
    let store: VectorStoreAdapter;
    const extra: VectorStoreAdapter[] = [];
    const adapter = (): string => factory.adapterName ?? store.id;

    beforeEach(async () => {
      sut = await factory.create();
      store = sut.store;
      await store.open(openOptions);
    }, timeout);

    afterEach(async () => {
      for (const s of [store, ...extra.splice(0)]) await s.close().catch(() => undefined);
      await sut.cleanup();
    }, timeout);

    it("declares frozen capabilities with every field typed", () => {
      const c = store.capabilities;
      expect(Object.isFrozen(c)).toBe(true);
      for (const key of ["vectorSearch", "nativeHybrid", "fullText", "metadataFilter", "deleteByFilter", "persistent"] as const) {
        expect(typeof c[key]).toBe("boolean");
      }
      expect(Number.isInteger(c.maxBatchSize) && c.maxBatchSize > 0).toBe(true);
      expect(typeof store.id === "string" && store.id.length > 0).toBe(true);
      if (c.fullText) expect(typeof store.fullTextSearch).toBe("function");
      if (c.nativeHybrid) expect(typeof store.hybridSearch).toBe("function");
    }, timeout);

    it("upserts in batches idempotently and replaces records by id", async () => {
      const records = makeStoreRecords(25, { dimensions: dims });
      const calls = await upsertInBatches(store, records, 10);
      expect(calls).toBeGreaterThanOrEqual(Math.ceil(25 / store.capabilities.maxBatchSize));
      expect(await store.count()).toBe(25);
      await upsertInBatches(store, records, 7);
      expect(await store.count()).toBe(25);
      const changed = makeStoreRecord(3, { dimensions: dims, record: { sourcePath: records[3].record.sourcePath, content: "replaced text" } });
      await store.upsert([changed]);
      expect(await store.count()).toBe(25);
      const [got] = await store.get([changed.record.id]);
      expect(got.content).toBe("replaced text");
    }, timeout);

    it("get returns full records for known ids and skips unknown ones", async () => {
      const records = makeStoreRecords(6, { dimensions: dims });
      await store.upsert(records);
      const want = [records[4].record, records[1].record];
      const got = await store.get([want[0].id, "no/such_chunk_0", want[1].id]);
      expect(byId(got)).toEqual(byId(want));
      expect(await store.get([])).toEqual([]);
    }, timeout);

    it("deletes by id (unknown ids ignored) and by source path", async () => {
      const records = makeStoreRecords(10, { dimensions: dims, sourcePaths: ["docs/a.md", "docs/b.md"] });
      await store.upsert(records);
      await store.deleteByIds([records[0].record.id, records[1].record.id, "missing_chunk_9"]);
      expect(await store.count()).toBe(8);
      expect(await store.get([records[0].record.id, records[1].record.id])).toEqual([]);
      await store.deleteBySource("docs/a.md");
      const left = await collect(store.scan());
      expect(left.map((r) => r.sourcePath).every((p) => p === "docs/b.md")).toBe(true);
      expect(left.length).toBe(4);
      const hits = await store.vectorSearch({ vector: records[2].vector, topK: 10 });
      expect(hits.map((h) => h.id)).not.toContain(records[2].record.id);
      expect(hits.map((h) => h.id)).not.toContain(records[0].record.id);
    }, timeout);

    it("scan yields every record once, without losing fields", async () => {
      const records = makeStoreRecords(12, { dimensions: dims });
      await store.upsert(records);
      const scanned = await collect(store.scan());
      expect(byId(scanned)).toEqual(byId(records.map((r) => r.record)));
    }, timeout);

    it("vector search ranks by cosine similarity, honours topK and the source-path filter", async () => {
      const query = makeVector("conformance-query", dims);
      const sims = [0.95, 0.9, 0.8, 0.7, 0.6, 0.5, 0.3, 0.1, -0.2];
      const records = sims.map((s, i) =>
        makeStoreRecord(i, {
          vector: vectorWithSimilarity(query, s, i),
          record: { sourcePath: i % 3 === 1 ? "docs/filtered.md" : "docs/other.md" },
        }),
      );
      await store.upsert(records.slice().reverse());
      const top3 = await store.vectorSearch({ vector: query, topK: 3 });
      expect(top3.map((h) => h.id)).toEqual(records.slice(0, 3).map((r) => r.record.id));
      for (let i = 1; i < top3.length; i++) expect(top3[i - 1].score).toBeGreaterThan(top3[i].score);
      const all = await store.vectorSearch({ vector: query, topK: 100 });
      expect(all.map((h) => h.id)).toEqual(records.map((r) => r.record.id));
      const filtered = await store.vectorSearch({ vector: query, topK: 2, filter: { sourcePaths: ["docs/filtered.md"] } });
      expect(filtered.map((h) => h.id)).toEqual([records[1].record.id, records[4].record.id]);
      const none = await store.vectorSearch({ vector: query, topK: 5, filter: { sourcePaths: ["docs/none.md"] } });
      expect(none).toEqual([]);
    }, timeout);

    it("rejects vectors of the wrong size with E_DIMENSION_MISMATCH", async () => {
      const bad = makeStoreRecord(0, { vector: makeVector("bad", dims + 1) });
      await expectHierdocError(store.upsert([bad]), { code: "E_DIMENSION_MISMATCH", adapter: adapter() });
      expect(await store.count()).toBe(0);
      await expectHierdocError(store.vectorSearch({ vector: makeVector("q", dims - 1), topK: 3 }), {
        code: "E_DIMENSION_MISMATCH",
        adapter: adapter(),
      });
    }, timeout);

    it("full text search finds records by words of their indexed text (when fullText)", async () => {
      if (!store.capabilities.fullText) return void expect(store.capabilities.fullText).toBe(false);
      const texts = ["the zebra crossing rules", "parking of bicycles", "zebra stripes and zebra herds", "aircraft noise"];
      const records = texts.map((t, i) =>
        makeStoreRecord(i, { dimensions: dims, record: { content: t, context: "", indexedText: t, sourcePath: i < 2 ? "docs/a.md" : "docs/b.md" } }),
      );
      await store.upsert(records);
      const hits = await store.fullTextSearch!({ text: "zebra", topK: 5 });
      expect(new Set(hits.map((h) => h.id))).toEqual(new Set([records[0].record.id, records[2].record.id]));
      expect(hits[0].id).toBe(records[2].record.id);
      const filtered = await store.fullTextSearch!({ text: "zebra", topK: 5, filter: { sourcePaths: ["docs/a.md"] } });
      expect(filtered.map((h) => h.id)).toEqual([records[0].record.id]);
    }, timeout);

    it("native hybrid search combines both legs (when nativeHybrid)", async () => {
      if (!store.capabilities.nativeHybrid) return void expect(store.capabilities.nativeHybrid).toBe(false);
      const query = makeVector("hybrid-query", dims);
      const specs = [
        { text: "zebra crossing", sim: 0.9 },
        { text: "bicycle parking", sim: 0.95 },
        { text: "aircraft noise", sim: 0.1 },
      ];
      const records = specs.map((s, i) =>
        makeStoreRecord(i, { vector: vectorWithSimilarity(query, s.sim, i), record: { content: s.text, context: "", indexedText: s.text } }),
      );
      await store.upsert(records);
      const hits = await store.hybridSearch!({ text: "zebra", vector: query, topK: 3 });
      expect(hits[0].id).toBe(records[0].record.id);
      expect(hits.map((h) => h.id)).not.toContain(undefined);
    }, timeout);

    it("keeps data across close and reopen, and refuses another embedder or size (when persistent)", async () => {
      if (!store.capabilities.persistent) return void expect(store.capabilities.persistent).toBe(false);
      expect(typeof sut.reopen).toBe("function");
      const records = makeStoreRecords(8, { dimensions: dims });
      await store.upsert(records);
      await store.deleteByIds([records[7].record.id]);
      await store.flush();
      await store.close();
      const again = await sut.reopen!();
      extra.push(again);
      await again.open(openOptions);
      expect(await again.count()).toBe(7);
      expect(byId(await again.get(records.map((r) => r.record.id)))).toEqual(byId(records.slice(0, 7).map((r) => r.record)));
      const hits = await again.vectorSearch({ vector: records[5].vector, topK: 1 });
      expect(hits[0].id).toBe(records[5].record.id);
      await again.close();

      const otherEmbedder = await sut.reopen!();
      extra.push(otherEmbedder);
      const err = await expectHierdocError(otherEmbedder.open({ embedderId: "other/embedder@2", dimensions: dims }), {
        code: "E_EMBEDDER_MISMATCH",
        adapter: adapter(),
      });
      expect(err.message).toContain("other/embedder@2");
      expect(err.message).toContain(FIXTURE_EMBEDDER_ID);

      const otherSize = await sut.reopen!();
      extra.push(otherSize);
      await expectHierdocError(otherSize.open({ embedderId: FIXTURE_EMBEDDER_ID, dimensions: dims + 2 }), {
        code: "E_DIMENSION_MISMATCH",
        adapter: adapter(),
      });
    }, timeout);

    if (factory.unreachable !== undefined) {
      const makeUnreachable = factory.unreachable;
      it("an unreachable store fails open() with a retryable E_STORE_UNAVAILABLE naming adapter and operation", async () => {
        const down = await makeUnreachable();
        extra.push(down);
        await expectStoreUnavailable(down.open(openOptions), { adapter: factory.adapterName ?? down.id, operation: "open" });
      }, timeout);
    }
  });
}
