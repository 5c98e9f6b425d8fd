import type { ChunkRecord } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";
import type { Metadata } from "chromadb";

/** Metadata key holding the JSON of the chunk record (without `indexedText`, which is the document). */
export const RECORD_KEY = "hierdoc_record";

/**
 * Flattens a chunk record into Chroma's scalar-only metadata plus a document.
 *
 * The document is the record's `indexedText` (what the dense leg embedded); the metadata carries the rest
 * of the record as one JSON string and the scalar fields worth filtering on (`sourcePath`, `sectionId`,
 * `chunkType`, `chunkIndex`, `fileHash`).
 */
export function encodeRecord(record: ChunkRecord): { metadata: Metadata; document: string } {
  const { indexedText, ...rest } = record;
  return {
    document: indexedText,
    metadata: {
      sourcePath: record.sourcePath,
      sectionId: record.sectionId,
      chunkType: record.chunkType,
      chunkIndex: record.chunkIndex,
      fileHash: record.fileHash,
      [RECORD_KEY]: JSON.stringify(rest),
    },
  };
}

/**
 * Rebuilds a chunk record from what {@link encodeRecord} stored.
 * @throws HierdocError E_INDEX_CORRUPT when the metadata does not hold a hierdoc record.
 */
export function decodeRecord(id: string, metadata: Metadata | null | undefined, document: string | null | undefined): ChunkRecord {
  const json = metadata?.[RECORD_KEY];
  if (typeof json !== "string") {
    throw new HierdocError("E_INDEX_CORRUPT", `chroma record "${id}" has no ${RECORD_KEY} metadata; not written by hierdoc`, {
      details: { adapter: "chroma", operation: "decode", id },
    });
  }
  try {
    const rest = JSON.parse(json) as Omit<ChunkRecord, "indexedText">;
    return { ...rest, indexedText: document ?? "" };
  } catch (err) {
    throw new HierdocError("E_INDEX_CORRUPT", `chroma record "${id}" holds invalid JSON in ${RECORD_KEY}`, {
      cause: err,
      details: { adapter: "chroma", operation: "decode", id },
    });
  }
}
