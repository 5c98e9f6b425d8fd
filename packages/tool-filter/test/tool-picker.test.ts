import { describe, expect, it } from "@jest/globals";
import { isHierdocError } from "@hierdoc/core";
import { schemaKeywords, ToolPicker } from "@hierdoc/tool-filter";

/** A framework-shaped tool: the picker must hand back these very objects. */
interface FrameworkTool {
  id: string;
  about: string;
  params: unknown;
}

const frameworkTools: FrameworkTool[] = [
  { id: "get_weather", about: "Current weather and forecast for a city.", params: { type: "object", properties: { city: { type: "string" } } } },
  { id: "search_documents", about: "Search laws and regulations for passages with citations.", params: { type: "object", properties: { query: { type: "string", description: "question or section id" } } } },
  { id: "send_email", about: "Send an email message.", params: { type: "object", properties: { recipient: { type: "string", description: "who receives the message" } } } },
];
const describeTool = (t: FrameworkTool) => ({ name: t.id, description: t.about, keywords: schemaKeywords(t.params) });

describe("ToolPicker", () => {
  it("returns the framework's own tool objects, best first", async () => {
    const picker = await ToolPicker.create(frameworkTools, describeTool);
    expect(picker.size).toBe(3);
    const picked = await picker.pick("what do the regulations say about erasure?", { topK: 1 });
    expect(picked).toHaveLength(1);
    expect(picked[0]).toBe(frameworkTools[1]);
    const ranked = await picker.rank("forecast for Paris");
    expect(ranked[0].tool).toBe(frameworkTools[0]);
    expect(ranked[0].scores.keyword).toBeGreaterThan(0);
  });

  it("finds a tool by a word of its parameter descriptions (schemaKeywords)", async () => {
    const picker = await ToolPicker.create(frameworkTools, describeTool);
    expect((await picker.pick("who receives it", { topK: 1 }))[0]).toBe(frameworkTools[2]);
  });

  it("rejects duplicate tool names with E_INVALID_ARGUMENT", async () => {
    const err = await ToolPicker.create([frameworkTools[0], frameworkTools[0]], describeTool).catch((e) => e);
    expect(isHierdocError(err) && err.code).toBe("E_INVALID_ARGUMENT");
    expect((err as Error).message).toContain("get_weather");
  });
});

describe("schemaKeywords", () => {
  it("reads property names and descriptions; non-object schemas give none", () => {
    expect(schemaKeywords(frameworkTools[1].params)).toEqual(["query", "question or section id"]);
    expect(schemaKeywords({ type: "string" })).toEqual([]);
    expect(schemaKeywords(undefined)).toEqual([]);
  });
});
