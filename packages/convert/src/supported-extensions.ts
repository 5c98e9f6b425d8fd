import { CODE_LANGUAGES } from "./code-languages.js";

/** One document format the built-in converters read by extension. */
export interface SupportedFormat {
  /** `fileType` of the converted document (`code-python` for source files). */
  fileType: string;
  /** Extensions, lower case, with the dot. */
  extensions: readonly string[];
}

/** Document formats the built-in converters take by extension (source code: see {@link CODE_LANGUAGES}). */
export const DOCUMENT_FORMATS: readonly SupportedFormat[] = [
  { fileType: "pdf", extensions: [".pdf"] },
  { fileType: "docx", extensions: [".docx"] },
  { fileType: "pptx", extensions: [".pptx"] },
  { fileType: "xlsx", extensions: [".xlsx"] },
  { fileType: "csv", extensions: [".csv", ".tsv"] },
  { fileType: "odt", extensions: [".odt"] },
  { fileType: "epub", extensions: [".epub"] },
  { fileType: "rtf", extensions: [".rtf"] },
  { fileType: "html", extensions: [".html", ".htm", ".xhtml"] },
  { fileType: "xml", extensions: [".xml"] },
  { fileType: "markdown", extensions: [".md", ".markdown", ".mdown", ".mkd", ".mdx"] },
  { fileType: "text", extensions: [".txt", ".text"] },
];

/** Source-code formats: one per language of {@link CODE_LANGUAGES}. */
export const CODE_FORMATS: readonly SupportedFormat[] = CODE_LANGUAGES.map((l) => ({
  fileType: `code-${l.id}`,
  extensions: l.extensions.map((e) => `.${e}`),
}));

/**
 * File extensions (lower case, with the dot) the built-in converters read, as data: a folder or glob ingest
 * picks up exactly these (document formats and source-code languages); other files are reported as skipped
 * unless an `include` glob names them. Converters that add a format add its extensions here.
 */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.freeze(
  [...DOCUMENT_FORMATS, ...CODE_FORMATS].flatMap((f) => f.extensions),
);
