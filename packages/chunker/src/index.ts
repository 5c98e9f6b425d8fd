export { parseDocument } from "./parse-document.js";
export type { ParsedDocument } from "./parse-document.js";
export type { ChunkOptions } from "./chunk.js";
export { countTokens } from "./tokens.js";
export { sectionIdFromHeading } from "./section-id.js";
export type { SectionIdentity } from "./section-id.js";
export { classifyChunk } from "./classify.js";
