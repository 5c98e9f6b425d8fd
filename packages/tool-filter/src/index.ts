export { ToolIndex, type ToolDescription, type ToolIndexOptions, type ToolMatch } from "./tool-index.js";
export { ToolPicker, schemaKeywords, type PickedTool } from "./tool-picker.js";
