import { describe, expect, it } from "@jest/globals";
import { batchesOf, fetchInOrder, type ChunkRecord } from "@hierdoc/core";
import { makeRecord } from "@hierdoc/core/testing";

describe("batchesOf", () => {
  it("cuts into consecutive slices of at most size", () => {
    expect(batchesOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(batchesOf([1, 2], 5)).toEqual([[1, 2]]);
    expect(batchesOf([1, 2, 3], Infinity)).toEqual([[1, 2, 3]]);
    expect(batchesOf([], 3)).toEqual([]);
  });
});

describe("fetchInOrder", () => {
  const store = new Map(["a", "b", "c", "d", "e"].map((id, i) => [id, makeRecord(i, { id })]));

  it("fetches in batches, one after another, and answers in the asked order, skipping unknown ids", async () => {
    const calls: string[][] = [];
    const out = await fetchInOrder(["e", "x", "a", "c", "b"], 2, async (batch) => {
      calls.push(batch);
      // answer in reverse order, without unknown ids
      return batch.flatMap((id) => store.get(id) ?? []).reverse();
    });
    expect(calls).toEqual([["e", "x"], ["a", "c"], ["b"]]);
    expect(out.map((r: ChunkRecord) => r.id)).toEqual(["e", "a", "c", "b"]);
  });

  it("repeats a repeated id and makes no call for no ids", async () => {
    let calls = 0;
    const fetch = async (batch: string[]): Promise<ChunkRecord[]> => {
      calls++;
      return batch.flatMap((id) => store.get(id) ?? []);
    };
    expect((await fetchInOrder(["a", "a"], 10, fetch)).map((r) => r.id)).toEqual(["a", "a"]);
    expect(await fetchInOrder([], 10, fetch)).toEqual([]);
    expect(calls).toBe(1);
  });
});
