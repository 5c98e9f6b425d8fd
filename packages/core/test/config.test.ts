import { describe, expect, it } from "@jest/globals";
import { configProblems, HierdocError, isHierdocError, ToolConfigSchema, toHierdocError } from "@hierdoc/core";

describe("ToolConfigSchema", () => {
  it("applies the plan's defaults to a minimal entry", () => {
    const cfg = ToolConfigSchema.parse({ name: "legal_docs", type: "hierarchical_document", source: "./docs" });
    expect(cfg.chunking.max_chunk_tokens).toBe(800);
    expect(cfg.search).toEqual({ top_k: 10, rrf_k: 60, fusion: "convex", weights: { semantic: 0.2, keyword: 1, exact: 0.1 } });
    expect(cfg.embedding.provider).toBe("glove");
    expect(cfg.vector_store.provider).toBe("in-memory");
    expect(cfg.keyword_index.provider).toBe("in-memory");
    expect(cfg.context_concurrency).toBe(10);
  });

  it("reports every problem with its YAML path", () => {
    const res = ToolConfigSchema.safeParse({
      name: "bad name",
      type: "hierarchical_document",
      source: "./docs",
      chunking: { max_chunk_tokens: "big" },
      search: { top_k: 500 },
      colour: "blue",
    });
    expect(res.success).toBe(false);
    const problems = configProblems(res.error!, "tools[0]");
    const paths = problems.map((p) => p.path).sort();
    expect(paths).toEqual(["tools[0]", "tools[0].chunking.max_chunk_tokens", "tools[0].name", "tools[0].search.top_k"]);
    expect(problems.find((p) => p.path === "tools[0]")!.message).toContain("colour");
  });
});

describe("HierdocError", () => {
  it("carries code, retryable flag, details and cause", () => {
    const cause = new Error("ECONNREFUSED");
    const err = toHierdocError(cause, "E_STORE_UNAVAILABLE", { adapter: "postgres", operation: "upsert", retryable: true });
    expect(err).toBeInstanceOf(HierdocError);
    expect(err.message).toBe("postgres upsert failed: ECONNREFUSED");
    expect(err.retryable).toBe(true);
    expect(err.cause).toBe(cause);
    expect(isHierdocError(err, "E_STORE_UNAVAILABLE")).toBe(true);
    expect(isHierdocError(err, "E_CONFIG")).toBe(false);
    expect(toHierdocError(err, "E_INTERNAL", {})).toBe(err);
  });
});
