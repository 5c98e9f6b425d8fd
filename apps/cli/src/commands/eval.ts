import { writeFile } from "node:fs/promises";
import { HierdocError, type SearchMode } from "@hierdoc/core";
import { evaluateRun, formatMetricsTable, formatPerQueryJsonl, loadQrels, toRunResult, toScorerJson, type RunResult } from "@hierdoc/eval";
import { err, out } from "../io.js";
import { openTool, type IndexOptions } from "../runtime.js";
import { parseTopK } from "./search.js";

/** Options of `hierdoc eval`. */
export interface EvalCommandOptions extends IndexOptions {
  qrels?: string;
  k?: string;
  mode?: string;
  json?: boolean;
  perQuery?: string;
}

/**
 * `hierdoc eval --qrels FILE`: runs every qrels query through the index in one process and prints
 * passage-projected Recall@k, Precision@k, MAP, MRR and nDCG (the numbers `score_obliqa.py` prints for the
 * same run). `--per-query FILE` writes one JSON line per query for error analysis.
 */
export async function evalCommand(opts: EvalCommandOptions): Promise<number> {
  if (!opts.qrels) throw new HierdocError("E_INVALID_ARGUMENT", "give --qrels FILE (hierdoc-qrels JSON, e.g. from tools/qrels)");
  const k = parseTopK(opts.k) ?? 10;
  const mode = (opts.mode ?? "hybrid") as SearchMode;
  const qrels = await loadQrels(opts.qrels);
  const tool = await openTool(opts, { mustExist: true, onWarning: (m) => err(`warning: ${m}`) });
  const t0 = performance.now();
  const run = new Map<string, RunResult[]>();
  try {
    for (const q of qrels.queries) {
      const res = await tool.search(q.query, { topK: k, mode });
      run.set(q.id, res.results.map(toRunResult));
    }
  } finally {
    await tool.close();
  }
  const secs = (performance.now() - t0) / 1000;
  const report = evaluateRun(qrels, run, { k });
  if (opts.perQuery) await writeFile(opts.perQuery, formatPerQueryJsonl(report.perQuery));
  if (opts.json) await out(JSON.stringify({ mode, ...toScorerJson(report.metrics), seconds: Math.round(secs * 100) / 100 }) + "\n");
  else await out(formatMetricsTable(report.metrics) + "\n");
  err(`${qrels.queries.length} queries in ${secs.toFixed(1)} s (mode ${mode})`);
  return 0;
}
