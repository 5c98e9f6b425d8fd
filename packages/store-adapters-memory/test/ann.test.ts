import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { makeStoreRecord, makeVector } from "@hierdoc/core/testing";
import type { StoreRecord } from "@hierdoc/core";
import { MANIFEST_FILE, MemoryStore, type MemoryAnnConfig } from "@hierdoc/store-adapters-memory";

const D = 24;
const open = { embedderId: "test/embedder@1", dimensions: D };
const ann: MemoryAnnConfig = { threshold: 300, threads: 1 };
const SOURCES = Array.from({ length: 10 }, (_, i) => `docs/s${i}.md`);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hierdoc-memory-ann-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function records(n: number, from = 0): StoreRecord[] {
  return Array.from({ length: n }, (_, i) => makeStoreRecord(from + i, { dimensions: D, record: { id: `c${from + i}`, sourcePath: SOURCES[(from + i) % SOURCES.length] } }));
}

const queries = Array.from({ length: 40 }, (_, i) => makeVector(`query-${i}`, D));

/** Mean overlap of the two stores' top-10 ids, and a check that every shared id has the same score. */
async function overlap(approx: MemoryStore, exact: MemoryStore, filter?: { sourcePaths: string[] }): Promise<number> {
  let hit = 0;
  for (const vector of queries) {
    const a = await approx.vectorSearch({ vector, topK: 10, filter });
    const e = await exact.vectorSearch({ vector, topK: 10, filter });
    expect(a).toHaveLength(e.length);
    const exactScore = new Map(e.map((h) => [h.id, h.score]));
    for (const h of a) {
      const s = exactScore.get(h.id);
      if (s !== undefined) {
        hit++;
        expect(h.score).toBeCloseTo(s, 6);
      }
    }
    for (let i = 1; i < a.length; i++) expect(a[i - 1].score).toBeGreaterThanOrEqual(a[i].score);
  }
  return hit / (queries.length * 10);
}

async function pair(n: number, config: MemoryAnnConfig = ann): Promise<{ approx: MemoryStore; exact: MemoryStore }> {
  const approx = new MemoryStore({ dir, ann: config });
  const exact = new MemoryStore({ ann: false });
  await approx.open(open);
  await exact.open(open);
  for (let i = 0; i < n; i += 250) {
    await approx.upsert(records(Math.min(250, n - i), i));
    await exact.upsert(records(Math.min(250, n - i), i));
  }
  return { approx, exact };
}

describe("MemoryStore ANN (HNSW) leg", () => {
  it("answers like the exact scan (recall@10 ≥ 0.97, identical scores) once past the threshold, built incrementally", async () => {
    const { approx, exact } = await pair(2000);
    expect(await overlap(approx, exact)).toBeGreaterThanOrEqual(0.97);
  });

  it("with a graph too coarse to be exact, results differ from the scan: the graph is what answers", async () => {
    const { approx, exact } = await pair(2000, { ...ann, m: 2, ef_search: 1, ef_construction: 2, candidates: 10 });
    const r = await overlap(approx, exact);
    expect(r).toBeLessThan(1);
    expect(r).toBeGreaterThan(0);
  });

  it("more re-scored candidates widen the graph's search: a coarse graph's recall rises with ann.candidates, scores stay exact", async () => {
    const coarse = { ...ann, m: 4, ef_search: 1, ef_construction: 8 };
    const { approx: few, exact } = await pair(2000, { ...coarse, candidates: 10 });
    const fewRecall = await overlap(few, exact);
    await few.close();
    await rm(dir, { recursive: true, force: true });
    const many = new MemoryStore({ dir, ann: { ...coarse, candidates: 400 } });
    await many.open(open);
    for (let i = 0; i < 2000; i += 250) await many.upsert(records(250, i));
    const manyRecall = await overlap(many, exact);
    expect(manyRecall).toBeGreaterThan(fewRecall + 0.1);
    expect(manyRecall).toBeGreaterThanOrEqual(0.95);
  });

  it("stays exact below the threshold and with ann: false (no graph file in the snapshot)", async () => {
    const { approx, exact } = await pair(250);
    expect(await overlap(approx, exact)).toBe(1);
    await approx.close();
    expect((await readdir(dir)).some((n) => n.startsWith("ann-"))).toBe(false);
    const off = new MemoryStore({ dir, ann: false });
    await off.open(open);
    await off.upsert(records(1000, 250));
    await off.close();
    expect((await readdir(dir)).some((n) => n.startsWith("ann-"))).toBe(false);
  });

  it("never returns deleted records and keeps recall after deletes, replacements and re-adds", async () => {
    const { approx, exact } = await pair(1500);
    for (const s of [approx, exact]) {
      await s.deleteBySource(SOURCES[3]);
      await s.deleteByIds(Array.from({ length: 100 }, (_, i) => `c${i * 7}`));
      // Replace 50 vectors (same ids, new vectors) and re-add 20 deleted ids.
      await s.upsert(Array.from({ length: 50 }, (_, i) => ({ ...makeStoreRecord(i * 11 + 1, { dimensions: D, record: { id: `c${i * 11 + 1}`, sourcePath: SOURCES[0] } }), vector: makeVector(`moved-${i}`, D) })));
      await s.upsert(records(20, 0).filter((r) => r.record.sourcePath !== SOURCES[3]));
    }
    expect(await approx.count()).toBe(await exact.count());
    const live = new Set<string>();
    for await (const r of exact.scan()) live.add(r.id);
    expect(live.has("c3")).toBe(false);
    for (const vector of queries) {
      for (const h of await approx.vectorSearch({ vector, topK: 10 })) expect(live.has(h.id)).toBe(true);
    }
    expect(await overlap(approx, exact)).toBeGreaterThanOrEqual(0.95);
    // A replaced vector is found by its new value.
    expect((await approx.vectorSearch({ vector: makeVector("moved-7", D), topK: 1 }))[0].id).toBe("c78");
  });

  it("filtered searches return only allowed sources and match the exact scan (large subset through the graph, small one exact)", async () => {
    const { approx, exact } = await pair(3000);
    const large = { sourcePaths: SOURCES.slice(0, 6) };
    const small = { sourcePaths: [SOURCES[9]] };
    for (const filter of [large, small]) {
      expect(await overlap(approx, exact, filter)).toBeGreaterThanOrEqual(0.97);
      for (const vector of queries.slice(0, 5)) {
        const hits = await approx.vectorSearch({ vector, topK: 10, filter });
        expect(hits).toHaveLength(10);
        const got = await approx.get(hits.map((h) => h.id));
        for (const r of got) expect(filter.sourcePaths).toContain(r.sourcePath);
      }
    }
  });

  it("persists the graph with the snapshot and loads it on open (same answers); a damaged graph file is ignored (exact) and rebuilt by the next write", async () => {
    const { approx } = await pair(1200);
    const before = await Promise.all(queries.map((vector) => approx.vectorSearch({ vector, topK: 10 })));
    await approx.close();
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8"));
    expect(manifest.ann).toEqual({ library: "usearch", m: 16, ef_construction: 128, quantization: "f32", rows: 1200 });
    expect(manifest.files.ann.name).toMatch(/^ann-1-\d+\.usearch$/);
    expect((await readdir(dir)).filter((n) => n.endsWith(".tmp"))).toEqual([]);

    const reopened = new MemoryStore({ dir, ann });
    await reopened.open(open);
    expect(reopened.openInfo).toEqual({ graph: "viewed" });
    expect(await Promise.all(queries.map((vector) => reopened.vectorSearch({ vector, topK: 10 })))).toEqual(before);
    await reopened.close();

    const file = join(dir, manifest.files.ann.name);
    const bytes = await readFile(file);
    bytes[bytes.length >> 1] ^= 0xff;
    await writeFile(file, bytes);
    const repaired = new MemoryStore({ dir, ann });
    await repaired.open(open);
    expect(repaired.openInfo).toEqual({ graph: "none", reason: `graph file ${manifest.files.ann.name} is missing or damaged` });
    const exact = new MemoryStore({ dir, ann: false });
    await exact.open(open);
    const exactAnswers = await Promise.all(queries.map((vector) => exact.vectorSearch({ vector, topK: 10 })));
    expect(await Promise.all(queries.map((vector) => repaired.vectorSearch({ vector, topK: 10 })))).toEqual(exactAnswers);
    await repaired.upsert(records(1, 7000));
    await repaired.close();
    const next = JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8"));
    expect(next.files.ann.name).toMatch(/^ann-2-\d+\.usearch$/);
    const rebuilt = new MemoryStore({ dir, ann });
    await rebuilt.open(open);
    expect(await overlap(rebuilt, exact)).toBeGreaterThanOrEqual(0.97);
    await rebuilt.close();
  });

  it("a graph built with other settings is not used; buildAnnIndex() or the next write rebuilds it with the new ones, saved with them", async () => {
    const { approx } = await pair(800);
    await approx.close();
    const other = new MemoryStore({ dir, ann: { ...ann, m: 8, quantization: "f16" } });
    await other.open(open);
    expect(await other.count()).toBe(800);
    expect(await other.buildAnnIndex()).toBe(true);
    const top = await other.vectorSearch({ vector: makeVector("c5", D), topK: 3 });
    expect(top).toHaveLength(3);
    await other.upsert(records(1, 5000));
    await other.close();
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8"));
    expect(manifest.ann).toMatchObject({ m: 8, quantization: "f16" });
  });

  it("rejects bad ANN settings at construction with E_INVALID_ARGUMENT", () => {
    const invalid = expect.objectContaining({ code: "E_INVALID_ARGUMENT" });
    expect(() => new MemoryStore({ ann: { m: 0 } })).toThrow(invalid);
    expect(() => new MemoryStore({ ann: { threshold: -1 } })).toThrow(/ann.threshold/);
    expect(() => new MemoryStore({ ann: { quantization: "i4" as never } })).toThrow(invalid);
    expect(() => new MemoryStore({ ann: { candidates: -1 } })).toThrow(/ann.candidates/);
    expect(() => new MemoryStore({ ann: { candidates: 2.5 } })).toThrow(invalid);
  });
});
