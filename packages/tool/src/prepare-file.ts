import type { Chunk, ChunkRecord, ConvertedDocument, ConverterLimitsConfig, Section } from "@hierdoc/core";
import { parseDocument } from "@hierdoc/chunker";
import { convertFile, createConverters } from "@hierdoc/convert";
import { analyzeBatch, type AnalyzedBatch } from "@hierdoc/keyword-search";
import { extractCrossReferences, extractDefinitions, type ExtractedDefinition, type LocatedCrossReference } from "@hierdoc/definitions";
import { embedTexts, indexedTextOf, writeContexts, type FileContexts, type FileStageProgress } from "./file-stages.js";
import type { FileStages } from "./worker-stages.js";
import { assembleRecords } from "./record-assembly.js";

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
  /** The chunks' contexts (in chunk order) when the worker wrote them (a context writer with a `workerRecipe`). */
  contexts?: FileContexts;
  /**
   * The chunks' vectors when the worker embedded them (an embedder with a `workerRecipe`): one flat array, chunk i
   * at `i × dimensions`, whose buffer is transferred, not copied.
   */
  vectors?: Float32Array;
  /**
   * The chunks' indexed texts analysed for the keyword index when the worker was given its analyzer (buffers
   * transferred): the ingesting thread adds them with `upsertAnalyzed` instead of analysing the texts again.
   */
  analyzed?: AnalyzedBatch;
  /**
   * The chunk records, when the worker assembled them (`stages.records` and the file's hash given): then `sections`,
   * `chunks` and `references` are empty and `document.text` is "" (all of it is in the records, which cross the
   * thread boundary once instead of twice).
   */
  records?: ChunkRecord[];
  /** Milliseconds spent in each step (convert, parse, definitions; context and embed when done here). */
  timingsMs: Record<string, number>;
}

const MB = 1024 * 1024;

/**
 * Converts one file with the built-in converters under the configured limits (file size, PDF pages, zip
 * inflation, XML entities), then parses it and extracts definitions and cross-references; with `stages`, also writes
 * the chunks' contexts, embeds them and analyses them for the keyword index (what a file needs of no other file). Runs in an ingest worker, or in the
 * calling thread when the ingest has no workers.
 * @throws HierdocError naming the file (see `convertFile`), or from the chunker, the context writer or the embedder.
 */
export async function prepareFile(
  path: string,
  bytes: Uint8Array,
  options: PrepareOptions,
  stages: FileStages = {},
  onProgress?: (progress: FileStageProgress) => void,
  fileHash?: string,
): Promise<PreparedFile> {
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
  const timingsMs: Record<string, number> = { convert: performance.now() - t };
  t = performance.now();
  const parsed = parseDocument(document, { maxChunkTokens: options.maxChunkTokens, targetChunkTokens: options.targetChunkTokens });
  timingsMs.parse = performance.now() - t;
  t = performance.now();
  const definitions = extractDefinitions(document, parsed.sections, parsed.chunks);
  const references = extractCrossReferences(document, parsed.sections, parsed.chunks);
  timingsMs.definitions = performance.now() - t;
  const prepared: PreparedFile = { document, sections: parsed.sections, chunks: parsed.chunks, definitions, references, timingsMs };
  if (stages.context) {
    t = performance.now();
    prepared.contexts = await writeContexts(stages.context, document, parsed.chunks, { onProgress });
    timingsMs.context = performance.now() - t;
  }
  const texts = stages.embedder || stages.analyzer ? parsed.chunks.map((chunk, i) => indexedTextOf(prepared.contexts?.texts[i] ?? "", chunk.content)) : [];
  if (stages.embedder) {
    t = performance.now();
    prepared.vectors = await embedTexts(stages.embedder, texts, { onProgress });
    timingsMs.embed = performance.now() - t;
  }
  if (stages.analyzer) {
    t = performance.now();
    prepared.analyzed = analyzeBatch(stages.analyzer, texts);
    timingsMs.analyze = performance.now() - t;
  }
  if (stages.records && fileHash !== undefined) {
    t = performance.now();
    prepared.records = assembleRecords(prepared, prepared.contexts ?? { texts: [], failures: 0 }, fileHash);
    timingsMs.records = performance.now() - t;
    prepared.document = { ...document, text: "", sourceMap: undefined };
    prepared.sections = [];
    prepared.chunks = [];
    prepared.references = [];
  }
  return prepared;
}
