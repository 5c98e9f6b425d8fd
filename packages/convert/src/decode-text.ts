import { fileError } from "./errors.js";

const CONTROL_SAMPLE = 8192;

/** Offset of the first invalid UTF-8 sequence in `bytes` (from `from`), or -1 when all of it is valid. */
export function findInvalidUtf8(bytes: Uint8Array, from = 0): number {
  const n = bytes.length;
  let i = from;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let cp: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
      cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
      cp = b & 0x0f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
      cp = b & 0x07;
    } else {
      return i;
    }
    if (i + need >= n) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

function lineAndColumn(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, CONTROL_SAMPLE);
  let control = 0;
  for (let i = 0; i < end; i++) {
    const b = bytes[i];
    if (b === 0) return true;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) control++;
  }
  return end > 0 && control / end > 0.1;
}

/** Replaces CRLF and lone CR line ends with LF, so offsets are the same on every platform. */
export function normalizeNewlines(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/**
 * Decodes a text file's bytes strictly: UTF-8 (with or without BOM) or UTF-16 LE/BE with a BOM.
 * The BOM is removed; line ends are not changed (see {@link normalizeNewlines}).
 *
 * Use it for every text-like input before parsing.
 *
 * @throws HierdocError `E_INPUT_BINARY` when the bytes contain NUL or are mostly control bytes,
 *   `E_INPUT_ENCODING` at the first invalid UTF-8 sequence (details: `offset`, `line`, `column`) or for
 *   malformed UTF-16 / UTF-32, `E_INPUT_EMPTY` when nothing but whitespace remains. Every error names `path`.
 */
export function decodeText(path: string, bytes: Uint8Array): string {
  let text: string;
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff) {
    throw fileError("E_INPUT_ENCODING", path, "UTF-32 BE text is not supported; convert it to UTF-8");
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0) {
    throw fileError("E_INPUT_ENCODING", path, "UTF-32 LE text is not supported; convert it to UTF-8");
  }
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    const encoding = bytes[0] === 0xff ? "utf-16le" : "utf-16be";
    if ((bytes.length - 2) % 2 !== 0) {
      throw fileError("E_INPUT_ENCODING", path, `${encoding.toUpperCase()} text has an odd number of bytes`, {
        details: { encoding, offset: bytes.length - 1 },
      });
    }
    try {
      text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(2));
    } catch (cause) {
      throw fileError("E_INPUT_ENCODING", path, `invalid ${encoding.toUpperCase()} text (unpaired surrogate)`, {
        cause,
        details: { encoding },
      });
    }
    if (text.includes("\0")) throw fileError("E_INPUT_BINARY", path, "binary content (NUL characters) in UTF-16 text");
  } else {
    const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    if (looksBinary(bytes) || bytes.indexOf(0, start) !== -1) {
      throw fileError("E_INPUT_BINARY", path, "binary content (NUL or control bytes); not a text file");
    }
    let decoded: string | undefined;
    try {
      decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.subarray(start));
    } catch {
      decoded = undefined;
    }
    const bad = decoded === undefined ? findInvalidUtf8(bytes, start) : -1;
    if (bad !== -1) {
      const { line, column } = lineAndColumn(bytes, bad);
      const hex = Array.from(bytes.subarray(bad, Math.min(bad + 4, bytes.length)), (b) =>
        b.toString(16).padStart(2, "0"),
      ).join(" ");
      throw fileError(
        "E_INPUT_ENCODING",
        path,
        `invalid UTF-8 at byte ${bad} (line ${line}, column ${column}: ${hex}); save the file as UTF-8`,
        { details: { offset: bad, line, column, encoding: "utf-8" } },
      );
    }
    text = decoded ?? new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(start));
  }
  if (text.trim() === "") throw fileError("E_INPUT_EMPTY", path, "the file is empty or contains only whitespace");
  return text;
}
