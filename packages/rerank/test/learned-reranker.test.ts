import { afterAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RerankConfigSchema, type RerankCandidate } from "@hierdoc/core";
import {
  DEFAULT_RANKER_MODEL_PATH,
  FEATURE_NAMES,
  FeatureExtractor,
  LearnedReranker,
  LexicalReranker,
  createReranker,
  loadRankerModel,
  parseRankerModel,
  scoreVector,
  type LinearRankerModel,
  type TreesRankerModel,
} from "@hierdoc/rerank";

const tmp = mkdtempSync(join(tmpdir(), "hierdoc-learned-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function cand(id: string, content: string, extra: Partial<RerankCandidate> = {}): RerankCandidate {
  return { id, content, context: "", sectionId: id, sectionTitle: "", parentChain: [], ...extra };
}

const linear = (features: string[], weights: number[]): LinearRankerModel =>
  parseRankerModel({ format: "hierdoc-ranker", version: 1, kind: "linear", features, mean: features.map(() => 0), scale: features.map(() => 1), weights }) as LinearRankerModel;

describe("ranker model files", () => {
  it("score a linear model as Σ w·(x − mean)/scale and trees as the sum of their leaves", () => {
    const m = parseRankerModel({ format: "hierdoc-ranker", version: 1, kind: "linear", features: ["phrase", "length"], mean: [0.5, 1], scale: [2, 1], weights: [4, -1] });
    expect(scoreVector(m, [1.5, 3])).toBeCloseTo(4 * 0.5 - 2, 12);
    const t: TreesRankerModel = {
      format: "hierdoc-ranker",
      version: 1,
      kind: "trees",
      features: ["phrase", "length"],
      trees: [
        { feature: [0, -1, 1, -1, -1], threshold: [0.5, 0, 0.2, 0, 0], left: [1, 0, 3, 0, 0], right: [2, 0, 4, 0, 0], value: [0, -1, 0, 2, 3] },
        { feature: [-1], threshold: [0], left: [0], right: [0], value: [0.25] },
      ],
    };
    expect(scoreVector(parseRankerModel(t), [0.1, 9])).toBe(-0.75);
    expect(scoreVector(t, [0.9, 0.1])).toBe(2.25);
    expect(scoreVector(t, [0.9, 0.5])).toBe(3.25);
  });

  it("reject bad files with E_CONFIG naming the file and the JSON path", () => {
    const base = { format: "hierdoc-ranker", version: 1, kind: "linear", features: ["phrase"], mean: [0], scale: [1], weights: [1] };
    const cases: Array<[unknown, string]> = [
      [{ ...base, format: "other" }, "format"],
      [{ ...base, version: 2 }, "version"],
      [{ ...base, features: ["phrase", "colour"], mean: [0, 0], scale: [1, 1], weights: [1, 1] }, "features[1]"],
      [{ ...base, weights: [1, 2] }, "weights"],
      [{ ...base, scale: [0] }, "scale[0]"],
      [{ ...base, kind: "forest" }, "kind"],
      [{ ...base, kind: "trees", trees: [{ feature: [0, -1], threshold: [0, 0], left: [0, 0], right: [1, 0], value: [0, 1] }] }, "trees[0].left[0]"],
      [{ ...base, kind: "trees", trees: [{ feature: [3, -1, -1], threshold: [0, 0, 0], left: [1, 0, 0], right: [2, 0, 0], value: [0, 1, 2] }] }, "trees[0].feature[0]"],
    ];
    for (const [value, path] of cases) {
      expect(() => parseRankerModel(value, "m.json")).toThrow(expect.objectContaining({ code: "E_CONFIG", message: expect.stringContaining(`m.json: ${path}:`) }));
    }
    const notJson = join(tmp, "broken.json");
    writeFileSync(notJson, "{ nope");
    expect(() => loadRankerModel(notJson)).toThrow(expect.objectContaining({ code: "E_CONFIG", message: expect.stringContaining("broken.json: not valid JSON") }));
    expect(() => loadRankerModel(join(tmp, "absent.json"))).toThrow(expect.objectContaining({ code: "E_CONFIG", message: expect.stringContaining("rerank.model_path") }));
  });
});

describe("LearnedReranker", () => {
  const query = "annual audit report deadline";
  const cs = [
    cand("top", "fees payable annually by every firm", { fusedScore: 1 }),
    cand("answer", "each firm must file its annual audit report before the deadline", { fusedScore: 0.6 }),
    cand("tail", "nothing relevant", { fusedScore: 0 }),
  ];

  it("orders candidates by the model's score of the shared features, returning the model inputs as reasons", async () => {
    const byPhrase = new LearnedReranker({ model: linear(["phrase", "fused"], [1, 0.1]) });
    const out = await byPhrase.rerank(query, cs, 3);
    expect(out.map((s) => s.id)).toEqual(["answer", "top", "tail"]);
    expect(Object.keys(out[0].reasons ?? {})).toEqual(["phrase", "fused"]);
    const byFused = new LearnedReranker({ model: linear(["fused"], [1]) });
    expect((await byFused.rerank(query, cs, 2)).map((s) => s.id)).toEqual(["top", "answer"]);
    await expect(byPhrase.rerank(query, cs, 0)).rejects.toMatchObject({ code: "E_INVALID_ARGUMENT" });
  });

  it("keeps the fused order on ties (a zero model changes nothing)", async () => {
    const zero = new LearnedReranker({ model: linear(["phrase"], [0]) });
    expect((await zero.rerank(query, cs, 3)).map((s) => s.id)).toEqual(["top", "answer", "tail"]);
  });

  it("loads the model shipped with the package: valid, known features, deterministic scores", async () => {
    expect(existsSync(DEFAULT_RANKER_MODEL_PATH)).toBe(true);
    const shipped = JSON.parse(readFileSync(DEFAULT_RANKER_MODEL_PATH, "utf8")) as { trainedOn?: { qrels?: string } };
    expect(shipped.trainedOn?.qrels).toMatch(/ObliQA/i);
    const a = new LearnedReranker();
    const b = new LearnedReranker({ modelPath: DEFAULT_RANKER_MODEL_PATH });
    expect(a.model.features.every((f) => (FEATURE_NAMES as readonly string[]).includes(f))).toBe(true);
    expect(await a.rerank(query, cs, 3)).toEqual(await b.rerank(query, cs, 3));
  });

  it("is built by createReranker for provider learned, from model_path or the shipped model", () => {
    const file = join(tmp, "phrase.json");
    writeFileSync(file, JSON.stringify(linear(["phrase"], [2])));
    const fromFile = createReranker(RerankConfigSchema.parse({ provider: "learned", model_path: file }));
    expect(fromFile).toBeInstanceOf(LearnedReranker);
    expect((fromFile as LearnedReranker).model.features).toEqual(["phrase"]);
    expect(createReranker(RerankConfigSchema.parse({ provider: "learned" }))).toBeInstanceOf(LearnedReranker);
    expect(() => createReranker(RerankConfigSchema.parse({ provider: "learned", model_path: join(tmp, "missing.json") }))).toThrow(
      expect.objectContaining({ code: "E_CONFIG" }),
    );
  });
});

describe("shared features", () => {
  it("the lexical reranker's signals are the extractor's first nine features", () => {
    const rows = new FeatureExtractor().extract("annual audit report", [cand("a", "the annual audit report"), cand("b", "fees")]);
    const signals = new LexicalReranker().signalsFor("annual audit report", [cand("a", "the annual audit report"), cand("b", "fees")]);
    for (let i = 0; i < 2; i++) for (const [k, v] of Object.entries(signals[i])) expect(rows[i][k as keyof (typeof rows)[0]]).toBe(v);
  });

  it("reads leg scores and ranks, chunk type, and cross-references between candidates", () => {
    const rows = new FeatureExtractor().extract("capital requirements", [
      cand("a", "capital requirements apply", { scores: { semantic: 0.8, keyword: 12, exact: null }, ranks: { semantic: 1, keyword: 2, exact: null }, chunkType: "requirement", citedSections: ["b"] }),
      cand("b", "definitions of capital", { scores: { semantic: 0.4, keyword: 6, exact: 1 }, ranks: { semantic: 2, keyword: 1, exact: 1 }, chunkType: "definition" }),
      cand("c", "unrelated", { scores: { semantic: null, keyword: 3, exact: null }, ranks: { semantic: null, keyword: 3, exact: null } }),
    ]);
    expect(rows.map((r) => r.semanticNorm)).toEqual([1, 0, 0]);
    expect(rows.map((r) => r.keywordNorm)).toEqual([1, 0.5, 0.25]);
    expect(rows.map((r) => r.semanticRank)).toEqual([1, 0.5, 0]);
    expect(rows.map((r) => r.exact)).toEqual([0, 1, 0]);
    expect(rows.map((r) => [r.typeRequirement, r.typeDefinition])).toEqual([[1, 0], [0, 1], [0, 0]]);
    expect(rows.map((r) => r.cites)).toEqual([1, 0, 0]);
    expect(rows[1].citedBy).toBeGreaterThan(0);
    expect(rows[0].citedBy).toBe(0);
    expect(rows[0].termShare).toBe(1);
    expect(rows[2].termShare).toBe(0);
  });
});
