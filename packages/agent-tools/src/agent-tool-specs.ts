import type { ChunkRecord, DefinitionEntry, SearchMode, SearchResponse } from "@hierdoc/core";
import { z } from "zod";
import { definitionJson, passageJson, sectionJson, type DefinitionJson, type PassageJson, type SectionJson } from "./agent-json.js";

/**
 * What the agent tools need from an index: a `HierarchicalDocumentTool` (from `@hierdoc/tool`) or anything
 * with the same three methods.
 */
export interface SearchableTool {
  search(query: string, options?: { topK?: number; mode?: SearchMode }): Promise<SearchResponse>;
  section(id: string): Promise<ChunkRecord[]>;
  define(term: string): DefinitionEntry[];
}

const text = (what: string) => z.string().trim().min(1).max(2_000).describe(what);

/** Input of `search_documents`. */
export const searchInputSchema = z.object({
  query: text("A question, keywords, or a section id such as \"Article 17\" or \"§ 478.11\""),
  top_k: z.number().int().min(1).max(100).optional().describe("How many passages to return (default 5, at most 100)"),
  mode: z
    .enum(["hybrid", "semantic", "keyword", "exact"])
    .optional()
    .describe("hybrid (default) combines meaning, keywords and exact section ids; use exact to look up an id only"),
});

/** Input of `get_section`. */
export const sectionInputSchema = z.object({
  id: text("Section id or alias, e.g. \"Article 17\", \"Section 203(a)(1)\", \"§ 478.11\", \"9.3\""),
});

/** Input of `lookup_definition`. */
export const definitionInputSchema = z.object({
  term: text("The term to look up, e.g. \"personal data\""),
});

/** Output of `search_documents`. */
export interface SearchOutput {
  query: string;
  results: PassageJson[];
  /** Retrieval legs that failed and were skipped. */
  warnings: string[];
}

/** Output of `get_section`. */
export type SectionOutput = SectionJson | { found: false; id: string; message: string };

/** Output of `lookup_definition`. */
export type DefinitionOutput = { found: true; term: string; definitions: DefinitionJson[] } | { found: false; term: string; message: string };

/** One agent tool as data: name, agent-facing description, zod input schema and a handler over a {@link SearchableTool}. */
export interface AgentToolSpec<S extends z.ZodObject = z.ZodObject, O = unknown> {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  /** Runs the tool on validated input. @throws HierdocError from the index (e.g. E_TIMEOUT, E_STORE_UNAVAILABLE). */
  run(tool: SearchableTool, input: z.output<S>): Promise<O>;
}

/** Agent tools return this many passages unless asked for more (fewer than the CLI's 10: they go into a prompt). */
export const AGENT_DEFAULT_TOP_K = 5;

/** `search_documents`: hybrid search with citations. */
export const searchDocumentsSpec: AgentToolSpec<typeof searchInputSchema, SearchOutput> = {
  name: "search_documents",
  title: "Search documents",
  description:
    "Search the indexed documents (laws, regulations, standards, manuals) for the passages that answer a question, " +
    "match keywords, or carry a section id such as \"Article 17\" or \"§ 478.11\". Use it first, whenever you do not yet know " +
    "which section answers the question. Returns passages best first; each has `citation` (where it sits: parent headings › " +
    "section title (file)), `section_id`, the passage `content`, the definitions of defined terms it uses and the sections it " +
    "cross-references. Quote `citation` for every passage you rely on; call get_section with a `section_id` to read the whole section.",
  inputSchema: searchInputSchema,
  async run(tool, { query, top_k, mode }) {
    const res = await tool.search(query, { topK: top_k ?? AGENT_DEFAULT_TOP_K, mode });
    return { query, results: res.results.map(passageJson), warnings: res.warnings };
  },
};

/** `get_section`: a whole section by id or alias. */
export const getSectionSpec: AgentToolSpec<typeof sectionInputSchema, SectionOutput> = {
  name: "get_section",
  title: "Read a section",
  description:
    "Read the full text of one section by its id or an alias (\"Article 17\", \"Section 203(a)(1)\", \"§ 478.11\", \"9.3\"). " +
    "Use it after search_documents to read a whole section, or to follow a cross-reference (`target_section_id`). Returns the " +
    "text with its `citation`, parent chain and cross-references; `found: false` when no section has that id (search instead).",
  inputSchema: sectionInputSchema,
  async run(tool, { id }) {
    const records = await tool.section(id);
    if (records.length === 0) return { found: false, id, message: `no section "${id}" in the index; search_documents finds sections by topic` };
    return sectionJson(records);
  },
};

/** `lookup_definition`: how the documents define a term. */
export const lookupDefinitionSpec: AgentToolSpec<typeof definitionInputSchema, DefinitionOutput> = {
  name: "lookup_definition",
  title: "Look up a defined term",
  description:
    "Look up how the indexed documents themselves define a term (\"personal data\", \"controller\"); plural-aware and " +
    "case-insensitive. Use it when an answer depends on what a term means: the documents' own definition overrides the everyday " +
    "meaning. Returns each definition with the section that defines it (`citation`); `found: false` when the term is not defined.",
  inputSchema: definitionInputSchema,
  async run(tool, { term }) {
    const entries = tool.define(term);
    if (entries.length === 0) return { found: false, term, message: `"${term}" is not a defined term in the indexed documents` };
    return { found: true, term, definitions: entries.map(definitionJson) };
  },
};

/** The three agent tools, in the order an agent usually needs them. */
export const AGENT_TOOL_SPECS = [searchDocumentsSpec, getSectionSpec, lookupDefinitionSpec] as const;
