import { createHash } from "node:crypto";

/**
 * A stable, name-based UUID for a chunk id (RFC 9562 version 5 layout over SHA-1 of `"hierdoc:" + chunkId`),
 * for stores that accept only UUIDs as record ids (Qdrant points, Weaviate objects) while chunk ids are
 * paths (`docs/a.md_chunk_3`). The same chunk id always gives the same UUID; keep the chunk id itself in the
 * record's payload.
 */
export function chunkUuid(chunkId: string): string {
  const h = createHash("sha1").update("hierdoc:").update(chunkId).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
