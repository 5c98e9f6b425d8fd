import type { Embedder } from "@hierdoc/core";
import { isHierdocError } from "@hierdoc/core";
import { ToolIndex } from "@hierdoc/tool-filter";

const tools = [
  { name: "search_legal_docs", description: "Search laws and regulations by meaning, keyword or section id such as Article 17 or § 478.11." },
  { name: "get_weather", description: "Current weather and forecast for a city: temperature, rain, wind." },
  { name: "send_email", description: "Send an email message to a recipient with a subject and body." },
  { name: "create_calendar_event", description: "Schedule a meeting or appointment in the user's calendar." },
  { name: "convert_currency", description: "Convert an amount of money between currencies using exchange rates." },
  { name: "run_sql_query", description: "Execute a read-only SQL query against the analytics database and return rows." },
];

/** Topic embedder: one dimension per topic word family, so semantic similarity is known by construction. */
class TopicEmbedder implements Embedder {
  readonly id = "topics";
  readonly dimensions = 4;
  private readonly topics = [/law|regulat|legal|statute|gdpr|compliance/i, /weather|rain|umbrella|forecast/i, /money|currenc|dollar|euro/i, /meeting|calendar|appointment/i];
  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.vec(t));
  }
  async embedQuery(text: string): Promise<Float32Array> {
    return this.vec(text);
  }
  private vec(t: string): Float32Array {
    return Float32Array.from(this.topics.map((re) => (re.test(t) ? 1 : 0)));
  }
}

describe("ToolIndex", () => {
  it("ranks tools by name and description with BM25", async () => {
    const index = new ToolIndex();
    await index.add(tools);
    expect((await index.select("what is the weather forecast in Paris", { topK: 1 }))[0].name).toBe("get_weather");
    expect((await index.select("send a message by email to Bob", { topK: 1 }))[0].name).toBe("send_email");
    expect((await index.select("execute sql against the database", { topK: 1 }))[0].name).toBe("run_sql_query");
    const res = await index.select("schedule a meeting tomorrow", { topK: 3 });
    expect(res[0].name).toBe("create_calendar_event");
    expect(res[0].ranks.keyword).toBe(1);
  });

  it("adds a semantic leg that finds tools with no shared words", async () => {
    const keywordOnly = new ToolIndex();
    await keywordOnly.add(tools);
    expect(await keywordOnly.select("do I need an umbrella?")).toEqual([]);
    const hybrid = new ToolIndex({ embedder: new TopicEmbedder() });
    await hybrid.add(tools);
    const res = await hybrid.select("do I need an umbrella?", { topK: 2 });
    expect(res[0].name).toBe("get_weather");
    expect(res[0].ranks).toEqual({ semantic: 1, keyword: null, exact: null });
  });

  it("lifts a tool named in the query to rank 1", async () => {
    const index = new ToolIndex();
    await index.add(tools);
    const res = await index.select("use convert_currency, not the weather forecast tool", { topK: 2 });
    expect(res.map((r) => r.name)).toEqual(["convert_currency", "get_weather"]);
    expect(res[0].ranks.exact).toBe(1);
  });

  it("replaces and removes tools", async () => {
    const index = new ToolIndex();
    await index.add(tools);
    await index.add([{ name: "get_weather", description: "Stock prices and market quotes." }]);
    expect(index.size).toBe(6);
    expect((await index.select("forecast rain wind")).map((r) => r.name)).not.toContain("get_weather");
    await index.remove(["send_email"]);
    expect((await index.select("email message")).map((r) => r.name)).not.toContain("send_email");
    expect(index.get("send_email")).toBeUndefined();
  });

  it("rejects a nameless tool", async () => {
    const err = await new ToolIndex().add([{ name: " ", description: "x" }]).then(() => null, (e: unknown) => e);
    expect(isHierdocError(err, "E_INVALID_ARGUMENT")).toBe(true);
  });
});
