import { chunkUuid } from "@hierdoc/core";

/**
 * The Qdrant point id of a chunk id. Qdrant accepts only unsigned integers and UUIDs as point ids, and
 * chunk ids are paths (`docs/a.md_chunk_3`), so each is mapped to a name-based UUID ({@link chunkUuid}).
 * The chunk id itself is kept in the payload.
 */
export function pointId(chunkId: string): string {
  return chunkUuid(chunkId);
}
