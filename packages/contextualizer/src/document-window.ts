/** Rough characters per token for English legal/technical text; conservative so windows fit. */
export const CHARS_PER_TOKEN = 3.5;

/** Estimated token count of a text (characters / {@link CHARS_PER_TOKEN}, rounded up). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The part of a document sent with one chunk. */
export interface DocumentWindow {
  /** Text sent as the document (the whole document, or a slice marked with `[…]` at cut edges). */
  text: string;
  /** Index of the window (0 when the whole document fits); chunks with the same index share a cached prefix. */
  index: number;
  /** True when the document was cut. */
  windowed: boolean;
}

/**
 * Picks the slice of `documentText` sent with the chunk at `[start, end)` when the document is longer than
 * `maxChars`. Windows are fixed (length `maxChars`, stride `maxChars / 2`), not centred per chunk, so the
 * chunks that share a window also share a prompt-cache prefix; the chosen window is the one whose centre is
 * nearest the chunk's centre, which contains the whole chunk when the chunk is at most `maxChars / 2` long.
 */
export function documentWindow(documentText: string, start: number, end: number, maxChars: number): DocumentWindow {
  const length = documentText.length;
  if (length <= maxChars || maxChars <= 0) return { text: documentText, index: 0, windowed: false };
  const size = Math.max(1, Math.floor(maxChars));
  const stride = Math.max(1, Math.floor(size / 2));
  const last = Math.ceil(Math.max(0, length - size) / stride);
  const centre = (Math.max(0, start) + Math.min(length, end)) / 2;
  const index = Math.min(last, Math.max(0, Math.round((centre - size / 2) / stride)));
  const from = Math.min(index * stride, Math.max(0, length - size));
  const to = Math.min(length, from + size);
  const text = `${from > 0 ? "[…]\n" : ""}${documentText.slice(from, to)}${to < length ? "\n[…]" : ""}`;
  return { text, index, windowed: true };
}
