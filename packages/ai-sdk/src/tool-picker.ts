import { schemaKeywords, ToolPicker, type ToolIndexOptions } from "@hierdoc/tool-filter";
import { asSchema, type ToolSet } from "ai";

/** Picks the relevant tools of an AI SDK tool set for a turn. */
export interface AiSdkToolPicker<T extends ToolSet> {
  /** The names of the `topK` (default 5) most relevant tools, best first: pass as `generateText({ activeTools })`. */
  activeTools(query: string, options?: { topK?: number }): Promise<Array<keyof T & string>>;
  /** The same tools as a smaller tool set. */
  toolSet(query: string, options?: { topK?: number }): Promise<Partial<T>>;
}

/**
 * Indexes an AI SDK tool set with `@hierdoc/tool-filter` (each tool's name, description, and parameter names
 * and descriptions from its input schema).
 */
export async function aiSdkToolPicker<T extends ToolSet>(tools: T, options: ToolIndexOptions = {}): Promise<AiSdkToolPicker<T>> {
  const entries: Array<{ name: keyof T & string; description: string; keywords: string[] }> = [];
  for (const [name, t] of Object.entries(tools)) {
    const jsonSchema = t.inputSchema ? await asSchema(t.inputSchema).jsonSchema : undefined;
    entries.push({ name, description: t.description ?? "", keywords: schemaKeywords(jsonSchema) });
  }
  const picker = await ToolPicker.create(entries, (e) => e, options);
  const activeTools = async (query: string, o: { topK?: number } = {}) => (await picker.pick(query, o)).map((e) => e.name);
  return {
    activeTools,
    async toolSet(query, o = {}) {
      const out: Partial<T> = {};
      for (const name of await activeTools(query, o)) out[name] = tools[name];
      return out;
    },
  };
}
