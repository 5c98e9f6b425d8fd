import { countTokens } from "./tokens.js";

/** A piece of text `[start, end)` with its exact token count. */
export interface Piece {
  start: number;
  end: number;
  tokens: number;
}

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });
const WINDOW = 2000;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029;
}

/** First non-whitespace offset in `[a, b)` (or b). */
export function skipSpace(text: string, a: number, b: number): number {
  while (a < b && isSpace(text.charCodeAt(a))) a++;
  return a;
}

/** End offset of `[a, b)` without trailing whitespace. */
export function trimEndAt(text: string, a: number, b: number): number {
  while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
  return b;
}

function safeCut(text: string, pos: number): number {
  const c = text.charCodeAt(pos - 1);
  if (c >= 0xd800 && c <= 0xdbff && pos < text.length) return pos + 1;
  if (c === 13 && text.charCodeAt(pos) === 10) return pos + 1;
  return pos;
}

function insideAtomic(atomic: Array<[number, number]>, pos: number): [number, number] | undefined {
  let lo = 0;
  let hi = atomic.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e] = atomic[mid];
    if (pos <= s) hi = mid - 1;
    else if (pos >= e) lo = mid + 1;
    else return atomic[mid];
  }
  return undefined;
}

/**
 * A break position in `(pos, hardEnd]`: the last sentence boundary in a short window before `hardEnd`,
 * else the last whitespace, else `hardEnd` itself; never inside an atomic range (code block) when a
 * break before it exists.
 */
function findBreak(text: string, pos: number, hardEnd: number, final: boolean, atomic: Array<[number, number]>): number {
  if (final) return hardEnd;
  const minCut = pos + Math.max(1, Math.floor((hardEnd - pos) / 3));
  const table = insideAtomic(atomic, hardEnd);
  if (table && table[0] <= minCut) {
    // A block too large to keep whole (a long table): cut between its rows.
    const nl = text.lastIndexOf("\n", hardEnd - 1);
    if (nl >= minCut) return nl + 1;
  }
  const winStart = Math.max(pos, hardEnd - WINDOW);
  let best = -1;
  for (const seg of segmenter.segment(text.slice(winStart, hardEnd))) {
    const at = winStart + seg.index;
    if (at > minCut && at < hardEnd) best = at;
  }
  if (best < 0) {
    for (let i = hardEnd - 1; i > minCut; i--) {
      if (isSpace(text.charCodeAt(i))) {
        best = i + 1;
        break;
      }
    }
  }
  if (best < 0) best = safeCut(text, hardEnd);
  const inAtomic = insideAtomic(atomic, best);
  if (inAtomic && inAtomic[0] > pos) best = inAtomic[0];
  return best > pos ? best : safeCut(text, Math.max(pos + 1, hardEnd));
}

/**
 * Splits `[a, b)` into pieces of at most `limit` tokens, cutting at sentence boundaries
 * (`Intl.Segmenter`, on short windows so the cost stays linear), then whitespace, then characters.
 * Pieces are trimmed of surrounding whitespace; whitespace-only text yields no piece.
 */
export function splitRange(text: string, a: number, b: number, limit: number, atomic: Array<[number, number]> = []): Piece[] {
  const out: Piece[] = [];
  const end = trimEndAt(text, a, b);
  let pos = skipSpace(text, a, end);
  let ratio = 4;
  while (pos < end) {
    const rest = end - pos;
    if (rest <= limit * ratio * 1.5) {
      const t = countTokens(text.slice(pos, end));
      if (t <= limit) {
        out.push({ start: pos, end, tokens: t });
        break;
      }
    }
    let goal = Math.max(1, Math.floor(limit * ratio));
    let cut = pos;
    let tokens = 0;
    for (;;) {
      const hard = Math.min(end, pos + goal);
      cut = findBreak(text, pos, hard, hard === end, atomic);
      const e = trimEndAt(text, pos, cut);
      tokens = countTokens(text.slice(pos, e));
      if (tokens <= limit) {
        if (e > pos) out.push({ start: pos, end: e, tokens });
        break;
      }
      goal = Math.max(1, Math.floor(((cut - pos) * limit * 0.9) / tokens));
    }
    if (tokens > 0) ratio = Math.min(8, Math.max(0.5, (cut - pos) / tokens));
    pos = skipSpace(text, cut, end);
  }
  return out;
}
