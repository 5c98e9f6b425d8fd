import { storeError } from "./store-errors.js";

/** Where a vector is checked: the adapter, its operation, the record it belongs to and extra error details. */
export interface VectorCheckContext {
  adapter: string;
  operation: string;
  /** Id of the record the vector belongs to (upserts), named in the message. */
  recordId?: string;
  /** Extra `details` of the error (collection, index, …). */
  details?: Record<string, unknown>;
}

/**
 * Checks that `vector` is a `Float32Array` of exactly `dimensions` finite numbers, as every vector store
 * adapter must before sending it to a store.
 * @throws HierdocError E_DIMENSION_MISMATCH (details `expectedDimensions`, `actualDimensions`) for another
 *   type or length; E_INVALID_ARGUMENT for a NaN or infinite component.
 */
export function assertVector(vector: Float32Array, dimensions: number, context: VectorCheckContext): void {
  const { adapter, operation, recordId, details = {} } = context;
  const of = recordId ? ` of record "${recordId}"` : "";
  if (!(vector instanceof Float32Array) || vector.length !== dimensions) {
    const got = vector instanceof Float32Array ? `length ${vector.length}` : "not a Float32Array";
    throw storeError(adapter, "E_DIMENSION_MISMATCH", operation, `vector${of} must be a Float32Array of length ${dimensions}, got ${got}`, {
      ...details,
      expectedDimensions: dimensions,
      actualDimensions: (vector as Float32Array | undefined)?.length,
    });
  }
  for (let j = 0; j < dimensions; j++) {
    if (!Number.isFinite(vector[j])) throw storeError(adapter, "E_INVALID_ARGUMENT", operation, `vector${of} contains NaN or infinite values`, details);
  }
}


/** Checks one adapter's vectors: see {@link vectorChecker}. */
export type VectorChecker = (vector: Float32Array, operation: string, recordId?: string) => void;

/**
 * {@link assertVector} bound to one adapter instance: `dimensions()` and `details()` are read at each check
 * (the store learns its size on `open`). Use it as an adapter's `checkVector` field.
 */
export function vectorChecker(adapter: string, dimensions: () => number, details: () => Record<string, unknown> = () => ({})): VectorChecker {
  return (vector, operation, recordId) => assertVector(vector, dimensions(), { adapter, operation, recordId, details: details() });
}
