import { HierdocError, type SearchResult } from "@hierdoc/core";

/**
 * One ranked result as written by `hierdoc search --json` (the RESULT shape of the CLI contract).
 * Only `id`, `content`, `source_path`, `start` and `end` are read; other fields pass through.
 */
export interface RunResult {
  id?: string;
  content?: string | null;
  source_path?: string | null;
  start?: number;
  end?: number;
  [field: string]: unknown;
}

/** One line of batch-search output: a query id and its ranked results (`null` = no answer). */
export interface RunEntry {
  id: string;
  results: readonly RunResult[] | null;
}

/** A run keyed by query id; a `null` value counts as a missing query (as in the reference scorer). */
export type Run = ReadonlyMap<string, readonly RunResult[] | null>;

/** What {@link toRun} accepts: a ready map or entries in file order (a later duplicate id wins). */
export type RunInput = Run | Iterable<RunEntry>;

/** Normalises a {@link RunInput} to a {@link Run}; a later entry for the same id replaces an earlier one. */
export function toRun(input: RunInput): Run {
  if (input instanceof Map) return input as Run;
  const run = new Map<string, readonly RunResult[] | null>();
  for (const entry of input as Iterable<RunEntry>) run.set(entry.id, entry.results);
  return run;
}

/**
 * Parses batch-search output (JSON lines `{"id", "results": [RESULT…]}`); blank lines are skipped, a line
 * without `results` is an empty result list, a later line for the same id wins.
 * Throws `HierdocError` `E_PARSE` with the line number for invalid JSON or a missing id.
 */
export function parseRunJsonl(text: string): Map<string, readonly RunResult[] | null> {
  const run = new Map<string, readonly RunResult[] | null>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch (cause) {
      throw new HierdocError("E_PARSE", `run line ${i + 1}: invalid JSON`, { cause, details: { line: i + 1 } });
    }
    const r = row as { id?: unknown; results?: unknown };
    if (typeof row !== "object" || row === null || (typeof r.id !== "string" && typeof r.id !== "number")) {
      throw new HierdocError("E_PARSE", `run line ${i + 1}: expected an object with an "id"`, { details: { line: i + 1 } });
    }
    const results = r.results === undefined ? [] : r.results;
    if (results !== null && !Array.isArray(results)) {
      throw new HierdocError("E_PARSE", `run line ${i + 1}: "results" must be an array`, { details: { line: i + 1 } });
    }
    run.set(String(r.id), results as RunResult[] | null);
  }
  return run;
}

/** Converts an in-process {@link SearchResult} to the RESULT JSON fields the evaluator reads. */
export function toRunResult(result: SearchResult): RunResult {
  return {
    id: result.id,
    rank: result.rank,
    score: result.score,
    content: result.content,
    source_path: result.sourcePath,
    start: result.start,
    end: result.end,
    section_id: result.sectionId,
  };
}
