import { describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { Document } from "@langchain/core/documents";
import { AIMessageChunk, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { RunnableLambda } from "@langchain/core/runnables";
import { tool as lcTool, ToolInputParsingException } from "@langchain/core/tools";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";
import { z } from "zod";
import { HierdocRetriever, hierdocTools, langChainToolPicker } from "@hierdoc/langchain";
import { gdprSkipNote, hasGdpr, useGdprIndex } from "@hierdoc/core/testing";
import { openIndex } from "@hierdoc/runtime";

const weather = lcTool(async ({ city }) => `sunny in ${city}`, {
  name: "get_weather",
  description: "Current weather and forecast for a city.",
  schema: z.object({ city: z.string().describe("city name") }),
});
const email = lcTool(async () => "sent", {
  name: "send_email",
  description: "Send an email message to a recipient.",
  schema: z.object({ to: z.string(), body: z.string() }),
});

const suite = hasGdpr ? describe : describe.skip;
suite(`@hierdoc/langchain on the GDPR with LangChain's real classes${gdprSkipNote}`, () => {
  const gdpr = useGdprIndex(openIndex, { open: true });

  it("HierdocRetriever returns Documents: Article 17 first, content = source slice, hierdoc metadata", async () => {
    const docs = await new HierdocRetriever({ tool: gdpr.tool, topK: 4 }).invoke("right to erasure");
    expect(docs).toHaveLength(4);
    expect(docs[0]).toBeInstanceOf(Document);
    const m = docs[0].metadata;
    expect(m.section_id).toBe("Article 17");
    expect(m.parent_chain).toEqual(["Regulation (EU) 2016/679 (General Data Protection Regulation)", "CHAPTER III — Rights of the data subject", "Section 3 — Rectification and erasure"]);
    expect(readFileSync(m.source_path, "utf8").slice(m.start, m.end)).toBe(docs[0].pageContent);
    expect(docs[0].id).toBe(m.chunk_id);
    expect(m.scores.exact).not.toBeNull();
    expect(m.definitions.some((d) => d.term === "personal data" && d.source_section === "Article 4(1)")).toBe(true);
    expect(m.cross_references.some((x) => x.target_section_id === "Article 21(1)")).toBe(true);
    expect(m.uri).toBe("hierdoc://gdpr_2016_679.md/Article%2017");
  });

  it("the retriever composes in a chain (pipe) and rejects an empty query with the tool's error", async () => {
    const chain = new HierdocRetriever({ tool: gdpr.tool, topK: 2, mode: "exact" }).pipe(RunnableLambda.from((docs: Document[]) => docs.map((d) => d.metadata.section_id)));
    expect(await chain.invoke("Article 6")).toEqual(expect.arrayContaining(["Article 6"]));
    await expect(new HierdocRetriever({ tool: gdpr.tool }).invoke(" ")).rejects.toMatchObject({ code: "E_INVALID_ARGUMENT" });
  });

  it("an agent turn: FakeStreamingChatModel.bindTools sees the JSON schemas, its tool call runs, the ToolMessage cites Article 17", async () => {
    const tools = hierdocTools(gdpr.tool);
    expect(tools.map((t) => t.name)).toEqual(["search_documents", "get_section", "lookup_definition"]);
    const model = new FakeStreamingChatModel({
      sleep: 0,
      chunks: [new AIMessageChunk({ content: "", tool_calls: [{ id: "call_1", name: "search_documents", args: { query: "right to erasure", top_k: 2 }, type: "tool_call" }] })],
    });
    const bound = model.bindTools(tools);
    const boundTools = (bound as unknown as { config: { tools: Array<{ function: { name: string; parameters: { required?: string[]; properties: object } } }> } }).config.tools;
    expect(boundTools.map((t) => t.function.name)).toEqual(["search_documents", "get_section", "lookup_definition"]);
    expect(boundTools[0].function.parameters.required).toEqual(["query"]);
    expect(Object.keys(boundTools[0].function.parameters.properties).sort()).toEqual(["mode", "query", "top_k"]);

    const ai = await bound.invoke([new HumanMessage("Which article gives the right to erasure?")]);
    expect(ai.tool_calls).toHaveLength(1);
    const byName = new Map(tools.map((t) => [t.name, t]));
    const call = ai.tool_calls![0];
    const msg = (await byName.get(call.name)!.invoke(call)) as ToolMessage;
    expect(msg).toBeInstanceOf(ToolMessage);
    expect(msg.tool_call_id).toBe("call_1");
    const out = JSON.parse(msg.content as string);
    expect(out.results).toHaveLength(2);
    expect(out.results[0].section_id).toBe("Article 17");
    expect(out.results[0].citation).toMatch(/^Regulation \(EU\) 2016\/679 .* › Article 17 — Right to erasure/);
  });

  it("the tools follow a reference and read a definition; bad input is LangChain's ToolInputParsingException", async () => {
    const [, getSection, lookup] = hierdocTools(gdpr.tool);
    const section = JSON.parse(await getSection.invoke({ id: "Article 21(1)" }));
    expect(section).toMatchObject({ found: true, section_id: "Article 21" });
    const missing = JSON.parse(await getSection.invoke({ id: "Article 999" }));
    expect(missing.found).toBe(false);
    const def = JSON.parse(await lookup.invoke({ term: "Personal Data" }));
    expect(def.definitions[0].source_section).toBe("Article 4(1)");
    await expect(hierdocTools(gdpr.tool)[0].invoke({ query: "x", top_k: 500 })).rejects.toBeInstanceOf(ToolInputParsingException);
  });

  it("langChainToolPicker picks the relevant LangChain tools (the same objects) among unrelated ones", async () => {
    const tools = [weather, ...hierdocTools(gdpr.tool), email];
    const picker = await langChainToolPicker(tools);
    const [first] = await picker.pick("search the regulation for passages about erasure of personal data", { topK: 1 });
    expect(first.name).toBe("search_documents");
    expect(tools).toContain(first);
    expect((await picker.pick("will it rain in Paris tomorrow? forecast please", { topK: 1 }))[0]).toBe(weather);
    expect((await picker.pick("read the full text of section 9.3", { topK: 1 }))[0].name).toBe("get_section");
    await expect(langChainToolPicker([weather, weather])).rejects.toMatchObject({ code: "E_INVALID_ARGUMENT" });
  });
});
