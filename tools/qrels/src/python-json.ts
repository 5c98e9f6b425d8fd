/**
 * JSON text as Python's `json.dumps` writes it by default (`ensure_ascii`, `", "` and `": "` separators),
 * so files we write can be compared byte for byte with the reference scorer's.
 */
export function pythonJsonDumps(value: unknown): string {
  if (typeof value === "string") {
    return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => (c === "\u007f" ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
  }
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** Batch-search input lines (`{"id", "query"}`, Python formatting), one per query, trailing newline. */
export function queriesJsonl(queries: readonly { id: string; query: string }[]): string {
  return queries.map((q) => pythonJsonDumps({ id: q.id, query: q.query }) + "\n").join("");
}
