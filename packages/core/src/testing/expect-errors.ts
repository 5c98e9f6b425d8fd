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

function describeError(err: unknown): string {
  if (err instanceof HierdocError) return `HierdocError ${JSON.stringify(err.toJSON())}`;
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

/**
 * Awaits `action` and asserts it rejects with a {@link HierdocError} carrying the code, adapter and
 * operation (works in any test runner). Returns the error for further checks.
 * @throws Error describing the difference when it resolves or rejects with anything else.
 */
export async function expectHierdocError(
  action: Promise<unknown> | (() => Promise<unknown>),
  expected: ExpectedStoreError,
): Promise<HierdocError> {
  let caught: unknown;
  try {
    await (typeof action === "function" ? action() : action);
  } catch (err) {
    caught = err;
  }
  const want = JSON.stringify(expected);
  if (caught === undefined) throw new Error(`expected a HierdocError ${want}, but the call succeeded`);
  if (!(caught instanceof HierdocError)) throw new Error(`expected a HierdocError ${want}, got ${describeError(caught)}`);
  const problems: string[] = [];
  if (caught.code !== expected.code) problems.push(`code is ${caught.code}`);
  if (caught.message.trim().length === 0) problems.push("message is empty");
  if (expected.adapter !== undefined && caught.details.adapter !== expected.adapter) {
    problems.push(`details.adapter is ${JSON.stringify(caught.details.adapter)}`);
  }
  const op = caught.details.operation;
  if (expected.operation !== undefined ? op !== expected.operation : !(typeof op === "string" && op.length > 0)) {
    problems.push(`details.operation is ${JSON.stringify(op)}`);
  }
  if (expected.retryable !== undefined && caught.retryable !== expected.retryable) problems.push(`retryable is ${caught.retryable}`);
  if (problems.length > 0) throw new Error(`expected a HierdocError ${want}, but ${problems.join(", ")}: ${describeError(caught)}`);
  return caught;
}

/**
 * Asserts that `action` fails the way an unreachable store must: `HierdocError` E_STORE_UNAVAILABLE,
 * retryable, naming the adapter and the operation.
 * @throws Error describing the difference otherwise.
 */
export function expectStoreUnavailable(
  action: Promise<unknown> | (() => Promise<unknown>),
  expected: { adapter: string; operation?: string },
): Promise<HierdocError> {
  return expectHierdocError(action, { code: "E_STORE_UNAVAILABLE", retryable: true, ...expected });
}
