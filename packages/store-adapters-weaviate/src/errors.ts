import type { ErrorCode } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";

/** Adapter id used in every error this package throws. */
export const ADAPTER = "weaviate";

const TRANSPORT_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_CLOSED"]);

/**
 * The transport failure (ECONNREFUSED, …) of a `fetch` error, if any: Node's `fetch` reports every
 * network-level failure as `TypeError: fetch failed` with the socket error as `cause`.
 */
export function transportCode(err: unknown): string | undefined {
  let fetchFailed = false;
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && TRANSPORT_CODES.has(code)) return code;
    const message = (e as { message?: unknown }).message;
    if (depth === 0 && message === "fetch failed") fetchFailed = true;
    else if (fetchFailed && typeof message === "string") return message;
    e = (e as { cause?: unknown }).cause;
  }
  return fetchFailed ? "fetch failed" : undefined;
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
  const name = typeof (err as { name?: unknown } | null)?.name === "string" ? (err as { name: string }).name : "";
  const raw = (err as { message?: unknown } | null)?.message;
  let reason = typeof raw === "string" ? raw : String(err);
  let code: ErrorCode = "E_STORE";
  let retryable = false;
  const http = httpFailure(err);
  const transport = http === undefined ? transportCode(err) : undefined;
  if (http !== undefined) {
    reason = `HTTP ${http.status}: ${http.message}`;
    if (http.status === 429 || (http.status >= 502 && http.status <= 504)) {
      code = "E_STORE_UNAVAILABLE";
      retryable = true;
    } else if (http.status >= 500) {
      retryable = true;
    } else if (/vector lengths? don'?t match|vector.*length|dimension/i.test(http.message)) {
      code = "E_DIMENSION_MISMATCH";
    }
  } else if (transport !== undefined) {
    code = "E_STORE_UNAVAILABLE";
    retryable = true;
    reason = `${reason} (${transport})`;
  }
  const what = code === "E_STORE_UNAVAILABLE" ? `weaviate at ${url} is unavailable` : "weaviate";
  return new HierdocError(code, `${what}: ${operation} failed: ${reason}`, {
    cause: err,
    retryable,
    details: { adapter: ADAPTER, operation, url, status: http?.status, driverError: name || undefined },
  });
}

/** Retry and timeout policy for idempotent calls. */
export interface RetryPolicy {
  /** Attempts after the first one. */
  retries: number;
  /** Delay before the first retry; doubles each time (with jitter). */
  baseDelayMs: number;
  /** Time limit of one attempt (E_TIMEOUT, not retried). The client has no per-request abort, so the request itself is abandoned, not cancelled. */
  timeoutMs: number;
}

function withTimeout<T>(promise: Promise<T>, ms: number, operation: string, url: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HierdocError("E_TIMEOUT", `weaviate at ${url}: ${operation} did not answer within ${ms} ms`, {
            retryable: true,
            details: { adapter: ADAPTER, operation, url, timeoutMs: ms },
          }),
        ),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs an idempotent call with a time limit per attempt, retrying with exponential backoff and jitter while
 * the mapped error is retryable and not a timeout.
 * @throws HierdocError the mapped error of the last attempt, with `details.attempts` when it retried.
 */
export async function withRetry<T>(operation: string, url: string, policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await withTimeout(fn(), policy.timeoutMs, operation, url);
    } catch (err) {
      const mapped = mapWeaviateError(err, operation, url);
      if (!mapped.retryable || mapped.code === "E_TIMEOUT" || attempt >= policy.retries) {
        if (attempt > 0) mapped.details.attempts = attempt + 1;
        throw mapped;
      }
      const delay = policy.baseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
