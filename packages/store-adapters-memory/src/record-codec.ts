import type { ChunkRecord } from "@hierdoc/core";

/**
 * The indexed text a record has unless it says otherwise: `{context}\n\n{content}`, or the content alone
 * when there is no context (what the ingest pipeline writes).
 */
export function defaultIndexedText(record: Pick<ChunkRecord, "context" | "content">): string {
  return record.context ? `${record.context}\n\n${record.content}` : record.content;
}

/**
 * A record as one line of compact JSON (no newline), the form the memory store keeps records in (as UTF-8)
 * and writes to its snapshot. `indexedText` is left out when it equals {@link defaultIndexedText} (it would
 * duplicate the context and content); {@link decodeRecord} restores it.
 * @throws TypeError when the record cannot be serialised as JSON (a cycle, a BigInt).
 */
export function recordJson(record: ChunkRecord): string {
  if (typeof record.indexedText === "string" && record.indexedText === defaultIndexedText(record)) {
    const { indexedText: _derived, ...rest } = record;
    return JSON.stringify(rest);
  }
  return JSON.stringify(record);
}

/** {@link recordJson} as UTF-8 bytes. @throws TypeError when the record cannot be serialised as JSON. */
export function encodeRecord(record: ChunkRecord): Buffer {
  return Buffer.from(recordJson(record), "utf8");
}

/**
 * The record of a line written by {@link encodeRecord} or by an earlier version of the store (which kept
 * `indexedText` in every line): a fresh object on every call, with `indexedText` restored when absent.
 * @throws SyntaxError when the line is not valid JSON.
 */
export function decodeRecord(line: Uint8Array): ChunkRecord {
  return withIndexedText(JSON.parse(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString("utf8")) as ChunkRecord);
}

/** `record` with `indexedText` set to its default when the parsed JSON had none (mutates and returns it). */
export function withIndexedText(record: ChunkRecord): ChunkRecord {
  if (record.indexedText === undefined && typeof record.content === "string") record.indexedText = defaultIndexedText(record);
  return record;
}
