import { countTokens as bpeCount } from "gpt-tokenizer/encoding/cl100k_base";

/**
 * Counts tokens of `text` with the cl100k_base BPE encoding (gpt-tokenizer), the tokenizer every
 * `maxChunkTokens` limit refers to.
 *
 * Use it to check a chunk against a token budget. Never throws; the empty string has 0 tokens.
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return bpeCount(text);
}

/** UTF-8 byte length: a cheap upper bound of the token count (every BPE token covers at least one byte). */
export function utf8Length(text: string, start = 0, end = text.length): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
