import { MockLanguageModelV3 } from "ai/test";

type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

/** The tool results the prompt carries (tool messages), as the SDK sent them to the model. */
export function toolResultsIn(options: LanguageModelV3CallOptions): Array<{ toolName: string; output: unknown }> {
  return options.prompt.flatMap((m) => (m.role === "tool" ? m.content.flatMap((p) => (p.type === "tool-result" ? [{ toolName: p.toolName, output: p.output }] : [])) : []));
}

/**
 * The AI SDK's own mock model, scripted like an agent: first turn calls `toolName` with `input`; next turn answers
 * by quoting the first result's citation from the tool output it was sent (so the answer depends on the tool).
 */
export function scriptedModel(toolName: string, input: Record<string, unknown>): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options): Promise<LanguageModelV3GenerateResult> => {
      const results = toolResultsIn(options);
      if (results.length === 0) {
        return {
          content: [{ type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify(input) }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        };
      }
      const output = results[0].output as { type: string; value: { results?: Array<{ citation: string }> } };
      const cite = output.type === "json" ? output.value.results?.[0]?.citation : undefined;
      return { content: [{ type: "text", text: `The right to erasure is in ${cite ?? "(no citation)"}.` }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
}
