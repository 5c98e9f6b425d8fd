import { AnthropicContextGenerator, OpenAIContextGenerator } from "@hierdoc/contextualizer";
import { makeDocument } from "./fake-llm-server.js";

const anthropicKey = process.env.ANTHROPIC_API_KEY;
const openaiKey = process.env.OPENAI_API_KEY;
const live = (key: string | undefined) => (key ? it : it.skip);

describe("live LLM APIs", () => {
  live(anthropicKey)(
    `Anthropic writes a context and reads its prompt cache${anthropicKey ? "" : " (skipped: ANTHROPIC_API_KEY not set)"}`,
    async () => {
      const { document, chunks } = makeDocument(120);
      const gen = new AnthropicContextGenerator({ apiKey: anthropicKey, concurrency: 2 });
      const results = await gen.generate(chunks.slice(0, 3).map((chunk) => ({ document, chunk })));
      expect(results.every((r) => !r.error && r.context.length > 0)).toBe(true);
      expect(gen.usage().models[0]!.cacheReadInputTokens).toBeGreaterThan(0);
    },
    60_000,
  );

  live(openaiKey)(
    `OpenAI writes a context${openaiKey ? "" : " (skipped: OPENAI_API_KEY not set)"}`,
    async () => {
      const { document, chunks } = makeDocument(3);
      const gen = new OpenAIContextGenerator({ apiKey: openaiKey });
      const [r] = await gen.generate([{ document, chunk: chunks[0]! }]);
      expect(r!.error).toBeUndefined();
      expect(r!.context.length).toBeGreaterThan(0);
    },
    60_000,
  );
});
