export { hierdocToolSet, type HierdocToolSet } from "./hierdoc-tools.js";
export { aiSdkToolPicker, type AiSdkToolPicker } from "./tool-picker.js";
