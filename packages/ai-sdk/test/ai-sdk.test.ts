import { describe, expect, it } from "@jest/globals";
import { generateText, stepCountIs, tool } from "ai";
import { z } from "zod";
import { aiSdkToolPicker, hierdocToolSet } from "@hierdoc/ai-sdk";
import { gdprSkipNote, hasGdpr, useGdprIndex } from "@hierdoc/core/testing";
import { openIndex } from "@hierdoc/runtime";
import { scriptedModel, toolResultsIn } from "./scripted-model.js";

const getWeather = tool({ description: "Current weather and forecast for a city.", inputSchema: z.object({ city: z.string().describe("city name") }), execute: async ({ city }) => `sunny in ${city}` });

const suite = hasGdpr ? describe : describe.skip;
suite(`@hierdoc/ai-sdk on the GDPR with the AI SDK's generateText and MockLanguageModelV3${gdprSkipNote}`, () => {
  const gdpr = useGdprIndex(openIndex, { open: true });

  it("sends the three tools with their JSON schemas and descriptions to the model", async () => {
    const model = scriptedModel("get_section", { id: "Article 17" });
    await generateText({ model, tools: hierdocToolSet(gdpr.tool), stopWhen: stepCountIs(2), prompt: "Read Article 17." });
    const sent = model.doGenerateCalls[0].tools ?? [];
    expect(sent.map((t) => t.name)).toEqual(["search_documents", "get_section", "lookup_definition"]);
    const search = sent[0] as { type: string; inputSchema: { required?: string[]; properties: Record<string, { maximum?: number }> }; description?: string };
    expect(search.type).toBe("function");
    expect(search.inputSchema.required).toEqual(["query"]);
    expect(search.inputSchema.properties.top_k.maximum).toBe(100);
    expect(search.description).toMatch(/Quote `citation`/);
  });

  it("get_section's output reaches the model's next turn as JSON with the section's citation", async () => {
    const model = scriptedModel("get_section", { id: "Article 17" });
    const res = await generateText({ model, tools: hierdocToolSet(gdpr.tool), stopWhen: stepCountIs(3), prompt: "Read Article 17." });
    const second = toolResultsIn(model.doGenerateCalls[1]);
    expect(second[0].toolName).toBe("get_section");
    const out = (second[0].output as { type: string; value: { section_id: string; citation: string; content: string } }).value;
    expect(out.section_id).toBe("Article 17");
    expect(out.content).toContain("right to obtain from the controller the erasure");
    expect(res.steps).toHaveLength(2);
  });

  it("invalid input from the model is a tool error in the step, not a crash; lookup_definition answers from Article 4(7)", async () => {
    const bad = await generateText({ model: scriptedModel("search_documents", { query: "x", top_k: 500 }), tools: hierdocToolSet(gdpr.tool), stopWhen: stepCountIs(1), prompt: "?" });
    const errors = bad.steps[0].content.filter((p) => p.type === "tool-error");
    expect(errors).toHaveLength(1);
    const def = await hierdocToolSet(gdpr.tool).lookup_definition.execute!({ term: "controllers" }, { toolCallId: "t", messages: [] });
    expect(def).toMatchObject({ found: true, definitions: [{ term: "controller", source_section: "Article 4(7)" }] });
  });

  it("aiSdkToolPicker picks activeTools and a smaller tool set among unrelated tools", async () => {
    const tools = { get_weather: getWeather, ...hierdocToolSet(gdpr.tool) };
    const picker = await aiSdkToolPicker(tools);
    expect((await picker.activeTools("what does the term personal data mean in the regulation?", { topK: 1 }))[0]).toBe("lookup_definition");
    expect(await picker.activeTools("forecast: will it rain in Lyon?", { topK: 1 })).toEqual(["get_weather"]);
    const subset = await picker.toolSet("read the full text of section 9.3", { topK: 1 });
    expect(Object.keys(subset)).toEqual(["get_section"]);
    expect(subset.get_section).toBe(tools.get_section);
  });
});
