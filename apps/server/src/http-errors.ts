import { HierdocError, isHierdocError, type ErrorCode } from "@hierdoc/core";

/** Error codes the HTTP API answers with: the core codes plus the HTTP-only ones. */
export type ApiErrorCode = ErrorCode | "E_UNAUTHORIZED" | "E_FORBIDDEN" | "E_RATE_LIMITED" | "E_CONFLICT" | "E_UNAVAILABLE";

const CORE_CODE_OF: Record<string, ErrorCode> = {
  E_UNAUTHORIZED: "E_INVALID_ARGUMENT",
  E_FORBIDDEN: "E_INVALID_ARGUMENT",
  E_RATE_LIMITED: "E_INVALID_ARGUMENT",
  E_CONFLICT: "E_INDEX_LOCKED",
  E_UNAVAILABLE: "E_INTERNAL",
};

/**
 * A failure with an HTTP status. `apiCode` is what the client sees in `{error: {code}}`; `code` is the
 * nearest core code, so generic `HierdocError` handling still works.
 */
export class HttpError extends HierdocError {
  readonly status: number;
  readonly apiCode: ApiErrorCode;
  readonly headers: Record<string, string>;

  constructor(status: number, apiCode: ApiErrorCode, message: string, options: { cause?: unknown; headers?: Record<string, string>; retryable?: boolean } = {}) {
    super((CORE_CODE_OF[apiCode] ?? apiCode) as ErrorCode, message, { cause: options.cause, retryable: options.retryable ?? status === 429 });
    this.name = "HttpError";
    this.status = status;
    this.apiCode = apiCode;
    this.headers = options.headers ?? {};
  }
}

const STATUS_OF: Partial<Record<ErrorCode, number>> = {
  E_CONFIG: 400,
  E_INVALID_ARGUMENT: 400,
  E_INPUT_EMPTY: 400,
  E_UNSUPPORTED_TYPE: 400,
  E_NOT_FOUND: 404,
  E_INPUT_NOT_FOUND: 404,
  E_INDEX_MISSING: 404,
  E_INPUT_TOO_LARGE: 413,
  E_INDEX_LOCKED: 409,
  E_TIMEOUT: 503,
  E_CANCELLED: 503,
  E_STORE_UNAVAILABLE: 503,
  E_KEYWORD_UNAVAILABLE: 503,
};

/** The JSON body of an error response. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/**
 * Maps any thrown value to a status and a JSON body. HierdocErrors keep their code and message (they hold
 * no secrets or document text by contract); anything else becomes a 500 with a generic message.
 */
export function toErrorResponse(err: unknown): { status: number; body: ErrorBody; headers: Record<string, string>; internal: boolean } {
  if (err instanceof HttpError) return { status: err.status, body: { error: { code: err.apiCode, message: err.message } }, headers: err.headers, internal: false };
  if (isHierdocError(err)) {
    const status = STATUS_OF[err.code] ?? 500;
    return { status, body: { error: { code: err.code, message: err.message } }, headers: status === 503 ? { "retry-after": "1" } : {}, internal: status >= 500 };
  }
  return { status: 500, body: { error: { code: "E_INTERNAL", message: "internal server error" } }, headers: {}, internal: true };
}
