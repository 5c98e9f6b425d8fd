import { createHash, timingSafeEqual } from "node:crypto";
import { HttpError } from "./http-errors.js";

/**
 * Compares two secrets in constant time (both are hashed first, so neither the content nor the length of
 * the expected token leaks through timing).
 */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/**
 * Checks an `Authorization: Bearer TOKEN` header against the configured token.
 * @throws HttpError 401 E_UNAUTHORIZED when no token is configured, the header is missing or malformed, or the token is wrong.
 */
export function requireBearer(header: string | undefined, token: string | undefined): void {
  const challenge = { "www-authenticate": 'Bearer realm="hierdoc"' };
  if (!token) throw new HttpError(401, "E_UNAUTHORIZED", "this endpoint needs a bearer token, and the server has none configured", { headers: challenge });
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "");
  if (!match) throw new HttpError(401, "E_UNAUTHORIZED", "missing bearer token (Authorization: Bearer TOKEN)", { headers: challenge });
  if (!safeEqual(match[1], token)) throw new HttpError(401, "E_UNAUTHORIZED", "invalid bearer token", { headers: challenge });
}
