export { decodeText, normalizeNewlines, findInvalidUtf8 } from "./decode-text.js";
export {
  convertFile,
  createConverters,
  defaultConverters,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_UNCOMPRESSED_BYTES,
  type ConvertOptions,
  type ConverterLimits,
} from "./convert-file.js";
export { MarkdownConverter, firstMarkdownHeading } from "./markdown-converter.js";
export { TextConverter } from "./text-converter.js";
export { extensionOf, binarySignature } from "./sniff.js";
