import { seededRandom } from "@hierdoc/core/testing";
import { Bm25Index, type Bm25Variant } from "@hierdoc/keyword-search";


function zipfCorpus(n: number, seed: number): Array<{ id: string; text: string; sourcePath: string }> {
  const r = seededRandom(seed);
  const word = () => `w${Math.floor(Math.pow(r(), 3) * 400)}`;
  return Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    text: Array.from({ length: 5 + Math.floor(r() * 60) }, word).join(" "),
    sourcePath: `s${i % 5}`,
  }));
}

/** The top k by exhaustive scoring: score desc, then id. */
function bruteTop(index: Bm25Index, ids: string[], query: string, k: number, allow?: Set<string>) {
  const scores = index.scoreDocuments(query, ids);
  const matched = new Set(index.scoreDocuments(query, ids).map((s, i) => (s !== 0 ? ids[i] : "")));
  return ids
    .map((id, i) => ({ id, score: scores[i], i }))
    .filter((x) => matched.has(x.id) && (!allow || allow.has(x.id)))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, k)
    .map(({ id, score }) => ({ id, score }));
}

describe.each<Bm25Variant>(["lucene", "okapi"])("MaxScore-pruned top-k equals exhaustive scoring (%s)", (variant) => {
  it("on a Zipf corpus, with removals and an id filter", async () => {
    const docs = zipfCorpus(3000, 7);
    const index = new Bm25Index({ variant, analyzer: { kind: "standard", stem: false, stopWords: false } });
    await index.upsert(docs);
    await index.remove(docs.filter((_, i) => i % 11 === 0).map((d) => d.id));
    const ids = docs.filter((_, i) => i % 11 !== 0).map((d) => d.id);
    const r = seededRandom(99);
    const allow = new Set(ids.filter(() => r() < 0.3));
    let compared = 0;
    for (let q = 0; q < 60; q++) {
      const query = Array.from({ length: 2 + Math.floor(r() * 12) }, () => `w${Math.floor(Math.pow(r(), 2) * 420)}`).join(" ");
      for (const k of [1, 10]) {
        const got = await index.search(query, { topK: k });
        const want = bruteTop(index, ids, query, k);
        expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
        got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].score, 9));
        compared++;
      }
      const filtered = await index.search(query, { topK: 10, allowIds: allow });
      expect(filtered.map((h) => h.id)).toEqual(bruteTop(index, ids, query, 10, allow).map((h) => h.id));
    }
    expect(compared).toBe(120);
  });
});
