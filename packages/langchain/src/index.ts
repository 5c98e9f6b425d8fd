export { HierdocRetriever, type HierdocRetrieverInput, type HierdocMetadata } from "./hierdoc-retriever.js";
export { hierdocTools } from "./hierdoc-tools.js";
export { langChainToolPicker, type LangChainToolLike } from "./tool-picker.js";
