/**
 * The words of a full-text query as store full-text functions take them: lower-cased Unicode letter/digit
 * runs, distinct, in order of first use, at most `max` (stores limit the terms of one query). Use it in an
 * adapter that builds its own full-text condition (Cosmos `FullTextScore`, SQL Server `CONTAINSTABLE`).
 */
export function distinctQueryWords(text: string, max = 16): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, max);
}
