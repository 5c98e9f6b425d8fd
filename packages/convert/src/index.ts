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
export { HtmlConverter } from "./html-converter.js";
export { htmlToMarkdown, htmlToMarkdownWithMap, type HtmlMarkdown } from "./html-to-markdown.js";
export { DocxConverter } from "./docx-converter.js";
export { PdfConverter } from "./pdf-converter.js";
export { UslmConverter, uslmLabel } from "./uslm-converter.js";
export { RfcXmlConverter, type RfcXmlOptions } from "./rfc-converter.js";
export { xrefText, type RfcSourceResolver, type XrefContext } from "./rfc-xrefs.js";
export { numberRfcSections, type RfcSection } from "./rfc-numbering.js";
export { parseXml, type XmlElement, type XmlNode, type XmlLimits } from "./xml-tree.js";
export { readZipEntries, checkZipBomb, type ZipEntry, type ZipLimits } from "./zip-guard.js";
export { extensionOf, binarySignature, xmlRootTag } from "./sniff.js";
export { MarkdownWriter, escapeBlock } from "./markdown-writer.js";
export { SUPPORTED_EXTENSIONS } from "./supported-extensions.js";
