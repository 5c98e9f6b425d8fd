import { AGENT_TOOL_SPECS, type AgentToolSpec, type SearchableTool } from "@hierdoc/agent-tools";
import { tool, type DynamicStructuredTool } from "@langchain/core/tools";

/**
 * hierdoc's agent tools as LangChain structured tools: `search_documents`, `get_section`, `lookup_definition`
 * (zod input schemas, descriptions written for an agent). Each returns JSON text with quotable citations, ready
 * for a `ToolMessage`; bind them with `model.bindTools(tools)`. Invalid input throws LangChain's
 * `ToolInputParsingException`; index failures throw the tool's `HierdocError`.
 */
export function hierdocTools(index: SearchableTool): DynamicStructuredTool[] {
  return AGENT_TOOL_SPECS.map((spec) => asLangChainTool(index, spec as unknown as AgentToolSpec));
}

function asLangChainTool(index: SearchableTool, spec: AgentToolSpec): DynamicStructuredTool {
  return tool(async (input) => JSON.stringify(await spec.run(index, input)), {
    name: spec.name,
    description: spec.description,
    schema: spec.inputSchema,
  }) as unknown as DynamicStructuredTool;
}
