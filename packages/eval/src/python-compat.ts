/**
 * Text and number helpers that behave exactly like the Python built-ins the reference scorer
 * (`score_obliqa.py`) uses, so that TypeScript and Python agree to the last digit.
 */

/** Characters for which Python's `str.isspace()` (and `re`'s `\s` on str) is true. */
const PY_WS = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const WS_RUN = new RegExp(`[${PY_WS}]+`, "g");
const EDGE_WS = new RegExp(`^[${PY_WS}]+|[${PY_WS}]+$`, "g");
const NON_WS_RUN = new RegExp(`[^${PY_WS}]+`, "g");
const BIDI_MARKS = /[\u200e\u200f]/g;

/**
 * Normalises text for containment tests: NFKC, bidi marks removed, whitespace runs collapsed to one
 * space, trimmed, lower-cased (Python `norm()` of the reference scorer). `null`/`undefined` give "".
 */
export function normalizeText(text: string | null | undefined): string {
  if (typeof text !== "string" || text.length === 0) return "";
  return text.normalize("NFKC").replace(BIDI_MARKS, "").replace(WS_RUN, " ").replace(EDGE_WS, "").toLowerCase();
}

/** True when Python's `str.strip()` would leave something of `text`. */
export function hasNonWhitespace(text: string | null | undefined): text is string {
  return typeof text === "string" && text.replace(EDGE_WS, "").length > 0;
}

/** Number of whitespace-separated words, as Python's `len(text.split())`. */
export function countWords(text: string | null | undefined): number {
  if (typeof text !== "string") return 0;
  return text.match(NON_WS_RUN)?.length ?? 0;
}

/** Length in Unicode code points (Python `len`), not UTF-16 code units. */
export function codePointLength(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The first `count` code points of `text` (Python `text[:count]`). */
export function codePointPrefix(text: string, count: number): string {
  if (text.length <= count) return text;
  let units = 0;
  for (let seen = 0; seen < count && units < text.length; seen++) {
    const c = text.charCodeAt(units);
    const d = text.charCodeAt(units + 1);
    units += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, units);
}

/**
 * The file stem used to match a result's `source_path` to a document: basename without its last
 * extension, normalised (Python `norm(os.path.splitext(os.path.basename(p))[0])` on POSIX paths).
 */
export function pathStem(sourcePath: string | null | undefined): string {
  const p = typeof sourcePath === "string" ? sourcePath : "";
  const base = p.slice(p.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  let stem = base;
  if (dot > 0) {
    for (let i = 0; i < dot; i++) {
      if (base[i] !== ".") {
        stem = base.slice(0, dot);
        break;
      }
    }
  }
  return normalizeText(stem);
}

/**
 * Rounds like Python's `round(x, digits)`: on the exact binary value, ties to even, then back to the
 * nearest double. Use it to print numbers identical to the reference scorer's.
 */
export function pyRound(x: number, digits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const expBits = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp = -1074;
  if (expBits !== 0) {
    mantissa |= 1n << 52n;
    exp = expBits - 1075;
  }
  let num = mantissa * 10n ** BigInt(digits);
  let den = 1n;
  if (exp >= 0) num <<= BigInt(exp);
  else den <<= BigInt(-exp);
  let q = num / den;
  const twiceRem = 2n * (num - q * den);
  if (twiceRem > den || (twiceRem === den && (q & 1n) === 1n)) q += 1n;
  const rounded = Number(`${q}e-${digits}`);
  return x < 0 ? -rounded : rounded;
}
