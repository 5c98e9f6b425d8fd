import { createReadStream, existsSync } from "node:fs";
import { open } from "node:fs/promises";
import { createInterface } from "node:readline";
import { HierdocError } from "@hierdoc/core";
import { createProjector, toRunResult, type Qrels, type RunResult } from "@hierdoc/eval";
import { candidateFromResult, type LabelledQuery } from "@hierdoc/rerank";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";

/** A labelled query plus the RESULT-shaped rows the scorer projects (same order as its candidates). */
export interface TrainingQuery extends LabelledQuery {
  run: RunResult[];
}

const CACHE_FORMAT = "hierdoc-ranker-candidates";

/** The graded training label of each candidate: gold passages it covers (capped at 3), or 1 for a gold chunk id. */
export function labelQueries(qrels: Qrels, raw: Array<Omit<TrainingQuery, "labels">>): TrainingQuery[] {
  const projector = createProjector(qrels);
  const goldOf = new Map(qrels.queries.map((q) => [q.id, projector.goldKeys(q.gold)]));
  const byChunkGold = new Set(qrels.queries.filter((q) => q.gold.length > 0 && "chunk" in q.gold[0]).map((q) => q.id));
  return raw.map((q) => {
    const gold = goldOf.get(q.id) ?? new Set<string>();
    // Chunk-id gold is matched on result ids (as `hierdoc eval` scores it), passage gold by projection.
    const byChunk = byChunkGold.has(q.id);
    const labels = q.run.map((r) =>
      byChunk ? (gold.has(String(r.id)) ? 1 : 0) : Math.min(3, new Set(projector.covered(r).filter((k) => gold.has(k))).size),
    );
    return { ...q, labels };
  });
}

/**
 * The fused top `candidates` of every qrels query (hybrid search, rerank stage off), as the rerank stage
 * would see them. With `cachePath`, reads them from that file when it was written for the same qrels and
 * candidate count, else computes and writes it (JSON lines: a header, then one query per line).
 */
export async function collectCandidates(
  tool: () => Promise<HierarchicalDocumentTool>,
  qrels: Qrels,
  candidates: number,
  cachePath?: string,
  onProgress?: (done: number, total: number) => void,
): Promise<Array<Omit<TrainingQuery, "labels">>> {
  const header = { format: CACHE_FORMAT, version: 1, qrels: qrels.name ?? "", queries: qrels.queries.length, candidates };
  if (cachePath && existsSync(cachePath)) {
    const cached = await readCache(cachePath, header);
    if (cached) return cached;
  }
  const t = await tool();
  const out: Array<Omit<TrainingQuery, "labels">> = [];
  try {
    for (const [i, q] of qrels.queries.entries()) {
      const res = await t.search(q.query, { topK: candidates, mode: "hybrid", rerank: false });
      out.push({
        id: q.id,
        query: q.query,
        candidates: res.results.map((r, j) => candidateFromResult(r, j + 1)),
        run: res.results.map((r) => {
          const { id, content, source_path, start, end } = toRunResult(r);
          return { id, content, source_path, start, end };
        }),
      });
      onProgress?.(i + 1, qrels.queries.length);
    }
  } finally {
    await t.close();
  }
  if (cachePath) await writeCache(cachePath, header, out);
  return out;
}

/** Writes the cache line by line (100 candidates of 2,788 questions exceed V8's longest string as one text). */
async function writeCache(path: string, header: Record<string, unknown>, queries: ReadonlyArray<Omit<TrainingQuery, "labels">>): Promise<void> {
  const file = await open(path, "w");
  try {
    await file.write(JSON.stringify(header) + "\n");
    for (const q of queries) await file.write(JSON.stringify(slim(q)) + "\n");
  } finally {
    await file.close();
  }
}

/** A cache line: content once (in the candidate), defined terms without their definition text (features read the term only). */
function slim(q: Omit<TrainingQuery, "labels">): Omit<TrainingQuery, "labels"> {
  return {
    ...q,
    candidates: q.candidates.map((c) => ({ ...c, definitions: c.definitions?.map((d) => ({ term: d.term })) })),
    run: q.run.map(({ content: _c, ...rest }) => rest),
  };
}

async function readCache(path: string, header: Record<string, unknown>): Promise<Array<Omit<TrainingQuery, "labels">> | undefined> {
  const lines = createInterface({ input: createReadStream(path, "utf8"), crlfDelay: Infinity });
  const out: Array<Omit<TrainingQuery, "labels">> = [];
  let first = true;
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new HierdocError("E_INVALID_ARGUMENT", `${path}:${n}: not valid JSON (${(err as Error).message}); delete the cache file`, { details: { file: path, line: n } });
    }
    if (first) {
      first = false;
      if (JSON.stringify(value) !== JSON.stringify(header)) return undefined;
      continue;
    }
    const q = value as Omit<TrainingQuery, "labels">;
    // The cache stores content once (in the candidate); the scorer's text matching needs it on the row too.
    q.run = q.run.map((r, i) => ({ ...r, content: q.candidates[i]?.content }));
    out.push(q);
  }
  return first ? undefined : out;
}
