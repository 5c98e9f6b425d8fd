export { convertObliqa, splitextStem, type ObliqaInput, type ObliqaPassage, type ObliqaQuestion } from "./obliqa.js";
export {
  convertPolicyqa,
  policyFileStem,
  type PolicyDocument,
  type PolicyqaConversion,
  type PolicyqaOptions,
  type SquadDataset,
} from "./policyqa.js";
export { loadObliqaQrels, loadPolicyqa, readObliqa, writePolicyDocuments, writeText } from "./files.js";
export { pythonJsonDumps, queriesJsonl } from "./python-json.js";
