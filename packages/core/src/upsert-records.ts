import type { StoreRecord } from "./interfaces.js";
import { keepLastById } from "./keep-last-by-id.js";
import type { StoreErrorBuilder } from "./store-errors.js";
import type { VectorChecker } from "./vector-check.js";

/** What an adapter checks every upserted record with. */
export interface UpsertRecordChecks {
  /** The adapter's bound vector check ({@link vectorChecker}). */
  checkVector: VectorChecker;
  /** The adapter's error builder ({@link storeErrorBuilder}); its details go into the error. */
  error: StoreErrorBuilder;
  /** The store's limit on an id's UTF-8 length, when it has one (named in the message). */
  maxIdBytes?: number;
}

/**
 * Checks a whole upsert batch before anything is written: every record has a non-empty string id (of at most
 * `maxIdBytes` UTF-8 bytes when given) and a vector of the store's size. Call it first in `upsert`.
 * @throws HierdocError E_INVALID_ARGUMENT for a missing, empty or too long id or a NaN/infinite component;
 *   E_DIMENSION_MISMATCH for a vector of another length or type.
 */
export function assertUpsertRecords(records: StoreRecord[], checks: UpsertRecordChecks): void {
  const { checkVector, error, maxIdBytes } = checks;
  for (const { record, vector } of records) {
    if (typeof record?.id !== "string" || record.id.length === 0 || (maxIdBytes !== undefined && Buffer.byteLength(record.id) > maxIdBytes)) {
      const limit = maxIdBytes === undefined ? "" : ` of at most ${maxIdBytes} bytes`;
      throw error("E_INVALID_ARGUMENT", "upsert", `every record needs a non-empty string id${limit}`);
    }
    checkVector(vector, "upsert", record.id);
  }
}

/**
 * {@link assertUpsertRecords}, then the records with one entry per id, the last occurrence winning
 * ({@link keepLastById}), as sequential upserts would leave the store. Use it where a store rejects or
 * mis-orders a repeated id inside one batch.
 * @throws as {@link assertUpsertRecords}.
 */
export function uniqueUpsertRecords(records: StoreRecord[], checks: UpsertRecordChecks): StoreRecord[] {
  assertUpsertRecords(records, checks);
  return keepLastById(records, (r) => r.record.id);
}
