export { ToolIndex, type ToolDescription, type ToolIndexOptions, type ToolMatch } from "./tool-index.js";
