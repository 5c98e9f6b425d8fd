import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Bm25Index, RankBm25Analyzer } from "@hierdoc/keyword-search";

const here = dirname(fileURLToPath(import.meta.url));
const referencePath = resolve(here, "../../../../shared/reference/bm25_okapi_gdpr.json");
const present = existsSync(referencePath);

interface Reference {
  params: { k1: number; b: number; epsilon: number };
  corpus: Array<{ id: string; text: string }>;
  queries: Array<{ query: string; tokens: string[]; top: Array<[string, number]>; all: number[] }>;
  edge_cases: Array<{ name: string; corpus: string[]; queries: Array<{ query: string; all: number[] }> }>;
}

const describeRef = present ? describe : describe.skip;
const title = present
  ? "BM25Okapi parity with rank_bm25 (reference/bm25_okapi_gdpr.json)"
  : "BM25Okapi parity with rank_bm25 (skipped: ../shared/reference/bm25_okapi_gdpr.json not present)";

describeRef(title, () => {
  const ref: Reference = present ? JSON.parse(readFileSync(referencePath, "utf8")) : ({} as Reference);
  const TOL = 1e-9;

  async function build(corpus: Array<{ id: string; text: string }>): Promise<Bm25Index> {
    const index = new Bm25Index({ variant: "okapi", ...ref.params });
    await index.upsert(corpus.map((d) => ({ id: d.id, text: d.text, sourcePath: "gdpr" })));
    return index;
  }

  it("tokenises like re.findall(r'[a-zA-Z0-9]+', text.lower())", () => {
    const analyzer = new RankBm25Analyzer();
    for (const q of ref.queries) expect(analyzer.analyze(q.query).tokens).toEqual(q.tokens);
  });

  it("reproduces every document score of all 40 GDPR queries to 1e-9", async () => {
    const index = await build(ref.corpus);
    const ids = ref.corpus.map((d) => d.id);
    let compared = 0;
    for (const q of ref.queries) {
      const scores = index.scoreDocuments(q.query, ids);
      expect(scores).toHaveLength(q.all.length);
      for (let i = 0; i < scores.length; i++) {
        if (Math.abs(scores[i] - q.all[i]) > TOL) {
          throw new Error(`query ${JSON.stringify(q.query)} doc ${ids[i]}: got ${scores[i]}, expected ${q.all[i]}`);
        }
        compared++;
      }
    }
    expect(compared).toBe(40 * 99);
  });

  it("returns the reference top-20 order and scores from search()", async () => {
    const index = await build(ref.corpus);
    for (const q of ref.queries) {
      const hits = await index.search(q.query, { topK: 20 });
      const positive = q.top.filter(([, s]) => s > 0);
      const got = hits.filter((h) => h.score > 0).slice(0, positive.length);
      expect(got.map((h) => h.id)).toEqual(positive.map(([id]) => id));
      got.forEach((h, i) => expect(Math.abs(h.score - positive[i][1])).toBeLessThan(TOL));
    }
  });

  it("reproduces the edge-case corpora (half-frequency zero IDF, two documents, all-negative IDFs)", async () => {
    expect(ref.edge_cases.map((e) => e.name).sort()).toEqual(["all_common", "half", "two_docs"]);
    for (const edge of ref.edge_cases) {
      const index = await build(edge.corpus.map((text, i) => ({ id: `${edge.name}-${i}`, text })));
      for (const q of edge.queries) {
        const scores = index.scoreDocuments(q.query, edge.corpus.map((_, i) => `${edge.name}-${i}`));
        scores.forEach((s, i) => {
          if (Math.abs(s - q.all[i]) > TOL) throw new Error(`${edge.name} ${JSON.stringify(q.query)} doc ${i}: got ${s}, expected ${q.all[i]}`);
        });
      }
    }
  });

  it("keeps parity after incremental removes and re-adds (same final corpus, same scores)", async () => {
    const index = await build(ref.corpus);
    const victims = ref.corpus.filter((_, i) => i % 3 === 0);
    await index.remove(victims.map((d) => d.id));
    expect(await index.size()).toBe(99 - victims.length);
    await index.upsert(victims.map((d) => ({ id: d.id, text: d.text, sourcePath: "gdpr" })));
    const ids = ref.corpus.map((d) => d.id);
    for (const q of ref.queries.slice(0, 10)) {
      const scores = index.scoreDocuments(q.query, ids);
      scores.forEach((s, i) => expect(Math.abs(s - q.all[i])).toBeLessThan(TOL));
    }
  });
});
