import { createHash } from "node:crypto";

/**
 * The Weaviate object id of a chunk id. Weaviate object ids must be UUIDs, and
 * chunk ids are paths (`docs/a.md_chunk_3`), so each is mapped to a name-based UUID (RFC 9562 version 5
 * layout over SHA-1 of the chunk id). The chunk id itself is kept in the `chunkId` property.
 */
export function objectId(chunkId: string): string {
  const h = createHash("sha1").update("hierdoc:").update(chunkId).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
