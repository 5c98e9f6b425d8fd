import { afterAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RerankConfigSchema, ToolConfigSchema, type RerankCandidate } from "@hierdoc/core";
import { CohereReranker, CrossEncoderReranker, JinaReranker, LearnedReranker, LexicalReranker, LlmReranker, createReranker } from "@hierdoc/rerank";

const cfg = (input: Record<string, unknown>) => RerankConfigSchema.parse(input);
const cand: RerankCandidate = { id: "a", content: "text", context: "", sectionId: "1", sectionTitle: "", parentChain: [] };

describe("createReranker", () => {
  it("returns nothing for an absent block or provider none, and the tool config accepts the block", () => {
    expect(createReranker(undefined)).toBeUndefined();
    expect(createReranker(cfg({}))).toBeUndefined();
    const tool = ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: ".", rerank: { provider: "lexical", candidates: 30 } });
    expect(tool.rerank).toMatchObject({ provider: "lexical", candidates: 30, timeout_seconds: 10, max_retries: 2 });
    expect(ToolConfigSchema.safeParse({ name: "t", type: "hierarchical_document", source: ".", rerank: { provider: "bm42" } }).success).toBe(false);
    const byDefault = ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: "." }).rerank;
    expect(byDefault.provider).toBe("learned");
    expect(createReranker(byDefault)).toBeInstanceOf(LearnedReranker);
  });

  it("builds each provider, reading API keys through env", () => {
    const env = (n: string) => ({ COHERE_API_KEY: "c", VOYAGE_API_KEY: "v", JINA_API_KEY: "j", ANTHROPIC_API_KEY: "a" })[n];
    expect(createReranker(cfg({ provider: "lexical" }))).toBeInstanceOf(LexicalReranker);
    expect(createReranker(cfg({ provider: "cohere" }), { env })).toBeInstanceOf(CohereReranker);
    expect(createReranker(cfg({ provider: "voyage", name: "rerank-2.5-lite" }), { env })?.id).toBe("voyage:rerank-2.5-lite");
    expect(createReranker(cfg({ provider: "jina" }), { env })).toBeInstanceOf(JinaReranker);
    const llm = createReranker(cfg({ provider: "llm" }), { env, contextModel: { provider: "anthropic", name: "claude-3-haiku-20240307", temperature: 0 } });
    expect(llm).toBeInstanceOf(LlmReranker);
    expect(llm?.id).toBe("llm:anthropic:claude-3-haiku-20240307");
    expect(createReranker(cfg({ provider: "cross-encoder", model_path: "/models/x" }))).toBeInstanceOf(CrossEncoderReranker);
  });

  it("fails with E_CONFIG for a missing key, model or model folder", () => {
    expect(() => createReranker(cfg({ provider: "cohere" }), { env: () => undefined })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
    expect(() => createReranker(cfg({ provider: "llm" }))).toThrow(/rerank\.name/);
    expect(() => createReranker(cfg({ provider: "cross-encoder" }))).toThrow(/rerank\.model_path/);
  });
});

describe("CrossEncoderReranker", () => {
  const dir = mkdtempSync(join(tmpdir(), "hierdoc-ce-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fails with E_CONFIG 'model folder not found' for a folder without a model", async () => {
    const rr = new CrossEncoderReranker({ modelPath: join(dir, "missing") });
    await expect(rr.rerank("q", [cand], 1)).rejects.toMatchObject({ code: "E_CONFIG", message: expect.stringContaining("model folder not found") });
  });

  it("fails with E_CONFIG 'transformers.js not installed' when the library cannot be loaded", async () => {
    writeFileSync(join(dir, "config.json"), "{}");
    const rr = new CrossEncoderReranker({
      modelPath: dir,
      loadTransformers: () => Promise.reject(new Error("Cannot find package '@huggingface/transformers'")),
    });
    await expect(rr.rerank("q", [cand], 1)).rejects.toMatchObject({ code: "E_CONFIG", message: expect.stringContaining("transformers.js not installed") });
  });

  it("scores pairs with the model's last logit when a model loads", async () => {
    writeFileSync(join(dir, "config.json"), "{}");
    const seen: string[][] = [];
    const fake = {
      env: { allowRemoteModels: true, allowLocalModels: false, localModelPath: "" },
      AutoTokenizer: { from_pretrained: async () => (a: string[], o: { text_pair: string[] }) => (seen.push([...a, ...o.text_pair]), o.text_pair) },
      AutoModelForSequenceClassification: {
        from_pretrained: async () => async (pairs: string[]) => ({ logits: { data: pairs.map((p) => (p.includes("audit") ? 5 : -2)), dims: [pairs.length, 1] } }),
      },
    };
    const rr = new CrossEncoderReranker({ modelPath: dir, loadTransformers: async () => fake });
    const out = await rr.rerank("audit", [cand, { ...cand, id: "b", content: "the audit" }], 2);
    expect(out.map((s) => [s.id, s.score])).toEqual([
      ["b", 5],
      ["a", -2],
    ]);
    expect(fake.env.allowRemoteModels).toBe(false);
    expect(seen[0].slice(0, 2)).toEqual(["audit", "audit"]);
  });
});
