import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RerankCandidate } from "@hierdoc/core";
import { writeTinyTransformersModel } from "@hierdoc/embeddings/testing";
import { CrossEncoderReranker, createReranker } from "@hierdoc/rerank";

/** A candidate as the tool hands it over. */
const cand = (id: string, content: string, sectionTitle = ""): RerankCandidate => ({ id, content, context: "", sectionId: id, sectionTitle, parentChain: [] });

let work: string;
let modelDir: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "hierdoc-ce-"));
  modelDir = join(work, "tiny-cross-encoder");
  await writeTinyTransformersModel(modelDir, {
    vocabulary: "right to erasure of personal data highway funds firearms records the controller shall state grants".split(" "),
    synonyms: [["erasure", "deletion"]],
    head: "sequence-classification",
  });
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe("CrossEncoderReranker on a real ONNX cross-encoder (transformers.js + ONNX Runtime)", () => {
  const candidates = [
    cand("highway", "highway funds for state grants"),
    cand("erasure", "right to erasure of personal data"),
    cand("firearms", "firearms records"),
    cand("controller", "the controller shall"),
    cand("grants", "state grants"),
  ];

  it("scores (query, passage) pairs with the model's logit and puts the relevant passage first", async () => {
    const rr = createReranker({ provider: "cross-encoder", model_path: modelDir, candidates: 50, timeout_seconds: 10, max_retries: 2 });
    expect(rr).toBeInstanceOf(CrossEncoderReranker);
    const ranked = await rr!.rerank("deletion of personal data", candidates, 3);
    expect(ranked).toHaveLength(3);
    expect(ranked[0]!.id).toBe("erasure");
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
    for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1]!.score).toBeGreaterThanOrEqual(ranked[i]!.score);
  });

  it("gives the same scores whatever the batch size", async () => {
    const one = await new CrossEncoderReranker({ modelPath: modelDir, batchSize: 1 }).rerank("highway grants", candidates, 5);
    const all = await new CrossEncoderReranker({ modelPath: modelDir, batchSize: 16 }).rerank("highway grants", candidates, 5);
    expect(one.map((s) => s.id)).toEqual(all.map((s) => s.id));
    one.forEach((s, i) => expect(s.score).toBeCloseTo(all[i]!.score, 4));
    expect(one[0]!.id).toBe("highway");
  });

  it("a folder without a model is E_CONFIG naming rerank.model_path", async () => {
    const rr = new CrossEncoderReranker({ modelPath: join(work, "nope") });
    await expect(rr.rerank("q", candidates, 1)).rejects.toMatchObject({ code: "E_CONFIG", details: { path: "rerank.model_path" } });
  });
});
