import { describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "@hierdoc/core/testing";
import { Bm25Index, type Bm25Variant } from "@hierdoc/keyword-search";


/**
 * A Zipf-like corpus over more documents than one pruning window (4,096), where every fifth document repeats an
 * earlier one's text: exact score ties across windows, which the pruned search must order by id as the
 * exhaustive one does.
 */
function corpus(n: number, seed: number, prefix: string): Array<{ id: string; text: string; sourcePath: string }> {
  const r = seededRandom(seed);
  const word = () => `w${Math.floor(Math.pow(r(), 3) * 500)}`;
  const docs: Array<{ id: string; text: string; sourcePath: string }> = [];
  for (let i = 0; i < n; i++) {
    const text =
      i > 50 && i % 5 === 0 ? docs[Math.floor(r() * i)].text : Array.from({ length: 3 + Math.floor(r() * 40) }, word).join(" ");
    // Ids not in slot order, so id tie-breaks differ from slot order.
    docs.push({ id: `${prefix}${((i * 7919) % n).toString(36)}-${i}`, text, sourcePath: `s${i % 7}` });
  }
  return docs;
}

function queries(seed: number, count: number): string[] {
  const r = seededRandom(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + Math.floor(r() * 18) }, () => `w${Math.floor(Math.pow(r(), 1.5) * 520)}`).join(" "),
  );
}

/** Every query at several depths, with and without an id filter: pruned === exhaustive, ids and scores exactly. */
function expectSameAsExhaustive(index: Bm25Index, qs: string[], allow: Set<string>): number {
  let compared = 0;
  for (const q of qs) {
    for (const topK of [1, 10, 150, 700]) {
      expect([q, topK, index.searchSync(q, { topK })]).toEqual([q, topK, index.searchExhaustive(q, { topK })]);
      compared++;
    }
    expect([q, index.searchSync(q, { topK: 50, allowIds: allow })]).toEqual([q, index.searchExhaustive(q, { topK: 50, allowIds: allow })]);
  }
  return compared;
}

describe.each<Bm25Variant>(["lucene", "okapi"])("block-max MaxScore top-k equals exhaustive scoring (%s)", (variant) => {
  const analyzer = { kind: "standard", stem: false, stopWords: false } as const;

  it("on a saved and reloaded segment (block bounds from the file), then with a delta and removals over it", async () => {
    const docs = corpus(9000, 11, "d");
    const built = new Bm25Index({ variant, analyzer });
    built.upsertSync(docs);
    const dir = mkdtempSync(join(tmpdir(), "bm25-blockmax-"));
    try {
      await built.save(dir);
      const index = (await Bm25Index.load(dir))!;
      expect(index.loadedFormat).toBe(4);
      const r = seededRandom(5);
      const allow = new Set(docs.filter(() => r() < 0.2).map((d) => d.id));
      const qs = queries(variant === "okapi" ? 21 : 22, 30);
      expect(expectSameAsExhaustive(index, qs, allow)).toBe(120);
      // A delta over the segment (terms whose postings grew have no block bounds), removals and replacements.
      index.upsertSync(corpus(1500, 12, "x"));
      index.removeSync(docs.filter((_, i) => i % 13 === 0).map((d) => d.id));
      index.upsertSync(docs.slice(100, 160).map((d) => ({ ...d, text: `${d.text} w3 w3 w499` })));
      expect(expectSameAsExhaustive(index, qs, allow)).toBe(120);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("agrees with the independent per-document scores (scoreDocuments) to 1e-9", () => {
    const docs = corpus(5000, 3, "e");
    const index = new Bm25Index({ variant, analyzer });
    index.upsertSync(docs);
    const ids = docs.map((d) => d.id);
    for (const q of queries(4, 15)) {
      const scores = index.scoreDocuments(q, ids);
      const got = index.searchSync(q, { topK: 25 });
      const want = ids
        .map((id, i) => ({ id, score: scores[i] }))
        .filter((x) => x.score !== 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, 25);
      expect(got.length).toBe(want.length);
      // Same score at every rank (ids may swap only between exactly tied copies).
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].score, 9));
      for (const h of got) expect(h.score).toBeCloseTo(scores[ids.indexOf(h.id)], 9);
    }
  });

  it("prunes: a long query at depth 10 reads fewer postings than its terms hold", () => {
    const docs = corpus(9000, 17, "p");
    const index = new Bm25Index({ variant, analyzer });
    index.upsertSync(docs);
    // Common words (w0…w9) plus a few rare ones: the common terms become non-essential once the top 10 fill.
    const q = "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w300 w350 w420";
    let total = 0;
    for (const t of q.split(" ")) total += docs.filter((d) => d.text.split(" ").includes(t)).length;
    expect(index.searchSync(q, { topK: 10 })).toEqual(index.searchExhaustive(q, { topK: 10 }));
    const searched = index.searchSync(q, { topK: 10 });
    expect(searched).toHaveLength(10);
    const stats = index.lastSearchStats;
    expect(stats.windows).toBe(3);
    expect(stats.postings).toBeGreaterThan(0);
    // Without pruning it reads every one of them.
    expect(stats.postings).toBeLessThan(total * 0.7);
  });
});
