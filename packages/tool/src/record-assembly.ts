import type { Chunk, ChunkRecord, ConvertedDocument, Section } from "@hierdoc/core";
import type { ExtractedDefinition, LocatedCrossReference } from "@hierdoc/definitions";
import { indexedTextOf, type FileContexts } from "./file-stages.js";

/** Prefix of the stored file hash of a file indexed with missing contexts (re-processed next time). */
export const INCOMPLETE_CONTEXT = "incomplete-context:";

/** What assembling one file's records reads: the file as parsed, its definitions and references. */
export interface ParsedParts {
  document: ConvertedDocument;
  sections: Section[];
  chunks: Chunk[];
  definitions: ExtractedDefinition[];
  references: LocatedCrossReference[];
}

/**
 * The stored file hash: `fileHash`, marked {@link INCOMPLETE_CONTEXT} when some contexts did not come back, so the
 * next ingest processes the file again (its successful contexts come from the generator's cache).
 */
export function storedHashOf(fileHash: string, contextFailures: number): string {
  return contextFailures > 0 ? `${INCOMPLETE_CONTEXT}${fileHash}` : fileHash;
}

/**
 * The chunk records of one file, in chunk order: each chunk with its context, indexed text, section aliases,
 * definitions and cross-references. The same code runs in an ingest worker and in the ingesting thread, so the
 * records (and their key order, which the stores' encodings follow) are the same wherever they were built.
 */
export function assembleRecords(parts: ParsedParts, contexts: FileContexts, fileHash: string): ChunkRecord[] {
  const { document: doc, chunks } = parts;
  const storedHash = storedHashOf(fileHash, contexts.failures);
  const sectionAliases = new Map(parts.sections.map((s) => [s.sectionId, s.aliases]));
  // Grouped once (in file order): a filter per chunk was quadratic, ~17% of the main thread's ingest CPU on ObliQA.
  const definitionsOf = groupBy(parts.definitions, (d) => d.chunkId);
  const referencesOf = groupBy(parts.references, (x) => x.chunkId);
  return chunks.map((chunk, i) => {
    const context = contexts.texts[i] ?? "";
    return {
      ...chunk,
      context,
      indexedText: indexedTextOf(context, chunk.content),
      fileHash: storedHash,
      fileChunkCount: chunks.length,
      fileType: doc.fileType,
      sectionAliases: sectionAliases.get(chunk.sectionId) ?? [],
      definitions: definitionsOf.get(chunk.id) ?? [],
      crossReferences: (referencesOf.get(chunk.id) ?? []).map(({ text, fromSectionId, targetSectionId, external, citedDocument }) => ({ text, fromSectionId, targetSectionId, external, citedDocument })),
    };
  });
}

/** The items of `items` by key, each list in the items' order. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
