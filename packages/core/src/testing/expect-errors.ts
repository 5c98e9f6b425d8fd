import { expect } from "@jest/globals";
import { HierdocError, type ErrorCode } from "../errors.js";

/** What an adapter error must say. */
export interface ExpectedStoreError {
  code: ErrorCode;
  /** Expected `details.adapter`. */
  adapter?: string;
  /** Expected `details.operation`; when omitted, any non-empty operation passes. */
  operation?: string;
  /** Expected `retryable` flag, when it matters. */
  retryable?: boolean;
}

/**
 * Awaits `action` and asserts it rejects with a {@link HierdocError} carrying the code, adapter and
 * operation. Returns the error for further checks.
 * @throws the Jest assertion error when it resolves or rejects with anything else.
 */
export async function expectHierdocError(
  action: Promise<unknown> | (() => Promise<unknown>),
  expected: ExpectedStoreError,
): Promise<HierdocError> {
  let caught: unknown;
  let resolved = false;
  try {
    await (typeof action === "function" ? action() : action);
    resolved = true;
  } catch (err) {
    caught = err;
  }
  if (resolved) throw new Error(`expected a HierdocError ${expected.code}, but the call succeeded`);
  if (!(caught instanceof HierdocError)) {
    throw new Error(`expected a HierdocError ${expected.code}, got ${String((caught as Error)?.stack ?? caught)}`);
  }
  expect({ code: caught.code, message: caught.message }).toEqual({ code: expected.code, message: expect.any(String) });
  expect(caught.message.length).toBeGreaterThan(0);
  if (expected.adapter !== undefined) expect(caught.details.adapter).toBe(expected.adapter);
  if (expected.operation !== undefined) expect(caught.details.operation).toBe(expected.operation);
  else expect(typeof caught.details.operation === "string" && caught.details.operation.length > 0).toBe(true);
  if (expected.retryable !== undefined) expect(caught.retryable).toBe(expected.retryable);
  return caught;
}

/**
 * Asserts that `action` fails the way an unreachable store must: `HierdocError` E_STORE_UNAVAILABLE,
 * retryable, naming the adapter and the operation.
 */
export function expectStoreUnavailable(
  action: Promise<unknown> | (() => Promise<unknown>),
  expected: { adapter: string; operation?: string },
): Promise<HierdocError> {
  return expectHierdocError(action, { code: "E_STORE_UNAVAILABLE", retryable: true, ...expected });
}
