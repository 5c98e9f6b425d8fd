import {
  AnthropicBatchContextGenerator,
  AnthropicContextGenerator,
  createContextGenerator,
  isLlmContextGenerator,
  OpenAIContextGenerator,
  StructuralContextGenerator,
  type ContextConfig,
} from "@hierdoc/contextualizer";
import { isHierdocError } from "@hierdoc/core";

const base: ContextConfig = { contextual_embeddings: true, context_max_tokens: 100, context_concurrency: 10 };
const env = (vars: Record<string, string>) => (name: string) => vars[name];

describe("createContextGenerator", () => {
  it("returns structural context without a model, nothing when contextual embeddings are off", () => {
    expect(createContextGenerator(base)).toBeInstanceOf(StructuralContextGenerator);
    expect(createContextGenerator({ ...base, contextual_embeddings: false })).toBeUndefined();
    expect(isLlmContextGenerator(createContextGenerator(base))).toBe(false);
  });

  it("builds an Anthropic generator with the key from env and the tool's max tokens", () => {
    const gen = createContextGenerator(
      { ...base, context_max_tokens: 64, context_model: { provider: "anthropic", temperature: 0 } },
      { env: env({ ANTHROPIC_API_KEY: "sk-a" }) },
    );
    expect(gen).toBeInstanceOf(AnthropicContextGenerator);
    expect(gen!.id).toMatch(/^anthropic:claude-haiku-4-5:/);
    expect(isLlmContextGenerator(gen)).toBe(true);
  });

  it("batch mode gives the Anthropic batch generator and needs a cache folder", () => {
    const cfg = { ...base, context_model: { provider: "anthropic" as const, temperature: 0 } };
    const opts = { env: env({ ANTHROPIC_API_KEY: "sk-a" }), batch: true };
    expect(() => createContextGenerator(cfg, opts)).toThrow(/cacheDir/);
    const gen = createContextGenerator(cfg, { ...opts, cacheDir: "/tmp/x-contexts" });
    expect(gen).toBeInstanceOf(AnthropicBatchContextGenerator);
    expect(isLlmContextGenerator(gen)).toBe(true);
  });

  it("a missing key is E_CONFIG naming the YAML path and the variable", () => {
    let err: unknown;
    try {
      createContextGenerator({ ...base, context_model: { provider: "openai", temperature: 0 } }, { env: env({}), configPath: "tools[2]" });
    } catch (e) {
      err = e;
    }
    expect(isHierdocError(err, "E_CONFIG")).toBe(true);
    expect((err as Error).message).toContain("tools[2].context_model.api_key");
    expect((err as Error).message).toContain("OPENAI_API_KEY");
  });

  it("openai-compatible needs base_url and name, not a key; azure needs an endpoint and a deployment", () => {
    const compat = { provider: "openai-compatible" as const, temperature: 0 };
    expect(() => createContextGenerator({ ...base, context_model: compat })).toThrow(/context_model.base_url/);
    expect(() => createContextGenerator({ ...base, context_model: { ...compat, base_url: "http://localhost:11434/v1" } })).toThrow(/context_model.name/);
    const ok = createContextGenerator({ ...base, context_model: { ...compat, base_url: "http://localhost:11434/v1", name: "qwen2.5" } });
    expect(ok).toBeInstanceOf(OpenAIContextGenerator);
    const azure = { provider: "azure-openai" as const, temperature: 0 };
    const keyed = { env: env({ AZURE_OPENAI_API_KEY: "az" }) };
    expect(() => createContextGenerator({ ...base, context_model: azure }, keyed)).toThrow(/context_model.base_url/);
    expect(() => createContextGenerator({ ...base, context_model: { ...azure, base_url: "https://r.openai.azure.com/" } }, keyed)).toThrow(
      /context_model.deployment/,
    );
    const az = createContextGenerator({ ...base, context_model: { ...azure, deployment: "d1" } }, { env: env({ AZURE_OPENAI_API_KEY: "az", AZURE_OPENAI_ENDPOINT: "https://r.openai.azure.com/" }) });
    expect(az!.id).toMatch(/^azure-openai:d1:/);
  });
});
