import { schemaKeywords, ToolPicker, type ToolIndexOptions } from "@hierdoc/tool-filter";
import { toJsonSchema } from "@langchain/core/utils/json_schema";

/** What the picker reads from a LangChain tool (structured tools, `tool()` results, `DynamicTool`s). */
export interface LangChainToolLike {
  name: string;
  description: string;
  schema?: unknown;
}

/**
 * A {@link ToolPicker} over LangChain tools: indexes each tool's name, description and parameter names and
 * descriptions (its schema as JSON Schema), and `pick(query, { topK })` returns the LangChain tools themselves, best
 * first, to pass to `model.bindTools()`.
 * @throws HierdocError E_INVALID_ARGUMENT for two tools with one name.
 */
export function langChainToolPicker<T extends LangChainToolLike>(tools: Iterable<T>, options: ToolIndexOptions = {}): Promise<ToolPicker<T>> {
  return ToolPicker.create(tools, (t) => ({ name: t.name, description: t.description, keywords: schemaKeywords(jsonSchemaOf(t.schema)) }), options);
}

function jsonSchemaOf(schema: unknown): unknown {
  if (schema === undefined) return undefined;
  try {
    return toJsonSchema(schema as Parameters<typeof toJsonSchema>[0]);
  } catch {
    return undefined;
  }
}
