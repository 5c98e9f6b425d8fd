import { describe, expect, it } from "@jest/globals";
import {
  HierdocError,
  NETWORK_ERROR_CODES,
  assertOpenDimensions,
  assertSameDimensions,
  assertSameEmbedder,
  assertVector,
  classifyHttpFailure,
  describeThrown,
  keepLastById,
  networkFailure,
  retryDelayMs,
  storeError,
  storeErrorBuilder,
  storeFailure,
  vectorChecker,
  withStoreRetry,
  withTimeLimit,
} from "@hierdoc/core";

const ctx = { adapter: "fake", operation: "upsert", details: { collection: "c1" } };

function thrown(fn: () => void): HierdocError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HierdocError) return err;
    throw err;
  }
  throw new Error("expected a HierdocError, nothing was thrown");
}

describe("assertVector", () => {
  it("accepts a Float32Array of the right length with finite values", () => {
    expect(() => assertVector(new Float32Array([0.5, -1, 0]), 3, ctx)).not.toThrow();
  });

  it("rejects a wrong length with E_DIMENSION_MISMATCH naming the record, both sizes and the adapter's details", () => {
    const err = thrown(() => assertVector(new Float32Array(2), 3, { ...ctx, recordId: "a.md_chunk_0" }));
    expect(err.code).toBe("E_DIMENSION_MISMATCH");
    expect(err.message).toBe('vector of record "a.md_chunk_0" must be a Float32Array of length 3, got length 2');
    expect(err.details).toEqual({ adapter: "fake", operation: "upsert", collection: "c1", expectedDimensions: 3, actualDimensions: 2 });
    expect(err.retryable).toBe(false);
  });

  it("rejects a plain array as not a Float32Array", () => {
    const err = thrown(() => assertVector([1, 2, 3] as unknown as Float32Array, 3, { adapter: "fake", operation: "vectorSearch" }));
    expect(err.code).toBe("E_DIMENSION_MISMATCH");
    expect(err.message).toBe("vector must be a Float32Array of length 3, got not a Float32Array");
    expect(err.details.operation).toBe("vectorSearch");
  });

  it.each([NaN, Infinity, -Infinity])("rejects %p with E_INVALID_ARGUMENT", (bad) => {
    const err = thrown(() => assertVector(new Float32Array([1, bad, 0]), 3, { ...ctx, recordId: "r" }));
    expect(err.code).toBe("E_INVALID_ARGUMENT");
    expect(err.message).toBe('vector of record "r" contains NaN or infinite values');
    expect(err.details).toEqual({ adapter: "fake", operation: "upsert", collection: "c1" });
  });
});

describe("storeError / storeFailure / describeThrown", () => {
  it("storeError puts adapter and operation first in details, with cause and retryable", () => {
    const cause = new Error("x");
    const err = storeError("fake", "E_STORE", "open", "not open", { index: "i" }, { cause, retryable: true });
    expect(err.toJSON()).toEqual({ code: "E_STORE", message: "not open", retryable: true, details: { adapter: "fake", operation: "open", index: "i" } });
    expect(err.cause).toBe(cause);
  });

  it("storeFailure names the location only when the store is unavailable", () => {
    const base = { adapter: "pinecone", operation: "count", retryable: true, reason: "boom", location: "h:1", cause: null };
    expect(storeFailure({ ...base, code: "E_STORE_UNAVAILABLE", label: "pinecone index" }).message).toBe("pinecone index at h:1 is unavailable: count failed: boom");
    expect(storeFailure({ ...base, code: "E_STORE_UNAVAILABLE" }).message).toBe("pinecone at h:1 is unavailable: count failed: boom");
    const other = storeFailure({ ...base, code: "E_STORE", retryable: false, details: { host: "h:1", status: 400 } });
    expect(other.message).toBe("pinecone: count failed: boom");
    expect(other.retryable).toBe(false);
    expect(other.details).toEqual({ adapter: "pinecone", operation: "count", host: "h:1", status: 400 });
  });

  it("describeThrown reads name and message as fields (cross-realm errors) and falls back to String()", () => {
    expect(describeThrown({ name: "AbortError", message: "aborted" })).toEqual({ name: "AbortError", message: "aborted" });
    expect(describeThrown("plain")).toEqual({ name: "", message: "plain" });
    expect(describeThrown(null)).toEqual({ name: "", message: "null" });
  });
});

describe("classifyHttpFailure / networkFailure", () => {
  it.each([
    [429, "E_STORE_UNAVAILABLE", true],
    [502, "E_STORE_UNAVAILABLE", true],
    [503, "E_STORE_UNAVAILABLE", true],
    [504, "E_STORE_UNAVAILABLE", true],
    [500, "E_STORE", true],
    [501, "E_STORE", true],
    [400, "E_STORE", false],
    [401, "E_STORE", false],
    [404, "E_STORE", false],
    ["ECONNREFUSED", "E_STORE_UNAVAILABLE", true],
  ])("%p → %s (retryable %p)", (failure, code, retryable) => {
    expect(classifyHttpFailure(failure)).toEqual({ code, retryable });
  });

  it("finds a socket code anywhere in the cause chain", () => {
    const err = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }) });
    expect(networkFailure(err)).toBe("ECONNREFUSED");
    expect(networkFailure(Object.assign(new Error("x"), { code: "EPIPE" }))).toBe("EPIPE");
  });

  it("reports a code-less fetch failure by its cause's message, or as 'fetch failed'", () => {
    expect(networkFailure(new TypeError("fetch failed", { cause: new Error("other side closed") }))).toBe("other side closed");
    expect(networkFailure(new TypeError("fetch failed"))).toBe("fetch failed");
  });

  it("ignores other errors unless their code is one of extraCodes", () => {
    const sdk = Object.assign(new Error("send failed"), { code: "REQUEST_SEND_ERROR" });
    expect(networkFailure(sdk)).toBeUndefined();
    expect(networkFailure(sdk, ["REQUEST_SEND_ERROR"])).toBe("REQUEST_SEND_ERROR");
    expect(networkFailure(new Error("bad request"))).toBeUndefined();
    expect(NETWORK_ERROR_CODES.has("ECONNRESET")).toBe(true);
  });
});

describe("withStoreRetry", () => {
  const map = (err: unknown): HierdocError =>
    err instanceof HierdocError ? err : new HierdocError("E_STORE_UNAVAILABLE", String((err as Error).message), { retryable: true, details: { adapter: "fake" } });

  it("retries retryable failures and returns the first success", async () => {
    const seen: number[] = [];
    const out = await withStoreRetry({ retries: 3, baseDelayMs: 1 }, map, async (attempt) => {
      seen.push(attempt);
      if (attempt < 2) throw new Error("down");
      return "ok";
    });
    expect(out).toBe("ok");
    expect(seen).toEqual([0, 1, 2]);
  });

  it("gives up after `retries` retries with details.attempts", async () => {
    let calls = 0;
    const err = await withStoreRetry({ retries: 2, baseDelayMs: 1 }, map, async () => {
      calls++;
      throw new Error("still down");
    }).catch((e: unknown) => e as HierdocError);
    expect(calls).toBe(3);
    expect(err).toBeInstanceOf(HierdocError);
    expect(err.details.attempts).toBe(3);
  });

  it("does not retry a non-retryable error and leaves attempts unset", async () => {
    let calls = 0;
    const err = await withStoreRetry({ retries: 5, baseDelayMs: 1 }, map, async () => {
      calls++;
      throw new HierdocError("E_STORE", "bad request");
    }).catch((e: unknown) => e as HierdocError);
    expect(calls).toBe(1);
    expect(err.code).toBe("E_STORE");
    expect(err.details.attempts).toBeUndefined();
  });

  it("reports a retryable E_TIMEOUT at once, recording the policy's timeoutMs", async () => {
    let calls = 0;
    const err = await withStoreRetry({ retries: 5, baseDelayMs: 1, timeoutMs: 250 }, map, async () => {
      calls++;
      throw new HierdocError("E_TIMEOUT", "slow", { retryable: true });
    }).catch((e: unknown) => e as HierdocError);
    expect(calls).toBe(1);
    expect(err.code).toBe("E_TIMEOUT");
    expect(err.details.timeoutMs).toBe(250);
  });

  it("doubles the delay each retry within the jitter range", () => {
    for (let i = 0; i < 20; i++) {
      const d0 = retryDelayMs({ retries: 3, baseDelayMs: 100 }, 0);
      const d2 = retryDelayMs({ retries: 3, baseDelayMs: 100 }, 2);
      const p = retryDelayMs({ retries: 3, baseDelayMs: 100, jitter: [0.5, 1] }, 1);
      expect(d0).toBeGreaterThanOrEqual(75);
      expect(d0).toBeLessThan(125);
      expect(d2).toBeGreaterThanOrEqual(300);
      expect(d2).toBeLessThan(500);
      expect(p).toBeGreaterThanOrEqual(100);
      expect(p).toBeLessThan(200);
    }
  });
});

describe("withTimeLimit", () => {
  it("passes a result through and rejects with onTimeout() when the promise is too slow", async () => {
    await expect(withTimeLimit(Promise.resolve(7), 50, () => new Error("late"))).resolves.toBe(7);
    await expect(withTimeLimit(Promise.reject(new Error("own")), 50, () => new Error("late"))).rejects.toThrow("own");
    const never = new Promise<never>(() => undefined);
    await expect(withTimeLimit(never, 10, () => new HierdocError("E_TIMEOUT", "late"))).rejects.toMatchObject({ code: "E_TIMEOUT" });
  });
});

describe("keepLastById", () => {
  it("keeps the last occurrence of each id and returns the input itself when ids are unique", () => {
    const items = [{ id: "a", v: 1 }, { id: "b", v: 2 }, { id: "a", v: 3 }];
    expect(keepLastById(items, (x) => x.id)).toEqual([{ id: "b", v: 2 }, { id: "a", v: 3 }]);
    const unique = [{ id: "a" }, { id: "b" }];
    expect(keepLastById(unique, (x) => x.id)).toBe(unique);
  });
});

describe("storeErrorBuilder / vectorChecker", () => {
  it("read the instance's details and size when an error is built, not when bound", () => {
    const store = { index: "before", dimensions: 0 };
    const error = storeErrorBuilder("fake", () => ({ index: store.index }));
    const check = vectorChecker("fake", () => store.dimensions, () => ({ index: store.index }));
    store.index = "after";
    store.dimensions = 2;
    const cause = new Error("io");
    const err = error("E_STORE", "scan", "cannot read", { file: "x" }, cause);
    expect(err.toJSON()).toEqual({ code: "E_STORE", message: "cannot read", retryable: false, details: { adapter: "fake", operation: "scan", index: "after", file: "x" } });
    expect(err.cause).toBe(cause);
    expect(() => check(new Float32Array(2), "vectorSearch")).not.toThrow();
    const bad = thrown(() => check(new Float32Array(3), "upsert", "r1"));
    expect(bad.details).toEqual({ adapter: "fake", operation: "upsert", index: "after", expectedDimensions: 2, actualDimensions: 3 });
    expect(storeErrorBuilder("bare")("E_CONFIG", "configure", "no").details).toEqual({ adapter: "bare", operation: "configure" });
  });
});

describe("open checks", () => {
  const error = storeErrorBuilder("fake", () => ({ collection: "c" }));
  const open = { embedderId: "emb/a@1", dimensions: 4 };

  it("assertOpenDimensions accepts a positive integer and rejects anything else with E_INVALID_ARGUMENT", () => {
    expect(() => assertOpenDimensions(open, error)).not.toThrow();
    for (const dimensions of [0, -1, 2.5, NaN]) {
      const err = thrown(() => assertOpenDimensions({ ...open, dimensions }, error));
      expect([err.code, err.details.operation, err.message]).toEqual(["E_INVALID_ARGUMENT", "open", `dimensions must be a positive integer, got ${dimensions}`]);
    }
  });

  it("assertSameEmbedder names both embedder ids", () => {
    expect(() => assertSameEmbedder('fake collection "c"', "emb/a@1", open, error)).not.toThrow();
    const err = thrown(() => assertSameEmbedder('fake collection "c"', "emb/b@2", open, error));
    expect(err.code).toBe("E_EMBEDDER_MISMATCH");
    expect(err.message).toBe('fake collection "c" was built with embedder "emb/b@2", not "emb/a@1"; re-ingest or use the original embedder');
    expect(err.details).toEqual({ adapter: "fake", operation: "open", collection: "c", indexEmbedderId: "emb/b@2", requestedEmbedderId: "emb/a@1" });
  });

  it("assertSameDimensions compares numbers and numeric metadata strings, and names both sizes", () => {
    expect(() => assertSameDimensions("t", 4, open, error)).not.toThrow();
    expect(() => assertSameDimensions("t", "4", open, error)).not.toThrow();
    const err = thrown(() => assertSameDimensions("fake table t", "8", open, error));
    expect(err.code).toBe("E_DIMENSION_MISMATCH");
    expect(err.message).toBe("fake table t holds 8-dimensional vectors, not 4");
    expect(err.details).toMatchObject({ indexDimensions: 8, requestedDimensions: 4 });
    expect(thrown(() => assertSameDimensions("t", undefined, open, error)).message).toBe("t holds undefined-dimensional vectors, not 4");
    expect(() => assertSameDimensions("t", "", open, error)).toThrow();
  });
});
