import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { HierdocError, type ChunkType, type SearchFilters, type SearchMode } from "@hierdoc/core";
import { errorJson, prettyResults, responseJson, resultJson } from "../format.js";
import { err, ms, out } from "../io.js";
import { openTool, type IndexOptions } from "../runtime.js";

/** Options of `hierdoc search`. */
export interface SearchCommandOptions extends IndexOptions {
  topK?: string;
  mode?: string;
  json?: boolean;
  queries?: string;
  source?: string[];
  sectionPrefix?: string;
  type?: string[];
}

const MODES: SearchMode[] = ["hybrid", "semantic", "keyword", "exact"];

/** `hierdoc search QUERY` or `hierdoc search --queries FILE.jsonl --json` (one process, many queries). */
export async function searchCommand(query: string | undefined, opts: SearchCommandOptions): Promise<number> {
  const topK = parseTopK(opts.topK);
  const mode = (opts.mode ?? "hybrid") as SearchMode;
  if (!MODES.includes(mode)) throw new HierdocError("E_INVALID_ARGUMENT", `--mode must be one of ${MODES.join(", ")} (got "${opts.mode}")`);
  if (!query && !opts.queries) throw new HierdocError("E_INVALID_ARGUMENT", "give a QUERY or --queries FILE.jsonl");
  if (query && opts.queries) throw new HierdocError("E_INVALID_ARGUMENT", "give either a QUERY or --queries, not both");
  const filters: SearchFilters | undefined =
    opts.source || opts.sectionPrefix || opts.type
      ? { source: opts.source, sectionPrefix: opts.sectionPrefix, chunkType: opts.type as ChunkType[] | undefined }
      : undefined;
  const t0 = performance.now();
  const tool = await openTool(opts, { mustExist: true, onWarning: (m) => err(`warning: ${m}`) });
  const openMs = performance.now() - t0;
  try {
    if (opts.queries) return await batch(opts.queries, tool, { topK, mode, filters }, openMs);
    const res = await tool.search(query!, { topK, mode, filters });
    const firstMs = performance.now() - t0;
    if (opts.json) {
      await out(JSON.stringify(responseJson(query!, mode, res, { open_ms: Math.round(openMs), time_to_first_result_ms: Math.round(firstMs) })) + "\n");
    } else {
      await out(prettyResults(res.results));
      err(`${res.results.length} result(s) · route ${res.route} · index opened in ${ms(openMs)} (${tool.chunkCount} chunks) · time to first result ${ms(firstMs)}`);
    }
    return 0;
  } finally {
    await tool.close();
  }
}

async function batch(
  file: string,
  tool: Awaited<ReturnType<typeof openTool>>,
  options: { topK?: number; mode: SearchMode; filters?: SearchFilters },
  openMs: number,
): Promise<number> {
  const input = createReadStream(file, { encoding: "utf8" });
  const failures: string[] = [];
  await new Promise<void>((resolve, reject) => {
    input.once("open", () => resolve());
    input.once("error", (e) =>
      reject(new HierdocError("E_INPUT_NOT_FOUND", `${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : e.message}`, { details: { file } })),
    );
  });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  let count = 0;
  const t0 = performance.now();
  let buffer = "";
  for await (const raw of lines) {
    lineNo++;
    const line = raw.trim();
    if (!line) continue;
    let item: { id?: unknown; query?: unknown };
    try {
      item = JSON.parse(line);
    } catch {
      failures.push(`${file}:${lineNo}: not valid JSON`);
      buffer += JSON.stringify({ id: null, line: lineNo, results: [], error: { code: "E_INVALID_ARGUMENT", message: `${file}:${lineNo}: not valid JSON` } }) + "\n";
      continue;
    }
    const id = item.id === undefined ? String(lineNo) : String(item.id);
    if (typeof item.query !== "string" || !item.query.trim()) {
      failures.push(`${file}:${lineNo}: missing "query"`);
      buffer += JSON.stringify({ id, results: [], error: { code: "E_INVALID_ARGUMENT", message: `${file}:${lineNo}: missing "query" string` } }) + "\n";
      continue;
    }
    try {
      const res = await tool.search(item.query, options);
      buffer += JSON.stringify({ id, route: res.route, results: res.results.map(resultJson) }) + "\n";
    } catch (e) {
      failures.push(`${file}:${lineNo}: ${(e as Error).message}`);
      buffer += JSON.stringify({ id, results: [], error: errorJson(e as Error) }) + "\n";
    }
    count++;
    if (buffer.length > 1 << 20) {
      await out(buffer);
      buffer = "";
    }
  }
  if (buffer) await out(buffer);
  const secs = (performance.now() - t0) / 1000;
  for (const f of failures.slice(0, 20)) err(`error: ${f}`);
  err(`${count} queries in ${secs.toFixed(2)} s (${(count / Math.max(secs, 1e-9)).toFixed(0)} queries/s) · index opened in ${ms(openMs)}`);
  return failures.length > 0 ? 1 : 0;
}

/** Parses --top-k: an integer from 1 to 100; undefined means the config's `search.top_k` (10). */
export function parseTopK(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new HierdocError("E_INVALID_ARGUMENT", `--top-k must be an integer from 1 to 100 (got "${v}")`);
  return n;
}
