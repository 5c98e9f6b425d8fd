import { chunkUuid } from "@hierdoc/core";

/**
 * The Weaviate object id of a chunk id. Weaviate object ids must be UUIDs, and chunk ids are paths
 * (`docs/a.md_chunk_3`), so each is mapped to a name-based UUID ({@link chunkUuid}). The chunk id itself is
 * kept in the `chunkId` property.
 */
export function objectId(chunkId: string): string {
  return chunkUuid(chunkId);
}
