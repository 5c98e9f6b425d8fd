// The JSON contract lives in @hierdoc/runtime, shared with the CLI.
export { resultJson, responseJson, recordJson, definitionJson, ingestJson, crossReferenceJson } from "@hierdoc/runtime";
