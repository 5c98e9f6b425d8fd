export { HierdocRetriever, LLM_METADATA_KEYS, type HierdocRetrieverOptions, type HierdocNodeMetadata } from "./hierdoc-retriever.js";
