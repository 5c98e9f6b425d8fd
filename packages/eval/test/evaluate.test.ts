import { createProjector, evaluateRun, parseQrels, toScorerJson, type Qrels, type RunResult } from "@hierdoc/eval";

const A1 = "The operator must keep records of every client transaction for six years.";
const A2 = "Records must be made available to the Regulator on request without delay.";
const A3 = "Application";
const A4 = "A person must not carry on a regulated activity in the ADGM unless authorised or exempt.";
const A5 =
  "Where a Relevant Person outsources a function, it remains responsible for compliance with these Rules and must ensure that the service provider has adequate resources, systems and controls to perform the function.";
const B1 = "The Regulator may impose a financial penalty on any person who contravenes a rule of this rulebook.";

function qrels(queries: { id: string; gold: { doc: string; passage: string }[] }[], extra: Partial<Qrels> = {}): Qrels {
  return parseQrels({
    documents: [
      { id: "A", aliases: ["alpha_doc"] },
      { id: "B", aliases: ["beta"] },
    ],
    passages: [
      { doc: "A", id: "a1", text: A1 },
      { doc: "A", id: "a2", text: A2 },
      { doc: "A", id: "a3", text: A3 },
      { doc: "A", id: "a4", text: A4 },
      { doc: "A", id: "a5", text: A5 },
      { doc: "B", id: "b1", text: B1 },
    ],
    queries: queries.map((q) => ({ ...q, query: `question ${q.id}` })),
    ...extra,
  });
}

const inA = (content: string): RunResult => ({ content, source_path: "/idx/alpha_doc.txt" });
const inB = (content: string): RunResult => ({ content, source_path: "beta.md" });
const noise = inB("Unrelated wording about fees and forms that no passage contains at all, at some length.");

describe("evaluateRun: passage projection", () => {
  it("a chunk containing two gold passages finds both, in document order", () => {
    const q = qrels([{ id: "q1", gold: [{ doc: "A", passage: "a2" }, { doc: "A", passage: "a1" }] }]);
    const r = evaluateRun(q, [{ id: "q1", results: [inA(`1.1 ${A1}\n1.2  ${A2.toUpperCase()}`)] }]);
    expect(r.perQuery[0].ranked).toEqual(["A#a1", "A#a2"]);
    expect(r.metrics).toMatchObject({ recall: 1, map: 1, mrr: 1, ndcg: 1, chunkRecall: 1, precision: 0.2 });
  });

  it("partial: a non-gold passage takes rank 1, gold at rank 2 of 2", () => {
    const q = qrels([{ id: "q2", gold: [{ doc: "A", passage: "a4" }, { doc: "B", passage: "b1" }] }]);
    const r = evaluateRun(q, [{ id: "q2", results: [noise, inA(A1), inB(B1)] }]);
    const m = r.metrics;
    expect(r.perQuery[0].ranked).toEqual(["A#a1", "B#b1"]);
    expect(m.recall).toBe(0.5);
    expect(m.map).toBeCloseTo(0.25, 12);
    expect(m.mrr).toBe(0.5);
    expect(m.ndcg).toBeCloseTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3)), 12);
    expect(r.perQuery[0]).toMatchObject({ found: ["B#b1"], missed: ["A#a4"], firstHitRank: 2 });
    expect(r.perQuery[0].chunks.map((c) => c.gold)).toEqual([0, 0, 1]);
  });

  it("the passage budget: k passages, not k chunks", () => {
    const q = qrels([{ id: "q3", gold: [{ doc: "A", passage: "a4" }] }]);
    const run = [{ id: "q3", results: [inA(`${A1} ${A2}`), inA(A4)] }];
    const at2 = evaluateRun(q, run, { k: 2 }).metrics;
    expect(at2.recall).toBe(0);
    expect(at2.chunkRecall).toBe(1);
    const at3 = evaluateRun(q, run, { k: 3 }).metrics;
    expect(at3.recall).toBe(1);
    expect(at3.mrr).toBeCloseTo(1 / 3, 12);
  });

  it("results past rank k still fill the budget (as the reference scorer does)", () => {
    const q = qrels([{ id: "q4", gold: [{ doc: "A", passage: "a4" }] }]);
    const m = evaluateRun(q, [{ id: "q4", results: [inA(A1), noise, inA(A4)] }], { k: 2 }).metrics;
    expect(m.recall).toBe(1);
    expect(m.mrr).toBe(0.5);
    expect(m.chunkRecall).toBe(0);
  });

  it("duplicate chunks count once", () => {
    const q = qrels([{ id: "q5", gold: [{ doc: "A", passage: "a2" }] }]);
    const r = evaluateRun(q, [{ id: "q5", results: [inA(A1), inA(A1), inA(A1), inA(A2)] }], { k: 2 });
    expect(r.perQuery[0].ranked).toEqual(["A#a1", "A#a2"]);
    expect(r.metrics.mrr).toBe(0.5);
  });

  it("a chunk inside a passage covers it only from 80 characters; short passages are never covered", () => {
    const q = qrels([{ id: "q6", gold: [{ doc: "A", passage: "a5" }, { doc: "A", passage: "a3" }] }]);
    const long = A5.slice(20, 120);
    const short = A5.slice(20, 90);
    expect(evaluateRun(q, [{ id: "q6", results: [inA(long)] }]).metrics.recall).toBe(0.5);
    expect(evaluateRun(q, [{ id: "q6", results: [inA(short)] }]).metrics.recall).toBe(0);
    expect(evaluateRun(q, [{ id: "q6", results: [inA(`Application ${A3} application`)] }]).perQuery[0].ranked).toEqual([]);
  });

  it("a passage belongs to its document: the same text under another document does not count", () => {
    const q = qrels([{ id: "q7", gold: [{ doc: "A", passage: "a1" }] }]);
    expect(evaluateRun(q, [{ id: "q7", results: [inB(A1)] }]).metrics.recall).toBe(0);
    const renamed = { content: A1, source_path: "/out/ALPHA_DOC.converted.md" };
    expect(evaluateRun(q, [{ id: "q7", results: [renamed] }]).metrics.recall).toBe(1);
    expect(evaluateRun(q, [{ id: "q7", results: [{ content: A1, source_path: "/out/gamma.txt" }] }]).metrics.recall).toBe(0);
  });

  it("missing queries and null results score 0 and count in the average; words count answered queries", () => {
    const q = qrels([
      { id: "q1", gold: [{ doc: "A", passage: "a1" }] },
      { id: "q2", gold: [{ doc: "A", passage: "a1" }] },
      { id: "q3", gold: [{ doc: "A", passage: "a1" }] },
    ]);
    const r = evaluateRun(q, new Map([["q1", [inA(A1)]], ["q2", null]]));
    expect(r.metrics).toMatchObject({ queries: 3, missing: 2, recall: 1 / 3, wordsPerQuery: A1.split(" ").length });
    expect(r.perQuery.map((p) => p.missing)).toEqual([false, true, true]);
    expect(toScorerJson(r.metrics)).toEqual({
      queries: 3, missing: 2, k: 10, "recall@10": 0.3333, "map@10": 0.3333, "mrr@10": 0.3333, "chunk_recall@10": 0.3333,
      "words_per_query@10": 12,
    });
  });

  it("a later run entry for the same query id wins", () => {
    const q = qrels([{ id: "q1", gold: [{ doc: "A", passage: "a1" }] }]);
    expect(evaluateRun(q, [{ id: "q1", results: [inA(A1)] }, { id: "q1", results: [] }]).metrics.recall).toBe(0);
  });

  it("a reused projector gives the same report", () => {
    const q = qrels([{ id: "q2", gold: [{ doc: "A", passage: "a4" }, { doc: "B", passage: "b1" }] }]);
    const run = [{ id: "q2", results: [noise, inA(A1), inB(B1)] }];
    const projector = createProjector(q);
    expect(evaluateRun(q, run, { projector })).toEqual(evaluateRun(q, run));
    expect(projector.docOf("x/beta.txt")).toBe("B");
    expect(projector.docOf("")).toBe("A");
  });

  it("rejects k < 1", () => {
    expect(() => evaluateRun(qrels([]), [], { k: 0 })).toThrow(expect.objectContaining({ code: "E_INVALID_ARGUMENT" }));
  });
});

describe("evaluateRun: other gold kinds", () => {
  it("text gold is matched to the universe passage with that text, or added as a passage", () => {
    const q = parseQrels({
      documents: [{ id: "A", aliases: ["alpha_doc"] }],
      passages: [{ doc: "A", id: "a1", text: A1 }],
      queries: [
        { id: "t1", query: "x", gold: [{ doc: "A", text: `  ${A1.toUpperCase()} ` }] },
        { id: "t2", query: "y", gold: [{ doc: "A", text: A4 }] },
      ],
    });
    const r = evaluateRun(q, [
      { id: "t1", results: [inA(A1)] },
      { id: "t2", results: [inA(`${A1} ${A4}`)] },
    ]);
    expect(r.perQuery[0].found).toEqual(["A#a1"]);
    expect(r.perQuery[1].ranked).toEqual(["A#a1", "A##text-1"]);
    expect(r.perQuery[1].reciprocalRank).toBe(0.5);
  });

  it("span mode covers by offsets", () => {
    const q = parseQrels({
      matching: { mode: "span", minPassageChars: 10 },
      documents: [{ id: "P", aliases: ["policy"] }],
      passages: [
        { doc: "P", id: "s0", start: 0, end: 100 },
        { doc: "P", id: "s1", start: 102, end: 500 },
      ],
      queries: [{ id: "p1", query: "x", gold: [{ doc: "P", passage: "s1" }] }, { id: "p2", query: "y", gold: [{ doc: "P", start: 0, end: 100 }] }],
    });
    const at = (start: number, end: number): RunResult => ({ content: "", source_path: "policy.txt", start, end });
    const r = evaluateRun(q, [
      { id: "p1", results: [at(0, 101), at(150, 250), at(90, 600)] },
      { id: "p2", results: [at(10, 60), at(0, 100)] },
    ]);
    expect(r.perQuery[0].ranked).toEqual(["P#s0", "P#s1"]);
    expect(r.perQuery[1].ranked).toEqual(["P#s0"]);
    expect(r.perQuery[1].firstHitRank).toBe(1);
  });

  it("chunk-id gold scores result ids", () => {
    const q = parseQrels({ queries: [{ id: "c1", query: "x", gold: [{ chunk: "k2" }, { chunk: "k9" }] }] });
    const r = evaluateRun(q, [{ id: "c1", results: [{ id: "k1" }, { id: "k2" }, { id: "k2" }, { id: "k3" }] }], { k: 3 });
    expect(r.metrics.recall).toBe(0.5);
    expect(r.metrics.precision).toBeCloseTo(1 / 3, 12);
    expect(r.perQuery[0].ranked).toEqual(["k1", "k2", "k3"]);
  });

  it("text gold under span matching is an error, not a silent zero", () => {
    const q = parseQrels({ matching: { mode: "span" }, queries: [{ id: "x", query: "x", gold: [{ doc: "A", text: "t" }] }] });
    expect(() => evaluateRun(q, [])).toThrow(expect.objectContaining({ code: "E_INVALID_ARGUMENT" }));
  });
});
