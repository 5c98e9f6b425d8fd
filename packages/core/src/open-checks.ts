import type { StoreOpenOptions } from "./interfaces.js";
import type { StoreErrorBuilder } from "./store-errors.js";

/**
 * Checks the vector size `open` was asked for.
 * @throws HierdocError E_INVALID_ARGUMENT (built by `error`, operation "open") unless it is a positive integer.
 */
export function assertOpenDimensions(options: StoreOpenOptions, error: StoreErrorBuilder): void {
  if (!Number.isInteger(options.dimensions) || options.dimensions <= 0) {
    throw error("E_INVALID_ARGUMENT", "open", `dimensions must be a positive integer, got ${options.dimensions}`);
  }
}

/**
 * Checks that an existing index (`what`, e.g. `qdrant collection "c"`) was built with the embedder `open`
 * was asked for.
 * @throws HierdocError E_EMBEDDER_MISMATCH naming both ids (details `indexEmbedderId`, `requestedEmbedderId`).
 */
export function assertSameEmbedder(what: string, builtWith: unknown, options: StoreOpenOptions, error: StoreErrorBuilder): void {
  if (builtWith === options.embedderId) return;
  throw error(
    "E_EMBEDDER_MISMATCH",
    "open",
    `${what} was built with embedder "${String(builtWith)}", not "${options.embedderId}"; re-ingest or use the original embedder`,
    { indexEmbedderId: builtWith, requestedEmbedderId: options.embedderId },
  );
}

/**
 * Checks that an existing index (`what`) holds vectors of the size `open` was asked for (`holds` may be a
 * number or a numeric string from metadata).
 * @throws HierdocError E_DIMENSION_MISMATCH naming both sizes (details `indexDimensions`, `requestedDimensions`).
 */
export function assertSameDimensions(what: string, holds: unknown, options: StoreOpenOptions, error: StoreErrorBuilder): void {
  const size = typeof holds === "string" && holds.trim() !== "" ? Number(holds) : holds;
  if (size === options.dimensions) return;
  throw error("E_DIMENSION_MISMATCH", "open", `${what} holds ${String(holds)}-dimensional vectors, not ${options.dimensions}`, {
    indexDimensions: size,
    requestedDimensions: options.dimensions,
  });
}
