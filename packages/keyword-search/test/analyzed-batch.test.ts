import { afterAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isHierdocError } from "@hierdoc/core";
import { BM25_FILE_NAME, Bm25Index, acceptsAnalyzed, analyzeBatch, createAnalyzer, type Bm25Variant } from "@hierdoc/keyword-search";

const here = dirname(fileURLToPath(import.meta.url));
const corpus = resolve(here, "../../../examples/sample-corpus");
const tmp = mkdtempSync(join(tmpdir(), "bm25-analyzed-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Doc = { id: string; text: string; sourcePath: string };

/** Every paragraph of the sample corpus, grouped by file (what an ingest upserts per file). */
function files(): Doc[][] {
  return readdirSync(corpus)
    .sort()
    .map((f) => {
      const paras = readFileSync(join(corpus, f), "utf8").split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
      return paras.map((text, i) => ({ id: `${f}#${i}`, text, sourcePath: f }));
    });
}

/** Runs the same history through `add` (upsert of texts, or of batches analysed by a separate analyzer as a worker would). */
async function history(variant: Bm25Variant, add: (index: Bm25Index, docs: Doc[]) => Promise<void>): Promise<Bm25Index> {
  const index = new Bm25Index({ variant });
  const byFile = files();
  for (const docs of byFile) await add(index, docs);
  // Replaced documents (same ids, new texts with new terms), removals, then enough churn to compact.
  const first = byFile[0]!;
  await add(index, first.map((d) => ({ ...d, text: `${d.text} Zyxwv reappointment 7.3.1(2)` })));
  await index.remove([byFile[1]![0]!.id]);
  for (let round = 0; round < 12; round++) {
    await add(index, byFile.flat().slice(0, 40).map((d) => ({ ...d, text: `${d.text} round${round} camelCaseTerm${round}` })));
  }
  return index;
}

const viaTexts = (index: Bm25Index, docs: Doc[]) => index.upsert(docs);
const viaBatches = (index: Bm25Index, docs: Doc[]) => {
  // A fresh analyzer from the index's options, as an ingest worker builds it (no shared cache).
  const batch = analyzeBatch(createAnalyzer(index.analyzerOptions), docs.map((d) => d.text));
  return index.upsertAnalyzed(docs.map(({ id, sourcePath }) => ({ id, sourcePath })), batch);
};

async function savedBytes(index: Bm25Index, name: string): Promise<Buffer> {
  const dir = join(tmp, name);
  await index.save(dir, { fingerprint: "f" });
  return readFileSync(join(dir, BM25_FILE_NAME));
}

describe.each(["lucene", "okapi"] as const)("BM25 upsert of pre-analysed documents (%s)", (variant) => {
  it("leaves the index exactly as upserting the texts: same bm25.bin bytes, same scores", async () => {
    const a = await history(variant, viaTexts);
    const b = await history(variant, viaBatches);
    expect(b.documentCount).toBe(a.documentCount);
    expect(a.documentCount).toBeGreaterThan(20);
    const queries = ["pump maintenance records", "reappointment 7.3.1(2)", "camelCaseTerm11 round3", "operator shall notify"];
    for (const q of queries) {
      expect(b.searchSync(q, { topK: 20 })).toEqual(a.searchSync(q, { topK: 20 }));
      expect(b.scoreDocuments(q)).toEqual(a.scoreDocuments(q));
    }
    expect(a.searchSync("camelCaseTerm11", { topK: 5 }).length).toBeGreaterThan(0);
    const bytesA = await savedBytes(a, `${variant}-texts`);
    const bytesB = await savedBytes(b, `${variant}-batches`);
    expect(bytesB.equals(bytesA)).toBe(true);
  });
});

describe("analyzeBatch and the analysed upsert's checks", () => {
  it("counts each document's distinct terms once with their frequencies, in order of first occurrence", () => {
    const batch = analyzeBatch(createAnalyzer({ kind: "rank-bm25" }), ["b a b c", "c d", ""]);
    expect(batch.terms).toEqual(["b", "a", "c", "d"]);
    expect([...batch.docStart]).toEqual([0, 3, 5, 5]);
    expect([...batch.docTerms]).toEqual([0, 1, 2, 2, 3]);
    expect([...batch.docTfs]).toEqual([2, 1, 1, 1, 1]);
    expect([...batch.lengths]).toEqual([4, 2, 0]);
  });

  it("refuses a batch from another analyzer, or for another number of documents, and says why", async () => {
    const index = new Bm25Index({ variant: "lucene" });
    expect(acceptsAnalyzed(index)).toBe(true);
    const other = analyzeBatch(createAnalyzer({ kind: "rank-bm25" }), ["pumps"]);
    const err = await index.upsertAnalyzed([{ id: "a", sourcePath: "s" }], other).catch((e: unknown) => e);
    expect(isHierdocError(err, "E_INVALID_ARGUMENT") && (err as Error).message).toMatch(/rank-bm25.*standard/);
    const mine = analyzeBatch(index.analyzer, ["pumps", "valves"]);
    expect(() => index.upsertAnalyzedSync([{ id: "a", sourcePath: "s" }], mine)).toThrow(/2 documents does not describe the 1/);
    expect(index.documentCount).toBe(0);
    expect(acceptsAnalyzed({ upsert: async () => {} })).toBe(false);
  });
});
