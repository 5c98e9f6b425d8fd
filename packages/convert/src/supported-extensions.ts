/**
 * File extensions (lower case, with the dot) the built-in converters read, as data: a folder or glob ingest
 * picks up exactly these; other files are reported as skipped unless an `include` glob names them.
 * Converters that add a format add its extensions here.
 */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.freeze([
  ".md",
  ".markdown",
  ".mdown",
  ".mkd",
  ".mdx",
  ".txt",
  ".text",
  ".html",
  ".htm",
  ".xhtml",
  ".xml",
  ".pdf",
  ".docx",
]);
