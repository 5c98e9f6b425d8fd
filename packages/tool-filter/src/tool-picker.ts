import { HierdocError } from "@hierdoc/core";
import { ToolIndex, type ToolDescription, type ToolIndexOptions, type ToolMatch } from "./tool-index.js";

/** A framework's tool with the {@link ToolMatch} that selected it. */
export type PickedTool<T> = ToolMatch & { tool: T };

/**
 * Picks from a list of any framework's tool objects (LangChain tools, AI SDK tool-set entries, MCP tool
 * listings): `describe` says how to read a name and description from one, and {@link pick} hands back the
 * framework's own objects, best first. The framework glue lives in the framework adapters.
 */
export class ToolPicker<T> {
  private constructor(
    private readonly index: ToolIndex,
    private readonly byName: Map<string, T>,
  ) {}

  /**
   * Indexes `tools`.
   * @throws HierdocError E_INVALID_ARGUMENT when two tools share a name or one has none; E_EMBEDDING when the embedder fails.
   */
  static async create<T>(tools: Iterable<T>, describe: (tool: T) => ToolDescription, options: ToolIndexOptions = {}): Promise<ToolPicker<T>> {
    const byName = new Map<string, T>();
    const descriptions: ToolDescription[] = [];
    for (const tool of tools) {
      const d = describe(tool);
      if (byName.has(d.name)) throw new HierdocError("E_INVALID_ARGUMENT", `two tools are named "${d.name}"; tool names must be unique`);
      byName.set(d.name, tool);
      descriptions.push(d);
    }
    const index = new ToolIndex(options);
    await index.add(descriptions);
    return new ToolPicker(index, byName);
  }

  /** Number of tools indexed. */
  get size(): number {
    return this.byName.size;
  }

  /** The `topK` (default 5) tools most relevant to `query`, best first, with their scores. */
  async rank(query: string, options: { topK?: number } = {}): Promise<Array<PickedTool<T>>> {
    const matches = await this.index.select(query, options);
    return matches.map((m) => ({ ...m, tool: this.byName.get(m.name) as T }));
  }

  /** The `topK` (default 5) tools most relevant to `query`, best first: the framework's own objects. */
  async pick(query: string, options: { topK?: number } = {}): Promise<T[]> {
    return (await this.rank(query, options)).map((m) => m.tool);
  }
}

/**
 * Words that describe a tool's parameters, read from its JSON Schema (property names, split, and their
 * descriptions), for {@link ToolDescription.keywords}. Anything that is not an object schema gives none.
 */
export function schemaKeywords(jsonSchema: unknown): string[] {
  const props = (jsonSchema as { properties?: Record<string, { description?: unknown }> } | undefined)?.properties;
  if (!props || typeof props !== "object") return [];
  const out: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    out.push(name);
    if (typeof p?.description === "string") out.push(p.description);
  }
  return out;
}
