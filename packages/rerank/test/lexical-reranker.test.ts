import { describe, expect, it } from "@jest/globals";
import type { RerankCandidate } from "@hierdoc/core";
import { LexicalReranker, minimalWindow, sectionIdsIn, stems } from "@hierdoc/rerank";

function cand(id: string, content: string, extra: Partial<RerankCandidate> = {}): RerankCandidate {
  return { id, content, context: "", sectionId: "", sectionTitle: "", parentChain: [], ...extra };
}

/** A reranker with one signal on and the fused score off, so each test isolates one signal. */
const ZERO = { fused: 0, rank: 0, coverage: 0, proximity: 0, phrase: 0, title: 0, chain: 0, definitions: 0, sectionId: 0 };
const only = (signal: string) => new LexicalReranker({ weights: { ...ZERO, [signal]: 1 } });

describe("text helpers", () => {
  it("finds the smallest window covering the query terms present", () => {
    expect(minimalWindow(["a", "x", "b", "y", "y", "a", "b"], new Set(["a", "b"]))).toEqual({ covered: 2, width: 2 });
    expect(minimalWindow(["a", "x", "x", "b"], new Set(["a", "b", "c"]))).toEqual({ covered: 2, width: 4 });
    expect(minimalWindow(["x"], new Set(["a"]))).toEqual({ covered: 0, width: 0 });
  });

  it("stems and drops stopwords", () => {
    expect(stems("The Requirements of the Licensed Persons")).toEqual(["requir", "licens", "person"]);
  });

  it("reads section ids named in a query", () => {
    expect(sectionIdsIn("What does Rule 2.14 say, and Article 4(11)?")).toEqual(["2.14", "4(11)"]);
    expect(sectionIdsIn("capital requirements")).toEqual([]);
  });
});

describe("LexicalReranker signals", () => {
  const query = "annual audit report deadline";

  it("proximity: query terms close together beat the same terms spread out", async () => {
    const spread = cand("spread", "The annual fee is due. Many pages later an audit happens. Then a report is filed. The deadline is noted at the end.");
    const close = cand("close", "Each firm must meet the annual audit report deadline set by the Regulator.");
    const out = await only("proximity").rerank(query, [spread, close], 2);
    expect(out.map((s) => s.id)).toEqual(["close", "spread"]);
    expect(Number(out[0].reasons?.proximity)).toBeGreaterThan(Number(out[1].reasons?.proximity));
  });

  it("phrase: a chunk holding the query's bigrams and trigrams wins over one with the words reordered", async () => {
    const reordered = cand("reordered", "deadline report audit annual");
    const phrase = cand("phrase", "the audit report deadline is annual");
    const out = await only("phrase").rerank(query, [reordered, phrase], 2);
    expect(out[0].id).toBe("phrase");
    expect(out[1].reasons?.phrase).toBe(0);
  });

  it("title and parent chain: matches in the section title and chain count", async () => {
    const a = cand("a", "Firms shall comply.", { sectionTitle: "Audit report deadline" });
    const b = cand("b", "Firms shall comply.", { sectionTitle: "Fees" });
    expect((await only("title").rerank(query, [b, a], 1))[0].id).toBe("a");
    const c = cand("c", "Firms shall comply.", { parentChain: ["Chapter 7 Annual audit", "7.2 Report"] });
    expect((await only("chain").rerank(query, [b, c], 1))[0].id).toBe("c");
  });

  it("definitions: a chunk using a defined term the query names beats one using other defined terms", async () => {
    const q = "obligations of a Relevant Person when onboarding";
    const uses = cand("uses", "The firm must verify.", { definitions: [{ term: "Relevant Person" }] });
    const other = cand("other", "The firm must verify.", { definitions: [{ term: "Client" }] });
    const out = await only("definitions").rerank(q, [other, uses], 2);
    expect(out.map((s) => [s.id, s.reasons?.definitions])).toEqual([
      ["uses", 1],
      ["other", 0],
    ]);
  });

  it("section id: the chunk of the named section beats one that mentions it, which beats neither", async () => {
    const q = "what does Rule 2.14 require";
    const own = cand("own", "text", { sectionId: "2.14" });
    const mentions = cand("mentions", "as required under Rule 2.14 above");
    const neither = cand("neither", "unrelated text");
    const out = await only("sectionId").rerank(q, [neither, mentions, own], 3);
    expect(out.map((s) => s.id)).toEqual(["own", "mentions", "neither"]);
  });

  it("blends the fused score: with only the fused weight the fused order is kept, and topN cuts", async () => {
    const cs = [cand("x", "annual audit report deadline", { fusedScore: 0.2 }), cand("y", "nothing", { fusedScore: 0.9 }), cand("z", "nothing", { fusedScore: 0.5 })];
    const fusedOnly = new LexicalReranker({ weights: { ...ZERO, fused: 1 } });
    expect((await fusedOnly.rerank(query, cs, 2)).map((s) => s.id)).toEqual(["y", "z"]);
    const lexical = new LexicalReranker({ weights: { ...ZERO, fused: 0.1, phrase: 1 } });
    expect((await lexical.rerank(query, cs, 1))[0].id).toBe("x");
  });

  it("default weights: a phrase match in a lower fused candidate lifts it above a fused-only winner", async () => {
    const cs = [
      cand("top", "fees payable annually by every firm", { fusedScore: 1 }),
      cand("answer", "each firm must file its annual audit report before the deadline", { fusedScore: 0.8 }),
      cand("tail", "nothing relevant", { fusedScore: 0 }),
    ];
    const out = await new LexicalReranker().rerank(query, cs, 3);
    expect(out.map((s) => s.id)).toEqual(["answer", "top", "tail"]);
  });

  it("rejects a bad topN with E_INVALID_ARGUMENT", async () => {
    await expect(new LexicalReranker().rerank("q", [cand("a", "b")], 0)).rejects.toMatchObject({ code: "E_INVALID_ARGUMENT" });
  });
});
