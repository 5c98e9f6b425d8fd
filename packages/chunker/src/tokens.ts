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

/**
 * Cheap token estimate of `text[start, end)` from character classes (ASCII letters ≈ 1/4.5 token,
 * digits ≈ 1/2.5, punctuation ≈ 1/1.5, other characters ≈ 1). Used to decide chunk grouping without
 * running the BPE on every candidate; final chunks are always counted exactly.
 */
export function estimateTokens(text: string, start = 0, end = text.length): number {
  let letters = 0;
  let digits = 0;
  let punct = 0;
  let other = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) letters++;
      else if (c >= 48 && c <= 57) digits++;
      else if (c > 32) punct++;
    } else other++;
  }
  return letters / 4.5 + digits / 2.5 + punct / 1.5 + other;
}
