import type { Chunk, ConvertedDocument, ConverterLimitsConfig, Section } from "@hierdoc/core";
import { parseDocument } from "@hierdoc/chunker";
import { convertFile, createConverters } from "@hierdoc/convert";
import { extractCrossReferences, extractDefinitions, type ExtractedDefinition, type LocatedCrossReference } from "@hierdoc/definitions";

/** What converting and parsing one file needs besides its bytes. */
export interface PrepareOptions {
  limits: ConverterLimitsConfig;
  maxChunkTokens: number;
  targetChunkTokens?: number;
}

/** One file converted, parsed into sections and chunks, with its definitions and references: plain data, cloneable across threads. */
export interface PreparedFile {
  document: ConvertedDocument;
  sections: Section[];
  chunks: Chunk[];
  definitions: ExtractedDefinition[];
  references: LocatedCrossReference[];
  /** Milliseconds spent in each step (convert, parse, definitions). */
  timingsMs: { convert: number; parse: number; definitions: number };
}

const MB = 1024 * 1024;

/**
 * Converts one file with the built-in converters under the configured limits (file size, PDF pages, zip
 * inflation, XML entities), then parses it and extracts definitions and cross-references. Runs in an ingest worker, or
 * in the calling thread when the ingest has no workers.
 * @throws HierdocError naming the file (see `convertFile`), or from the chunker.
 */
export async function prepareFile(path: string, bytes: Uint8Array, options: PrepareOptions): Promise<PreparedFile> {
  const { limits } = options;
  let t = performance.now();
  const document = await convertFile(path, bytes, {
    maxBytes: Math.floor(limits.max_file_mb * MB),
    converters: createConverters({
      maxUncompressedBytes: Math.floor(limits.max_zip_inflated_mb * MB),
      maxPdfPages: limits.max_pages,
      maxXmlEntities: limits.max_xml_entities,
    }),
  });
  const convert = performance.now() - t;
  t = performance.now();
  const parsed = parseDocument(document, { maxChunkTokens: options.maxChunkTokens, targetChunkTokens: options.targetChunkTokens });
  const parse = performance.now() - t;
  t = performance.now();
  const definitions = extractDefinitions(document, parsed.sections, parsed.chunks);
  const references = extractCrossReferences(document, parsed.sections, parsed.chunks);
  return {
    document,
    sections: parsed.sections,
    chunks: parsed.chunks,
    definitions,
    references,
    timingsMs: { convert, parse, definitions: performance.now() - t },
  };
}
