export { citationOf, type Citable, type Citation } from "./citation.js";
export { sectionUri, parseSectionUri, SECTION_URI_SCHEME } from "./section-uri.js";
export { passageJson, sectionJson, definitionJson, type PassageJson, type SectionJson, type DefinitionJson } from "./agent-json.js";
export {
  AGENT_TOOL_SPECS,
  AGENT_DEFAULT_TOP_K,
  searchDocumentsSpec,
  getSectionSpec,
  lookupDefinitionSpec,
  searchInputSchema,
  sectionInputSchema,
  definitionInputSchema,
  type AgentToolSpec,
  type SearchableTool,
  type SearchOutput,
  type SectionOutput,
  type DefinitionOutput,
} from "./agent-tool-specs.js";
