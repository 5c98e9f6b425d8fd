import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { HierdocError, type ErrorCode, type StoreRecord } from "@hierdoc/core";
import { axisVector, chunkRecordFor as record, expectHierdocError as expectStoreError, gdprArticleRecords, lexicalHashVector as hashEmbed, paragraphRecords as records, runStoreConformance } from "@hierdoc/core/testing";
import { LanceDbStore } from "@hierdoc/store-adapters-lancedb";

// The GDPR articles from the shared corpora, when present (fixture builder shared in @hierdoc/core/testing).
const GDPR_MD = join(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora/gdpr/gdpr_2016_679.md");
const HAS_GDPR = existsSync(GDPR_MD);
const gdprArticles = (dimensions: number) => gdprArticleRecords(GDPR_MD, dimensions);

const D = 8;
const OPEN = { embedderId: "hash-8", dimensions: D };
let root: string;
let seq = 0;
const opened: LanceDbStore[] = [];

async function openStore(options: { uri?: string; table?: string } = {}): Promise<LanceDbStore> {
  const s = new LanceDbStore({ uri: options.uri ?? join(root, `db${++seq}`), table: options.table });
  await s.open(OPEN);
  opened.push(s);
  return s;
}

function expectHierdocError(p: Promise<unknown>, code: ErrorCode, operation: string): Promise<HierdocError> {
  return expectStoreError(p, { code, adapter: "lancedb", operation });
}

function doc(id: string, sourcePath: string, content: string, vector: Float32Array): StoreRecord {
  return { record: { ...record(id, sourcePath, content), context: "", indexedText: content }, vector };
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hierdoc-lancedb-"));
});

afterAll(async () => {
  for (const s of opened) await s.close();
  rmSync(root, { recursive: true, force: true });
});

runStoreConformance("lancedb (temporary folder)", {
  async create() {
    const uri = join(root, `conformance${++seq}`);
    return {
      store: new LanceDbStore({ uri }),
      reopen: async () => new LanceDbStore({ uri }),
      async cleanup() {
        rmSync(uri, { recursive: true, force: true });
      },
    };
  },
});

describe("LanceDbStore on a temporary folder", () => {
  it("declares frozen capabilities with native hybrid and full text", () => {
    const s = new LanceDbStore({ uri: join(root, "unused") });
    expect(Object.isFrozen(s.capabilities)).toBe(true);
    expect(s.capabilities).toMatchObject({ vectorSearch: true, nativeHybrid: true, fullText: true, metadataFilter: true, deleteByFilter: true, persistent: true });
  });

  it("round-trips a full chunk record, in the order asked, with quotes in ids", async () => {
    const s = await openStore();
    const a = record("o'brien.md_chunk_0", "o'brien.md", "It's the data subject’s right — “erasure”.");
    const b = record("b.md_chunk_1", "b.md", "second");
    await s.upsert([
      { record: a, vector: axisVector(D, 0) },
      { record: b, vector: axisVector(D, 1) },
    ]);
    expect(await s.get([b.id, "missing", a.id])).toEqual([b, a]);
  });

  it("upserts idempotently, the last duplicate in a batch winning", async () => {
    const s = await openStore();
    const batch = records(30, D);
    await s.upsert(batch);
    await s.upsert(batch);
    expect(await s.count()).toBe(30);
    const first = { ...batch[2], record: { ...batch[2].record, content: "one" } };
    const second = { ...batch[2], record: { ...batch[2].record, content: "two" } };
    await s.upsert([first, second]);
    expect(await s.count()).toBe(30);
    expect((await s.get([batch[2].record.id]))[0].content).toBe("two");
  });

  it("returns the top-k by cosine with score = 1 - distance, honouring a source filter", async () => {
    const s = await openStore();
    await s.upsert([
      doc("a_0", "a.md", "x", axisVector(D, 0)),
      doc("a_1", "a.md", "x", axisVector(D, 0, 0.5)),
      doc("b_0", "b.md", "x", axisVector(D, 0, 0.1)),
      doc("b_1", "b.md", "x", axisVector(D, 3)),
    ]);
    const hits = await s.vectorSearch({ topK: 3, vector: axisVector(D, 0) });
    expect(hits.map((h) => h.id)).toEqual(["a_0", "b_0", "a_1"]);
    expect(hits[0].score).toBeCloseTo(1, 4);
    expect(hits[2].score).toBeCloseTo(1 / Math.sqrt(1.25), 4);
    expect((await s.vectorSearch({ topK: 10, vector: axisVector(D, 0), filter: { sourcePaths: ["b.md"] } })).map((h) => h.id)).toEqual(["b_0", "b_1"]);
    expect(await s.vectorSearch({ topK: 10, vector: axisVector(D, 0), filter: { sourcePaths: [] } })).toEqual([]);
  });

  it("full text ranks keyword matches, sees writes made after the index was built, and forgets deletions", async () => {
    const s = await openStore();
    await s.upsert([
      doc("gdpr_17", "gdpr.md", "Right to erasure: the data subject shall have the right to obtain erasure of personal data.", axisVector(D, 0)),
      doc("gdpr_6", "gdpr.md", "Lawfulness of processing of personal data.", axisVector(D, 1)),
      doc("ccpa_105", "ccpa.md", "Consumers' right to delete; a business shall delete personal information (erasure).", axisVector(D, 2)),
    ]);
    const hits = await s.fullTextSearch({ topK: 5, text: "erasure" });
    expect(hits.map((h) => h.id)).toEqual(["gdpr_17", "ccpa_105"]);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    expect((await s.fullTextSearch({ topK: 5, text: "erasure", filter: { sourcePaths: ["ccpa.md"] } })).map((h) => h.id)).toEqual(["ccpa_105"]);
    await s.upsert([doc("gdpr_21", "gdpr.md", "Right to object to processing; erasure is not the same.", axisVector(D, 3))]);
    expect((await s.fullTextSearch({ topK: 5, text: "object" })).map((h) => h.id)).toEqual(["gdpr_21"]);
    await s.deleteByIds(["gdpr_17"]);
    expect((await s.fullTextSearch({ topK: 5, text: "erasure" })).map((h) => h.id).sort()).toEqual(["ccpa_105", "gdpr_21"]);
    expect(await s.fullTextSearch({ topK: 5, text: "   " })).toEqual([]);
  });

  it("hybrid search fuses both legs: a keyword-only match and a vector-only match both appear, the double match first", async () => {
    const s = await openStore();
    const q = axisVector(D, 0);
    await s.upsert([
      doc("both", "g.md", "Right to erasure of personal data.", axisVector(D, 0, 0.2)),
      doc("vector-only", "g.md", "Lawfulness of processing.", axisVector(D, 0, 0.1)),
      doc("keyword-only", "g.md", "Erasure is mentioned here.", axisVector(D, 4)),
      ...Array.from({ length: 12 }, (_, i) => doc(`noise_${i}`, "n.md", `Unrelated paragraph ${i} on supervisory authorities.`, axisVector(D, 5 + (i % 3), 0.3))),
    ]);
    const vectorIds = (await s.vectorSearch({ topK: 3, vector: q })).map((h) => h.id);
    expect(vectorIds).not.toContain("keyword-only");
    const hybrid = await s.hybridSearch({ topK: 3, vector: q, text: "erasure" });
    expect(hybrid[0].id).toBe("both");
    expect(new Set(hybrid.map((h) => h.id))).toEqual(new Set(["both", "vector-only", "keyword-only"]));
    expect(hybrid[0].score).toBeGreaterThan(hybrid[1].score);
    const filtered = await s.hybridSearch({ topK: 5, vector: q, text: "erasure", filter: { sourcePaths: ["n.md"] } });
    expect(filtered.every((h) => h.id.startsWith("noise_"))).toBe(true);
    expect(filtered.length).toBeGreaterThan(0);
  });

  it("deletes by id and by source path, and scans what is left", async () => {
    const s = await openStore();
    const batch = records(9, D, 3);
    await s.upsert(batch);
    await s.deleteByIds([batch[0].record.id, "never-existed"]);
    await s.deleteBySource("doc1.md");
    const seen: string[] = [];
    for await (const r of s.scan()) seen.push(r.sourcePath);
    expect(seen.sort()).toEqual(["doc0.md", "doc0.md", "doc2.md", "doc2.md", "doc2.md"]);
    expect(await s.count()).toBe(5);
  });

  it("keeps data, vectors and the full-text index across close and reopen", async () => {
    const uri = join(root, "persisted");
    const s = await openStore({ uri });
    await s.upsert([...records(20, D), doc("special", "p.md", "Pseudonymisation safeguards.", axisVector(D, 2))]);
    await s.flush();
    await s.close();
    const again = await openStore({ uri });
    expect(await again.count()).toBe(21);
    expect((await again.fullTextSearch({ topK: 1, text: "pseudonymisation" }))[0].id).toBe("special");
    expect((await again.vectorSearch({ topK: 1, vector: records(20, D)[7].vector }))[0].id).toBe(records(20, D)[7].record.id);
  });

  it("stamps its contents with the table version: unchanged by reads, flushes without writes and a reopen; changed by every write", async () => {
    const uri = join(root, "stamped");
    const s = await openStore({ uri });
    const empty = await s.stamp();
    expect(empty).toMatch(/^lancedb:hierdoc_chunks:v\d+$/);
    await s.upsert(records(10, D));
    await s.flush();
    const written = await s.stamp();
    expect(written).not.toBe(empty);
    await s.count();
    await s.vectorSearch({ topK: 3, vector: records(10, D)[2].vector });
    await s.fullTextSearch({ topK: 3, text: "paragraph" });
    await s.flush();
    expect(await s.stamp()).toBe(written);
    await s.close();
    const again = await openStore({ uri });
    expect(await again.stamp()).toBe(written);
    await again.deleteByIds([records(10, D)[0].record.id]);
    const deleted = await again.stamp();
    expect(deleted).not.toBe(written);
    await again.upsert([records(10, D)[1]]);
    expect(await again.stamp()).not.toBe(deleted);
    await again.deleteBySource("nothing-here.md");
    await again.close();
    await expectHierdocError(again.stamp(), "E_STORE", "stamp");
  });

  it("rejects wrong vector sizes before writing, and reopening with another embedder or size", async () => {
    const uri = join(root, "mismatch");
    const s = await openStore({ uri });
    await expectHierdocError(s.upsert([{ record: record("x_0", "x", "x"), vector: new Float32Array(3) }]), "E_DIMENSION_MISMATCH", "upsert");
    await expectHierdocError(s.hybridSearch({ topK: 1, vector: new Float32Array(3), text: "x" }), "E_DIMENSION_MISMATCH", "hybridSearch");
    expect(await s.count()).toBe(0);
    await expectHierdocError(new LanceDbStore({ uri }).open({ embedderId: "other", dimensions: D }), "E_EMBEDDER_MISMATCH", "open");
    await expectHierdocError(new LanceDbStore({ uri }).open({ ...OPEN, dimensions: 16 }), "E_DIMENSION_MISMATCH", "open");
  });

  it("reports a folder that cannot be opened as E_STORE_UNAVAILABLE naming adapter and operation", async () => {
    const file = join(root, "a-file");
    writeFileSync(file, "not a folder");
    const err = await expectHierdocError(new LanceDbStore({ uri: join(file, "db") }).open(OPEN), "E_STORE_UNAVAILABLE", "open");
    expect(err.message).toContain(file);
  });
});

(HAS_GDPR ? describe : describe.skip)(
  `GDPR smoke: "right to erasure" finds Article 17${HAS_GDPR ? "" : " (skipped: ../shared/corpora not present)"}`,
  () => {
    const DIMS = 256;
    let store: LanceDbStore;
    beforeAll(async () => {
      store = new LanceDbStore({ uri: join(root, "gdpr") });
      await store.open({ embedderId: "toy-hash-256", dimensions: DIMS });
      opened.push(store);
      await store.upsert(gdprArticles(DIMS));
    });

    it("indexes the 99 articles", async () => {
      expect(await store.count()).toBe(99);
    });

    it("ranks Article 17 first by LanceDB full text, and keeps it in the native hybrid top 3 with a toy vector leg", async () => {
      const sectionIds = async (hits: { id: string }[]): Promise<string[]> => (await store.get(hits.map((h) => h.id))).map((r) => r.sectionId);
      for (const text of ["right to erasure", "right to be forgotten"]) {
        expect((await sectionIds(await store.fullTextSearch({ topK: 5, text })))[0]).toBe("Article 17");
        expect((await sectionIds(await store.hybridSearch({ topK: 3, text, vector: hashEmbed(text, DIMS) })))).toContain("Article 17");
      }
    });

    it("stores each article's text unchanged (content equals the source slice)", async () => {
      const source = readFileSync(GDPR_MD, "utf8");
      const [art17] = await store.get(["gdpr.md_chunk_16"]);
      expect(art17.sectionId).toBe("Article 17");
      expect(art17.content).toBe(source.slice(art17.start, art17.end));
    });
  },
);
