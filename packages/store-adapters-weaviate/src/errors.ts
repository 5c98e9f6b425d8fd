import type { FailureClass, StoreRetryPolicy } from "@hierdoc/core";
import { HierdocError, classifyHttpFailure, describeThrown, networkFailure, storeError, storeFailure, withStoreRetry, withTimeLimit } from "@hierdoc/core";

/** Adapter id used in every error this package throws. */
export const ADAPTER = "weaviate";

/**
 * The transport failure (ECONNREFUSED, …) of a `fetch` error, if any (see `networkFailure` in
 * `@hierdoc/core`): Node's `fetch` reports every network-level failure as `TypeError: fetch failed` with the
 * socket error as `cause`.
 */
export function transportCode(err: unknown): string | undefined {
  return networkFailure(err);
}

/**
 * HTTP status and message of a weaviate-ts-client failure: REST calls reject with
 * `Error("usage error (STATUS): BODY")`; GraphQL calls reject with graphql-request's `ClientError`
 * (`response.status`, `response.errors`), also for a 200 answer carrying GraphQL `errors`.
 */
export function httpFailure(err: unknown): { status: number; message: string } | undefined {
  const cause = err instanceof HierdocError ? err.cause : err;
  const message = (cause as { message?: unknown } | null | undefined)?.message;
  if (typeof message === "string") {
    const m = /^usage error \((\d{3})\): ([\s\S]*)$/.exec(message);
    if (m !== null) return { status: Number(m[1]), message: m[2] };
  }
  const response = (cause as { response?: { status?: unknown; errors?: Array<{ message?: string }>; error?: unknown } } | null | undefined)?.response;
  if (response !== undefined && typeof response.status === "number") {
    const gql = response.errors?.map((e) => e.message ?? "").join("; ");
    return { status: response.status, message: gql || String(response.error ?? "") };
  }
  return undefined;
}

/**
 * Maps an error of weaviate-ts-client to a {@link HierdocError} naming the adapter and the operation.
 *
 * Connection refused / reset / DNS (`fetch failed`), 429 and 502–504 → `E_STORE_UNAVAILABLE` (retryable);
 * other 5xx → `E_STORE` (retryable); a vector length complaint → `E_DIMENSION_MISMATCH`; other 4xx and
 * GraphQL errors → `E_STORE`.
 */
export function mapWeaviateError(err: unknown, operation: string, url: string): HierdocError {
  if (err instanceof HierdocError) return err;
  const { name, message } = describeThrown(err);
  let reason = message;
  let failure: FailureClass = { code: "E_STORE", retryable: false };
  const http = httpFailure(err);
  const transport = http === undefined ? networkFailure(err) : undefined;
  if (http !== undefined) {
    reason = `HTTP ${http.status}: ${http.message}`;
    failure = classifyHttpFailure(http.status);
    if (http.status < 500 && http.status !== 429 && /vector lengths? don'?t match|vector.*length|dimension/i.test(http.message)) failure = { code: "E_DIMENSION_MISMATCH", retryable: false };
  } else if (transport !== undefined) {
    failure = classifyHttpFailure(transport);
    reason = `${reason} (${transport})`;
  }
  return storeFailure({ adapter: ADAPTER, operation, ...failure, reason, location: url, cause: err, details: { url, status: http?.status, driverError: name || undefined } });
}

/**
 * Retry and timeout policy for idempotent calls: `retries` after the first attempt, backoff from
 * `baseDelayMs` doubling with jitter, and `timeoutMs` per attempt (E_TIMEOUT, not retried). The client has no
 * per-request abort, so a timed-out request is abandoned, not cancelled.
 */
export type RetryPolicy = Required<Pick<StoreRetryPolicy, "retries" | "baseDelayMs" | "timeoutMs">>;

/**
 * Runs an idempotent call with a time limit per attempt, retrying with exponential backoff and jitter while
 * the mapped error is retryable and not a timeout.
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export function withRetry<T>(operation: string, url: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  const timeout = (): HierdocError =>
    storeError(ADAPTER, "E_TIMEOUT", operation, `weaviate at ${url}: ${operation} did not answer within ${policy.timeoutMs} ms`, { url, timeoutMs: policy.timeoutMs }, { retryable: true });
  return withStoreRetry(policy, (err) => mapWeaviateError(err, operation, url), () => withTimeLimit(fn(), policy.timeoutMs, timeout));
}
