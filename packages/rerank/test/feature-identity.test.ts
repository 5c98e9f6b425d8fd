import { describe, expect, it } from "@jest/globals";
import type { RerankCandidate } from "@hierdoc/core";
import { GDPR_MARKDOWN, bm25Rank, cosineSimilarity, gdprArticleRecords, gdprSkipNote, hasGdpr, lexicalHashVector } from "@hierdoc/core/testing";
import { FEATURE_NAMES, FeatureExtractor, StemVocabulary, stems, type FeatureRow } from "@hierdoc/rerank";
import { ReferenceFeatureExtractor } from "./reference-extractor.js";

/** GDPR articles as fused hybrid candidates: BM25 and hashed-vector cosine legs, reciprocal-rank fused, top 50. */
function gdprCandidates(): { articles: RerankCandidate[]; rank: (query: string) => RerankCandidate[] } {
  const records = gdprArticleRecords(GDPR_MARKDOWN, 128);
  const defined = ["personal data", "processing", "controller", "processor", "consent", "supervisory authority", "data subject", "third party"];
  const articles = records.map(({ record }, i): RerankCandidate => ({
    id: record.id,
    content: record.content,
    // Every third article has a context, every fifth none of the usual title: the optional texts are exercised.
    context: i % 3 === 0 ? `${record.sectionTitle} (Regulation (EU) 2016/679)` : "",
    // Every eighth article shares its predecessor's section id: section mates among the candidates.
    sectionId: i % 8 === 7 ? records[i - 1].record.sectionId : record.sectionId,
    sectionTitle: i % 5 === 4 ? "" : record.sectionTitle,
    parentChain: i % 7 === 6 ? [] : ["Regulation (EU) 2016/679", `Chapter ${1 + Math.floor(i / 10)}`],
    definitions: defined.filter((t) => record.content.toLowerCase().includes(t)).map((term) => ({ term })),
    chunkType: ["content", "requirement", "definition", "header"][i % 4],
    citedSections: [...record.content.matchAll(/Article (\d+)/g)].map((m) => `Article ${m[1]}`),
  }));
  const vectors = records.map((r) => r.vector);
  const rank = (query: string): RerankCandidate[] => {
    const qv = lexicalHashVector(query, 128);
    const keyword = bm25Rank(articles, query, (a) => a.content);
    const semantic = articles.map((a, i) => ({ a, score: cosineSimilarity(qv, vectors[i]) })).sort((x, y) => y.score - x.score);
    const fused = new Map<string, { c: RerankCandidate; score: number; kw: [number, number] | null; sem: [number, number] }>();
    semantic.forEach((s, i) => fused.set(s.a.id, { c: s.a, score: 1 / (60 + i + 1), kw: null, sem: [s.score, i + 1] }));
    keyword.forEach((k, i) => {
      const f = fused.get(k.item.id)!;
      f.score += 1 / (60 + i + 1);
      f.kw = [k.score, i + 1];
    });
    return [...fused.values()]
      .sort((x, y) => y.score - x.score)
      .slice(0, 50)
      .map((f, i) => ({
        ...f.c,
        fusedScore: f.score,
        fusedRank: i + 1,
        scores: { keyword: f.kw?.[0] ?? null, semantic: f.sem[0], exact: named(query, f.c) ? 1 : null },
        ranks: { keyword: f.kw?.[1] ?? null, semantic: f.sem[1], exact: named(query, f.c) ? 1 : null },
      }));
  };
  return { articles, rank };
}

/** Whether the query names the candidate's article ("Article 17"), as an exact-id hit would. */
const named = (query: string, c: RerankCandidate): boolean => new RegExp(`\\b${c.sectionId}\\b`, "i").test(query);

/** Queries touching every feature: phrases and repeats, numbers, section ids, defined terms, stopwords only, no match. */
const QUERIES = [
  "right to erasure of personal data",
  "When must the controller notify a personal data breach to the supervisory authority within 72 hours?",
  "Article 17 right to be forgotten",
  "processing of special categories of personal data Article 9(2)",
  "consent consent of the data subject withdrawn consent",
  "fines up to 20 000 000 EUR or 4 % of the total worldwide annual turnover",
  "data protection officer tasks",
  "the of and to",
  "transfers to third countries adequacy decision",
  "zebra quantum flux",
  "Chapter 3 of the Regulation: rights of the data subject",
  "records of processing activities processor controller representative",
  "",
];

function expectIdentical(actual: FeatureRow[], expected: FeatureRow[], label: string): void {
  expect(actual.length).toBe(expected.length);
  for (const [i, row] of expected.entries()) {
    for (const name of Object.keys(row) as Array<keyof FeatureRow>) {
      // Object.is: bit-identical doubles (+0 and -0 differ), not merely close.
      if (!Object.is(actual[i][name], row[name])) throw new Error(`${label}: candidate ${i} ${name} = ${actual[i][name]}, reference ${row[name]}`);
    }
  }
}

describe(`FeatureExtractor is bit-identical to the string-based reference on real GDPR candidates${gdprSkipNote}`, () => {
  const run = hasGdpr ? it : it.skip;

  run("computes every feature the reference does, for every query, cold and warm, on one extractor", () => {
    const { rank } = gdprCandidates();
    const fast = new FeatureExtractor();
    let compared = 0;
    const seen = new Set<string>();
    for (const pass of ["cold", "warm"]) {
      for (const query of QUERIES) {
        const cands = rank(query);
        const expected = new ReferenceFeatureExtractor().extract(query, cands);
        expect(Object.keys(expected[0]).sort()).toEqual([...FEATURE_NAMES].sort());
        expectIdentical(fast.extract(query, cands), expected, `${pass} "${query}"`);
        compared += cands.length * FEATURE_NAMES.length;
        for (const row of expected) for (const name of FEATURE_NAMES) if (row[name] !== 0) seen.add(name);
      }
    }
    // The sample exercises every feature the query and the texts drive (none of them stuck at 0).
    expect(FEATURE_NAMES.filter((name) => !seen.has(name))).toEqual([]);
    expect(compared).toBeGreaterThan(2 * QUERIES.length * 40 * FEATURE_NAMES.length);
  });

  run("re-analyses a cached chunk whose texts changed (same id, new content, title, chain, context, terms)", () => {
    const { rank } = gdprCandidates();
    const fast = new FeatureExtractor();
    const query = "controller obligations for personal data breach notification Article 33";
    const before = rank(query);
    fast.extract(query, before);
    const edited = before.map((c, i) =>
      i % 2 === 0
        ? { ...c, content: `${c.content}\nThe controller shall notify the breach.`, sectionTitle: `${c.sectionTitle} breach`, parentChain: [...c.parentChain, "notification"],
            context: "breach notification", definitions: [...(c.definitions ?? []), { term: "personal data breach" }] }
        : c,
    );
    expectIdentical(fast.extract(query, edited), new ReferenceFeatureExtractor().extract(query, edited), "edited");
  });
});

describe("FeatureExtractor is bit-identical to the reference on edge cases", () => {
  const cand = (id: string, content: string, extra: Partial<RerankCandidate> = {}): RerankCandidate => ({
    id, content, context: "", sectionId: id, sectionTitle: "", parentChain: [], ...extra,
  });
  const sets: Array<[string, RerankCandidate[]]> = [
    ["Straße naïve café über Ärzte", [cand("a", "Die Straße und das Café: naïve Ärzte über alles"), cand("b", "İstanbul ﬁnance ΣΊΣΥΦΟΣ straße"), cand("c", "")]],
    ["annual annual report report annual", [cand("a", "annual report annual report annual"), cand("b", "report annual"), cand("c", "annual", { fusedScore: 2 })]],
    ["Rule 2.14 and § 478.11", [cand("Rule 2.14", "see rule 2.14 and 478.11"), cand("x", "Section 478.11 applies", { sectionId: "§ 478.11" }), cand("y", "nothing")]],
    ["no candidates match", [cand("a", "alpha beta"), cand("b", "gamma")]],
    ["one", [cand("a", "one")]],
    ["math 𝐀𝐁𝐂 letters", [cand("a", "Math letters 𝐀𝐁𝐂 and emoji 😀"), cand("b", "math letters")]],
    // Past 128 distinct query stems the bigram table is a Map.
    [
      Array.from({ length: 300 }, (_, i) => `term${i}`).join(" ") + " term5 term6 term7",
      [cand("a", "term5 term6 term7 other term100 term101 term299 term0"), cand("b", "term7 term6 term5 term200"), cand("c", "unrelated")],
    ],
  ];

  it("for unicode, repeated stems, section ids, single candidates and empty texts", () => {
    const fast = new FeatureExtractor();
    for (const [query, cands] of sets) expectIdentical(fast.extract(query, cands), new ReferenceFeatureExtractor().extract(query, cands), query);
    // The same candidate ids with other texts, on the warm extractor: the cache must notice.
    const swapped = sets[1][1].map((c, i) => ({ ...c, content: sets[0][1][i].content }));
    expectIdentical(fast.extract(sets[0][0], swapped), new ReferenceFeatureExtractor().extract(sets[0][0], swapped), "swapped");
  });
});

describe("StemVocabulary", () => {
  const texts = [
    "The Controller shall, taking into account the nature of the processing — Article 28(3)(a)!",
    "Die Straße und das Café: naïve Ärzte über alles; İstanbul ﬁnance ΣΊΣΥΦΟΣ",
    "Math letters 𝐀𝐁𝐂 and emoji 😀 between words, x y z 9.3 a1 b2",
    "",
    "   ...   ",
    "don’t re-use e-mail addresses’ owners’ data",
  ];

  it("gives the ids of stems() in order, in place and through the regular-expression split, warm and cold", () => {
    const corpus = hasGdpr ? gdprArticleRecords(GDPR_MARKDOWN, 8).map((r) => r.record.content) : [];
    const v = new StemVocabulary();
    for (const pass of [1, 2]) {
      for (const t of [...texts, ...corpus]) expect([pass, Array.from(v.idsOf(t), (id) => v.stemOf(id))]).toEqual([pass, stems(t)]);
    }
    expect(v.size).toBeGreaterThan(hasGdpr ? 1000 : 20);
  });

  it("keeps ids stable when its word memo starts over", () => {
    const v = new StemVocabulary({ wordMemoLimit: 50 });
    const many = Array.from({ length: 400 }, (_, i) => `word${i} term${i % 7} annual`).join(" ");
    const first = v.idsOf(many);
    const again = v.idsOf(many);
    expect(again).toEqual(first);
    expect(Array.from(first, (id) => v.stemOf(id))).toEqual(stems(many));
    expect(v.idOf("annual")).toBe(v.idsOf("Annual")[0]);
  });
});
