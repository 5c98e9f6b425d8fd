import { readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { expectHierdocError, makeStoreRecord, makeVector } from "@hierdoc/core/testing";
import type { StoreRecord } from "@hierdoc/core";
import { FaissStore, type FaissStoreOptions } from "@hierdoc/store-adapters-faiss";
import { faissStore } from "@hierdoc/store-adapters-faiss/descriptor";

const D = 24;
const open = { embedderId: "test/embedder@1", dimensions: D };
const queries = Array.from({ length: 30 }, (_, i) => makeVector(`q-${i}`, D));
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hierdoc-faiss-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const records = (n: number): StoreRecord[] =>
  Array.from({ length: n }, (_, i) => makeStoreRecord(i, { dimensions: D, record: { id: `c${i}`, sourcePath: `docs/s${i % 8}.md` } }));

async function filled(options: FaissStoreOptions, n = 2000): Promise<FaissStore> {
  const store = new FaissStore(options);
  await store.open(open);
  for (let i = 0; i < n; i += 500) await store.upsert(records(n).slice(i, i + 500));
  return store;
}

async function answers(store: FaissStore, filter?: { sourcePaths: string[] }): Promise<string[][]> {
  return Promise.all(queries.map(async (vector) => (await store.vectorSearch({ vector, topK: 10, filter })).map((h) => h.id)));
}

function overlap(a: string[][], b: string[][]): number {
  let hit = 0;
  a.forEach((ids, q) => ids.forEach((id) => (hit += b[q].includes(id) ? 1 : 0)));
  return hit / (a.length * 10);
}

describe("FaissStore (HNSW over usearch)", () => {
  it("HNSW answers match the flat (exact) index: recall@10 ≥ 0.97, with and without a filter, after deletes", async () => {
    const hnsw = await filled({ dir });
    const flat = await filled({ indexType: "flat" });
    expect(overlap(await answers(hnsw), await answers(flat))).toBeGreaterThanOrEqual(0.97);
    const filter = { sourcePaths: ["docs/s1.md", "docs/s2.md"] };
    expect(overlap(await answers(hnsw, filter), await answers(flat, filter))).toBeGreaterThanOrEqual(0.97);
    for (const s of [hnsw, flat]) await s.deleteBySource("docs/s3.md");
    const after = await answers(hnsw);
    expect(after.flat().some((id) => Number(id.slice(1)) % 8 === 3)).toBe(false);
    expect(overlap(after, await answers(flat))).toBeGreaterThanOrEqual(0.97);
  });

  it("a coarse graph (M 2, ef 1) differs from the exact answers: the graph is what answers", async () => {
    const coarse = await filled({ m: 2, efSearch: 1, efConstruction: 2 });
    const flat = await filled({ indexType: "flat" });
    expect(overlap(await answers(coarse), await answers(flat))).toBeLessThan(1);
  });

  it("saves records, vectors and graph atomically and reopens to the same answers; a damaged graph is rebuilt", async () => {
    const store = await filled({ dir }, 1200);
    await store.deleteByIds(["c5", "c6"]);
    const before = await answers(store);
    await store.close();
    const names = (await readdir(dir)).sort();
    expect(names).toEqual(["graph-1.usearch", "manifest.json", "records-1.jsonl"]);
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ format: "hierdoc-faiss-store", count: 1198, settings: { indexType: "hnsw", library: "usearch", m: 16 } });

    const again = new FaissStore({ dir });
    await again.open(open);
    expect(await answers(again)).toEqual(before);
    expect((await again.getWithVectors(["c7"]))[0].vector).toHaveLength(D);
    await again.upsert(records(1203).slice(1200));
    await again.close();
    expect((await readdir(dir)).sort()).toEqual(["graph-2.usearch", "manifest.json", "records-2.jsonl"]);

    const graph = join(dir, "graph-2.usearch");
    const bytes = await readFile(graph);
    bytes[bytes.length >> 1] ^= 0xff;
    await writeFile(graph, bytes);
    const repaired = new FaissStore({ dir });
    await repaired.open(open);
    expect(await repaired.count()).toBe(1201);
    expect(overlap(await answers(repaired), before)).toBeGreaterThanOrEqual(0.95);
    await repaired.close();
  });

  it("reports a damaged records file as E_INDEX_CORRUPT naming it, and a bad index type as E_INVALID_ARGUMENT", async () => {
    const store = await filled({ dir }, 50);
    await store.close();
    const file = join(dir, "records-1.jsonl");
    await writeFile(file, (await readFile(file, "utf8")).replace("c1", "cX"));
    const err = await expectHierdocError(new FaissStore({ dir }).open(open), { code: "E_INDEX_CORRUPT" });
    expect(err.message).toContain("records-1.jsonl");
    expect(() => new FaissStore({ indexType: "ivf" as never })).toThrow(/hnsw or flat/);
  });
});

describe("faiss descriptor", () => {
  it("validates the YAML keys and opens a working store under the index folder", async () => {
    const config = faissStore.schema.parse({ provider: "faiss", index_type: "hnsw", m: 8, ef_search: 64 });
    const store = await faissStore.create(config, { indexDir: dir, env: () => undefined });
    expect(store.capabilities).toEqual(faissStore.capabilities);
    await store.open(open);
    await store.upsert(records(20));
    expect((await store.vectorSearch({ vector: records(20)[4].vector, topK: 1 }))[0].id).toBe("c4");
    await store.close();
    expect(await readdir(join(dir, "faiss"))).toContain("manifest.json");
    const bad = faissStore.schema.safeParse({ provider: "faiss", index_type: "ivf", m: 0, url: "x" });
    expect(bad.success).toBe(false);
    const paths = bad.error?.issues.map((i) => i.path.join(".")).sort();
    expect(paths).toEqual(["", "index_type", "m"]);
    expect(faissStore.keys.map((k) => k.key)).toEqual(["path", "index_type", "m", "ef_search", "ef_construction", "quantization"]);
  });

  it("loads no native code: the descriptor module imports only node:path, @hierdoc/core and zod statically", () => {
    const source = readFileSync(resolve(__dirnameOf(), "../src/descriptor/index.ts"), "utf8");
    const statics = [...source.matchAll(/^import [^;]* from "([^"]+)";$/gm)].map((m) => m[1]).sort();
    expect(statics).toEqual(["@hierdoc/core", "node:path", "zod"]);
    expect(source).toContain('await import("../faiss-store.js")');
  });
});

function __dirnameOf(): string {
  return resolve(process.cwd(), "packages/store-adapters-faiss/test");
}
