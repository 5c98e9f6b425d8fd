import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bm25Index } from "@hierdoc/keyword-search";
import { isHierdocError } from "@hierdoc/core";

const docs = [
  { id: "a", text: "the quick brown fox jumps over the lazy dog", sourcePath: "one.md" },
  { id: "b", text: "quick quick quick brown", sourcePath: "one.md" },
  { id: "c", text: "a completely different text about foxes and wolves and wolves", sourcePath: "two.md" },
  { id: "d", text: "nothing in common here", sourcePath: "two.md" },
];

/** Lucene BM25 computed by hand from the definition, for the plain analyzer. */
function luceneScore(query: string[], corpus: string[][], doc: number, k1 = 1.2, b = 0.75): number {
  const n = corpus.length;
  const avgdl = corpus.reduce((s, d) => s + d.length, 0) / n;
  let score = 0;
  for (const q of query) {
    const df = corpus.filter((d) => d.includes(q)).length;
    if (df === 0) continue;
    const tf = corpus[doc].filter((t) => t === q).length;
    if (tf === 0) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    score += (idf * tf) / (tf + k1 * (1 - b + (b * corpus[doc].length) / avgdl));
  }
  return score;
}

function plainIndex(): Bm25Index {
  return new Bm25Index({ analyzer: { kind: "standard", stem: false, stopWords: false } });
}

describe("Bm25Index (lucene)", () => {
  it("matches the Lucene BM25 formula computed independently", async () => {
    const index = plainIndex();
    await index.upsert(docs);
    const corpus = docs.map((d) => d.text.split(" "));
    const hits = await index.search("quick fox wolves", { topK: 10 });
    const expected = docs
      .map((d, i) => ({ id: d.id, score: luceneScore(["quick", "fox", "wolves"], corpus, i) }))
      .filter((e) => e.score > 0)
      .sort((x, y) => y.score - x.score);
    expect(expected.map((e) => e.id)).toEqual(["a", "c", "b"]);
    expect(hits.map((h) => h.id)).toEqual(expected.map((e) => e.id));
    for (const h of hits) {
      const i = docs.findIndex((d) => d.id === h.id);
      expect(h.score).toBeCloseTo(luceneScore(["quick", "fox", "wolves"], corpus, i), 12);
    }
  });

  it("keeps only the best topK and honours allowIds", async () => {
    const index = plainIndex();
    await index.upsert(docs);
    expect((await index.search("quick fox wolves", { topK: 1 })).map((h) => h.id)).toEqual(["a"]);
    const filtered = await index.search("quick fox wolves", { topK: 10, allowIds: new Set(["a", "c"]) });
    expect(filtered.map((h) => h.id)).toEqual(["a", "c"]);
    const onlyB = await index.search("quick fox wolves", { topK: 10, allowIds: new Set(["b", "zzz"]) });
    expect(onlyB.map((h) => h.id)).toEqual(["b"]);
  });

  it("upserts replace, removes forget, and stats follow incrementally (same scores as a fresh build)", async () => {
    const index = plainIndex();
    await index.upsert(docs);
    await index.upsert([{ id: "d", text: "quick wolves", sourcePath: "two.md" }]);
    await index.remove(["a", "missing"]);
    const fresh = plainIndex();
    await fresh.upsert([docs[1], docs[2], { id: "d", text: "quick wolves", sourcePath: "two.md" }]);
    expect(await index.size()).toBe(3);
    expect(await index.search("quick wolves fox", { topK: 5 })).toEqual(await fresh.search("quick wolves fox", { topK: 5 }));
    expect(index.removeBySource("two.md")).toBe(2);
    expect((await index.search("wolves", { topK: 5 })).length).toBe(0);
  });

  it("compacts after many removals without changing results", async () => {
    const index = plainIndex();
    const many = Array.from({ length: 2000 }, (_, i) => ({ id: `x${i}`, text: `word${i % 50} shared term${i % 7}`, sourcePath: "m" }));
    await index.upsert(many);
    await index.remove(many.filter((_, i) => i % 2 === 0).map((d) => d.id));
    const fresh = plainIndex();
    await fresh.upsert(many.filter((_, i) => i % 2 === 1));
    for (const q of ["word3 term1", "shared", "word7"]) {
      expect(await index.search(q, { topK: 20 })).toEqual(await fresh.search(q, { topK: 20 }));
    }
  });

  it("compacts after many replacing upserts (same results as a fresh build)", async () => {
    const index = plainIndex();
    const docsV1 = Array.from({ length: 1500 }, (_, i) => ({ id: `x${i}`, text: `old${i % 30} shared`, sourcePath: "m" }));
    const docsV2 = docsV1.map((d, i) => ({ ...d, text: `new${i % 40} shared extra${i % 3}` }));
    await index.upsert(docsV1);
    await index.upsert(docsV2);
    const fresh = plainIndex();
    await fresh.upsert(docsV2);
    expect(await index.search("old3", { topK: 5 })).toEqual([]);
    for (const q of ["new7 extra1", "shared"]) expect(await index.search(q, { topK: 20 })).toEqual(await fresh.search(q, { topK: 20 }));
  });

  it("saves atomically and reloads without re-tokenising, with its fingerprint", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bm25-"));
    try {
      const index = new Bm25Index();
      await index.upsert(docs);
      await index.remove(["d"]);
      await index.save(dir, { fingerprint: "abc123" });
      expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
      const loaded = await Bm25Index.load(dir);
      expect(loaded).not.toBeNull();
      expect(loaded!.fingerprint).toBe("abc123");
      expect(await loaded!.size()).toBe(3);
      for (const q of ["quick foxes", "wolves dog", "brown"]) {
        expect(await loaded!.search(q, { topK: 10 })).toEqual(await index.search(q, { topK: 10 }));
      }
      await loaded!.upsert([{ id: "e", text: "lazy wolves", sourcePath: "three.md" }]);
      expect((await loaded!.search("lazy", { topK: 10 })).map((h) => h.id).sort()).toEqual(["a", "e"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("removes temp files a killed writer left behind, but not a live writer's", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bm25-"));
    try {
      // A pid that is certainly dead: a child process that has exited.
      const child = spawn(process.execPath, ["-e", ""]);
      await new Promise((resolve) => child.on("exit", resolve));
      const deadTemp = `.bm25.bin.${child.pid}.m1abc.tmp`;
      const liveTemp = `.bm25.bin.${process.pid}.m2def.tmp`;
      await writeFile(join(dir, deadTemp), "partial");
      await writeFile(join(dir, liveTemp), "being written");
      const index = new Bm25Index();
      await index.upsert(docs);
      await index.save(dir);
      expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([liveTemp]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("returns null for a folder without an index and E_INDEX_CORRUPT for a damaged file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bm25-"));
    try {
      expect(await Bm25Index.load(dir)).toBeNull();
      const index = new Bm25Index();
      await index.upsert(docs);
      await index.save(dir);
      const { readFile } = await import("node:fs/promises");
      const bytes = await readFile(join(dir, "bm25.bin"));
      await writeFile(join(dir, "bm25.bin"), bytes.subarray(0, bytes.length - 5));
      const err = await Bm25Index.load(dir).then(() => null, (e: unknown) => e);
      expect(isHierdocError(err, "E_INDEX_CORRUPT")).toBe(true);
      await writeFile(join(dir, "bm25.bin"), "not an index at all");
      const err2 = await Bm25Index.load(dir).then(() => null, (e: unknown) => e);
      expect(isHierdocError(err2, "E_INDEX_CORRUPT")).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
