const WORD = /[\p{L}\p{N}]+(?:[-'’.][\p{L}\p{N}]+)*/gu;
const SEPARATOR = /[-'’.]/u;

/**
 * Lower-cased word tokens of `text`: runs of letters and digits, keeping inner hyphens, apostrophes and dots
 * (`e-mail`, `o'brien`, `u.s`). Punctuation and whitespace are dropped. Used by the GloVe and hash embedders.
 */
export function wordTokens(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const token = match[0];
    out.push(token.includes("’") ? token.replace(/’/g, "'") : token);
  }
  return out;
}

/** True when a token from {@link wordTokens} has inner separators and can be split into parts. */
export function isCompound(token: string): boolean {
  return SEPARATOR.test(token);
}

/** Parts of a compound token (`e-mail` → `e`, `mail`), empty parts removed. */
export function compoundParts(token: string): string[] {
  return token.split(/[-'.]/u).filter((part) => part.length > 0);
}
