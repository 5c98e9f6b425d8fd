import {
  getSectionSpec,
  lookupDefinitionSpec,
  searchDocumentsSpec,
  type AgentToolSpec,
  type DefinitionOutput,
  type SearchableTool,
  type SearchOutput,
  type SectionOutput,
} from "@hierdoc/agent-tools";
import { tool, type Tool } from "ai";
import type { z } from "zod";

/** hierdoc's tools as an AI SDK tool set, keyed by tool name. */
export type HierdocToolSet = {
  search_documents: Tool<z.input<typeof searchDocumentsSpec.inputSchema>, SearchOutput>;
  get_section: Tool<z.input<typeof getSectionSpec.inputSchema>, SectionOutput>;
  lookup_definition: Tool<z.input<typeof lookupDefinitionSpec.inputSchema>, DefinitionOutput>;
};

/**
 * hierdoc's agent tools for the Vercel AI SDK: `search_documents`, `get_section`, `lookup_definition`, built with
 * `tool()` (zod input schemas, descriptions written for an agent, JSON output with quotable citations). Spread
 * them into `generateText({ tools })` / `streamText({ tools })`. Index failures reject `execute` with the tool's
 * `HierdocError` (the SDK reports it as a tool error); a missing section or term is `found: false`.
 */
export function hierdocToolSet(index: SearchableTool): HierdocToolSet {
  return {
    search_documents: aiTool(index, searchDocumentsSpec),
    get_section: aiTool(index, getSectionSpec),
    lookup_definition: aiTool(index, lookupDefinitionSpec),
  };
}

function aiTool<S extends z.ZodObject, O>(index: SearchableTool, spec: AgentToolSpec<S, O>): Tool<z.input<S>, O> {
  return tool<z.input<S>, O>({
    title: spec.title,
    description: spec.description,
    inputSchema: spec.inputSchema as never,
    execute: (input: z.input<S>) => spec.run(index, spec.inputSchema.parse(input) as z.output<S>),
  } as never);
}
