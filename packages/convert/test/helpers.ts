import { HierdocError, type ErrorCode } from "@hierdoc/core";

/** UTF-8 bytes of a string. */
export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Calls `fn` and returns the HierdocError it throws (failing when it throws nothing or something else). */
export async function caught(fn: () => unknown): Promise<HierdocError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof HierdocError) return err;
    throw new Error(`expected a HierdocError, got ${String(err)}`);
  }
  throw new Error("expected a HierdocError, nothing was thrown");
}

/** Asserts `fn` throws a HierdocError with `code` that names `file`. */
export async function expectFileError(fn: () => unknown, code: ErrorCode, file: string): Promise<HierdocError> {
  const err = await caught(fn);
  expect(err.code).toBe(code);
  expect(err.details.file).toBe(file);
  expect(err.message).toContain(file);
  return err;
}

/** ATX heading lines of a markdown text, skipping fenced code. */
export function headingLines(md: string): string[] {
  const out: string[] = [];
  let fence = false;
  for (const line of md.split("\n")) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) fence = !fence;
    else if (!fence && /^#{1,6} /.test(line)) out.push(line);
  }
  return out;
}
