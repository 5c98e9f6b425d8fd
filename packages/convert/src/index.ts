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
export { htmlToMarkdown, htmlToMarkdownWithMap, checkHtmlDepth, MAX_HTML_DEPTH, type HtmlMarkdown } from "./html-to-markdown.js";
export { DocxConverter } from "./docx-converter.js";
export { PdfConverter } from "./pdf-converter.js";
export { UslmConverter, uslmLabel } from "./uslm-converter.js";
export { RfcXmlConverter, type RfcXmlOptions } from "./rfc-converter.js";
export { xrefText, type RfcSourceResolver, type XrefContext } from "./rfc-xrefs.js";
export { numberRfcSections, type RfcSection } from "./rfc-numbering.js";
export { parseXml, type XmlElement, type XmlNode, type XmlLimits } from "./xml-tree.js";
export { readZipEntries, readZipEntry, checkZipBomb, type ZipEntry, type ZipLimits } from "./zip-guard.js";
export { extensionOf, binarySignature, xmlRootTag } from "./sniff.js";
export { MarkdownWriter, escapeBlock } from "./markdown-writer.js";
export { PptxConverter, type PptxOptions } from "./pptx-converter.js";
export { XlsxConverter, type XlsxOptions } from "./xlsx-converter.js";
export { CsvConverter, sniffDelimiter } from "./csv-converter.js";
export { OfficeArchive, readRelationships, resolvePart, DEFAULT_ARCHIVE_LIMIT, type ArchiveLimits } from "./office-zip.js";
export { pipeTable, writeRows, cellText, columnLetter, DEFAULT_MAX_ROWS, type RowLimits } from "./table-text.js";
export { OdtConverter, odfInlineText } from "./odt-converter.js";
export { EpubConverter, type EpubOptions } from "./epub-converter.js";
export { RtfConverter, rtfHeadingLevel } from "./rtf-converter.js";
export { readRtf, type RtfBlock, type RtfDocument, type RtfLimits } from "./rtf-reader.js";
export { CodeConverter, type CodeOptions } from "./code-converter.js";
export { CODE_LANGUAGES, CODE_EXTENSIONS, codeLanguageOf, type CodeLanguage } from "./code-languages.js";
export { outlineCode, type CodeDefinition } from "./code-outline.js";
export { SUPPORTED_EXTENSIONS, DOCUMENT_FORMATS, CODE_FORMATS, type SupportedFormat } from "./supported-extensions.js";
