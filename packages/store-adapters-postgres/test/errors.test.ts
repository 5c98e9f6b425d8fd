import { describe, expect, it } from "@jest/globals";
import { HierdocError } from "@hierdoc/core";
import { isConnectionError, mapPgError, withRetry } from "@hierdoc/store-adapters-postgres";

function pgError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

describe("mapPgError", () => {
  it.each([
    ["connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED"],
    ["Connection terminated unexpectedly", undefined],
    ["timeout exceeded when trying to connect", undefined],
    ["terminating connection due to administrator command", "57P01"],
    ["connection failure", "08006"],
    ["sorry, too many clients already", "53300"],
  ])("maps %s to a retryable E_STORE_UNAVAILABLE", (message, code) => {
    const err = mapPgError(pgError(message, code), "get");
    expect(err).toBeInstanceOf(HierdocError);
    expect(err.toJSON()).toMatchObject({ code: "E_STORE_UNAVAILABLE", retryable: true, details: { adapter: "postgres", operation: "get" } });
    expect(err.message).toContain(message);
    expect(err.cause).toBeInstanceOf(Error);
  });

  it("treats an AggregateError of refused addresses (IPv4 + IPv6) as a connection error", () => {
    expect(isConnectionError(new AggregateError([pgError("a", "ECONNREFUSED"), pgError("b", "ECONNREFUSED")]))).toBe(true);
  });

  it("maps pgvector's dimension error, serialization failures and other SQL errors", () => {
    expect(mapPgError(pgError("expected 8 dimensions, not 9", "22000"), "upsert").code).toBe("E_DIMENSION_MISMATCH");
    const serial = mapPgError(pgError("could not serialize access", "40001"), "upsert");
    expect([serial.code, serial.retryable]).toEqual(["E_STORE", true]);
    const syntax = mapPgError(pgError('relation "x" does not exist', "42P01"), "count");
    expect(syntax.toJSON()).toMatchObject({ code: "E_STORE", retryable: false, details: { sqlState: "42P01", operation: "count" } });
  });

  it("returns a HierdocError unchanged", () => {
    const original = new HierdocError("E_INVALID_ARGUMENT", "bad");
    expect(mapPgError(original, "get")).toBe(original);
  });
});

describe("withRetry", () => {
  it("retries connection errors with backoff until the call succeeds", async () => {
    let calls = 0;
    const result = await withRetry("get", { attempts: 4, baseDelayMs: 1 }, async () => {
      calls++;
      if (calls < 3) throw pgError("read ECONNRESET", "ECONNRESET");
      return "ok";
    });
    expect([result, calls]).toEqual(["ok", 3]);
  });

  it("gives up after the configured attempts with the mapped error", async () => {
    let calls = 0;
    const failing = withRetry("count", { attempts: 3, baseDelayMs: 1 }, async () => {
      calls++;
      throw pgError("connect ECONNREFUSED", "ECONNREFUSED");
    });
    await expect(failing).rejects.toMatchObject({ code: "E_STORE_UNAVAILABLE", details: { operation: "count", attempts: 3 } });
    expect(calls).toBe(3);
  });

  it("does not retry errors that are not retryable", async () => {
    let calls = 0;
    const failing = withRetry("count", { attempts: 5, baseDelayMs: 1 }, async () => {
      calls++;
      throw pgError("syntax error", "42601");
    });
    await expect(failing).rejects.toMatchObject({ code: "E_STORE", retryable: false });
    expect(calls).toBe(1);
  });
});
