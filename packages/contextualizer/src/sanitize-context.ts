// C0/C1 controls, zero-width characters, bidi embeddings/isolates, BOM, line/paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
const LEAD = /^(?:here is the (?:succinct )?context:?|context:|succinct context:)\s*/i;

/**
 * Cleans model output into a one-paragraph context: control and invisible characters removed, whitespace
 * collapsed, a leading "Context:" label dropped, and the result cut to at most `maxChars` characters at a
 * word boundary (ending with `…`). The output is data only: nothing in it is ever executed or interpreted.
 */
export function sanitizeContext(raw: string, maxChars: number): string {
  let text = raw.replace(CONTROL, " ").replace(/\s+/g, " ").trim().replace(LEAD, "").trim();
  if (text.length > maxChars) {
    const cut = text.slice(0, Math.max(0, maxChars - 1));
    const space = cut.lastIndexOf(" ");
    text = `${(space > maxChars * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
  }
  return text;
}
