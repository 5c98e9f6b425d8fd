import { describe, expect, it } from "@jest/globals";
import { loadToolConfig, redactConfig } from "@hierdoc/tool";
import { HierdocError } from "@hierdoc/core";

const PLAN_EXAMPLE = `
tools:
  - name: legal_docs
    type: hierarchical_document
    source: ./docs
    chunking: { max_chunk_tokens: 800 }
    contextual_embeddings: true
    context_model: { provider: anthropic, name: claude-3-haiku-20240307, temperature: 0 }
    context_max_tokens: 100
    context_concurrency: 10
    embedding: { provider: glove }
    vector_store: { provider: in-memory, path: .hierdoc }
    keyword_index: { provider: in-memory }
    search: { top_k: 10, rrf_k: 60, weights: { semantic: 1, keyword: 1, exact: 1 } }
`;

describe("loadToolConfig", () => {
  it("loads the plan's example agent.yaml tool entry", () => {
    const cfg = loadToolConfig(PLAN_EXAMPLE, { file: "agent.yaml" });
    expect(cfg.name).toBe("legal_docs");
    expect(cfg.context_model?.provider).toBe("anthropic");
    expect(cfg.search.weights.exact).toBe(1);
  });

  it("lists every problem with its file line and YAML path", () => {
    const bad = `tools:
  - name: legal_docs
    type: hierarchical_document
    source: ./docs
    chunking: { max_chunk_tokens: lots }
    search:
      top_k: 500
    colour: blue
`;
    let error: HierdocError | undefined;
    try {
      loadToolConfig(bad, { file: "agent.yaml" });
    } catch (e) {
      error = e as HierdocError;
    }
    expect(error?.code).toBe("E_CONFIG");
    expect(error?.message).toContain("agent.yaml:5: tools[0].chunking.max_chunk_tokens");
    expect(error?.message).toContain("agent.yaml:7: tools[0].search.top_k");
    expect(error?.message).toMatch(/agent\.yaml:\d+: tools\[0\]: unknown key\(s\): colour/);
    expect(error?.message).toContain("3 problems");
  });

  it("picks a tool by name and interpolates ${ENV} secrets, which redaction hides", () => {
    const yaml = `tools:
  - name: a
    type: hierarchical_document
    source: ./a
  - name: b
    type: hierarchical_document
    source: ./b
    embedding: { provider: openai, name: text-embedding-3-small, api_key: "\${MY_KEY}" }
  - name: web
    type: web_search
`;
    expect(() => loadToolConfig(yaml, { file: "agent.yaml" })).toThrow(/choose one with --tool/);
    const cfg = loadToolConfig(yaml, { file: "agent.yaml", tool: "b", env: (n) => (n === "MY_KEY" ? "sk-secret" : undefined) });
    expect(cfg.embedding.api_key).toBe("sk-secret");
    expect(JSON.stringify(redactConfig(cfg))).not.toContain("sk-secret");
    expect(() => loadToolConfig(yaml, { file: "agent.yaml", tool: "b", env: () => undefined })).toThrow(/MY_KEY is not set/);
    expect(() => loadToolConfig(yaml, { file: "agent.yaml", tool: "zzz" })).toThrow(/no hierarchical_document tool named "zzz"/);
  });

  it("redacts every credential key, whatever block it sits in", () => {
    const cfg = {
      vector_store: { provider: "azure-cosmos-nosql", key: "cosmos-k", connection_string: "mongodb+srv://u:p@h" },
      llm: { headers: { Authorization: "Bearer t0k" }, access_token: "at-1", client_secret: "cs-1" },
      chunk: { max_tokens: 800 },
    };
    const out = redactConfig(cfg);
    for (const secret of ["cosmos-k", "u:p@h", "Bearer t0k", "at-1", "cs-1"]) expect(JSON.stringify(out)).not.toContain(secret);
    expect(out.chunk.max_tokens).toBe(800);
    expect(out.vector_store.provider).toBe("azure-cosmos-nosql");
  });

  it("reports YAML syntax errors with their line", () => {
    expect(() => loadToolConfig("tools:\n  - name: [unclosed\n", { file: "x.yaml" })).toThrow(/x\.yaml:\d+/);
  });
});
