import { describe, expect, it } from "@jest/globals";
import { HierdocError, assertUpsertRecords, distinctQueryWords, storeErrorBuilder, uniqueUpsertRecords, vectorChecker, type StoreRecord } from "@hierdoc/core";
import { expectHierdocError, makeStoreRecord } from "@hierdoc/core/testing";

const checks = { checkVector: vectorChecker("fake", () => 4), error: storeErrorBuilder("fake", () => ({ collection: "c1" })) };
const rec = (i: number, id?: string): StoreRecord => {
  const r = makeStoreRecord(i, { dimensions: 4 });
  return id === undefined ? r : { ...r, record: { ...r.record, id } };
};

/** The HierdocError a synchronous check throws (asserting its code, adapter and operation). */
const thrown = (fn: () => void, code: HierdocError["code"]) => expectHierdocError(async () => fn(), { code, adapter: "fake", operation: "upsert" });

describe("assertUpsertRecords / uniqueUpsertRecords", () => {
  it("rejects an empty id with E_INVALID_ARGUMENT naming the operation and the adapter's details", async () => {
    const err = await thrown(() => assertUpsertRecords([rec(0), rec(1, "")], checks), "E_INVALID_ARGUMENT");
    expect(err.message).toMatch(/every record needs a non-empty string id$/);
    expect(err.details).toMatchObject({ adapter: "fake", operation: "upsert", collection: "c1" });
  });

  it("rejects an id over maxIdBytes (UTF-8 bytes, not characters) and names the limit", async () => {
    expect(() => assertUpsertRecords([rec(0, "é".repeat(3))], { ...checks, maxIdBytes: 6 })).not.toThrow();
    const err = await thrown(() => assertUpsertRecords([rec(0, "é".repeat(4))], { ...checks, maxIdBytes: 6 }), "E_INVALID_ARGUMENT");
    expect(err.message).toMatch(/non-empty string id of at most 6 bytes$/);
  });

  it("checks every vector before returning: a wrong length anywhere is E_DIMENSION_MISMATCH naming the record", async () => {
    const bad = { ...rec(2), vector: new Float32Array(3) };
    const err = await thrown(() => uniqueUpsertRecords([rec(0), rec(1), bad], checks), "E_DIMENSION_MISMATCH");
    expect(err.message).toContain(`"${bad.record.id}"`);
  });

  it("keeps the last record of a repeated id at its position, and returns the input itself when no id repeats", () => {
    const a = rec(0, "a"), b = rec(1, "b"), a2 = rec(2, "a");
    expect(uniqueUpsertRecords([a, b, a2], checks)).toEqual([b, a2]);
    const distinct = [a, b];
    expect(uniqueUpsertRecords(distinct, checks)).toBe(distinct);
  });
});

describe("distinctQueryWords", () => {
  it("lower-cases Unicode letter/digit runs, drops repeats in order of first use and caps the count", () => {
    expect(distinctQueryWords("Right to ERASURE: right, Straße 17(1)")).toEqual(["right", "to", "erasure", "straße", "17", "1"]);
    expect(distinctQueryWords("a b c d", 2)).toEqual(["a", "b"]);
    expect(distinctQueryWords("—!")).toEqual([]);
  });
});
