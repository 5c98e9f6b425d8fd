import type { ChunkRecord } from "./document.js";

/**
 * `items` cut into consecutive slices of at most `size` (the last may be shorter; none when `items` is
 * empty), for stores that limit how many ids or records one request may carry.
 */
export function batchesOf<T>(items: readonly T[], size: number): T[][] {
  const step = Math.max(1, Math.floor(size));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += step) out.push(items.slice(i, i + step));
  return out;
}

/**
 * Fetches records by id, `batchSize` ids per `fetch` call (one call after another), and returns them in the
 * order of `ids`: `fetch` may answer in any order and skip unknown ids; an unknown id is left out, a
 * repeated id is repeated. The usual body of a vector store adapter's `get`.
 */
export async function fetchInOrder(
  ids: readonly string[],
  batchSize: number,
  fetch: (batch: string[]) => Promise<Iterable<ChunkRecord>>,
): Promise<ChunkRecord[]> {
  const found = new Map<string, ChunkRecord>();
  for (const batch of batchesOf(ids, batchSize)) for (const record of await fetch(batch)) found.set(record.id, record);
  return ids.flatMap((id) => found.get(id) ?? []);
}
