import type { EvalMetrics, QueryEvaluation } from "./evaluate.js";

/**
 * Renders metrics as a fixed-width text table for terminals (4 decimals; counts as integers), e.g.
 * `recall@10      0.8512`. Use `JSON.stringify(metrics)` or {@link toScorerJson} for machines.
 */
export function formatMetricsTable(metrics: EvalMetrics): string {
  const k = metrics.k;
  const rows: [string, string][] = [
    ["queries", String(metrics.queries)],
    ["missing", String(metrics.missing)],
    [`recall@${k}`, metrics.recall.toFixed(4)],
    [`precision@${k}`, metrics.precision.toFixed(4)],
    [`map@${k}`, metrics.map.toFixed(4)],
    [`mrr@${k}`, metrics.mrr.toFixed(4)],
    [`ndcg@${k}`, metrics.ndcg.toFixed(4)],
    [`chunk_recall@${k}`, metrics.chunkRecall.toFixed(4)],
    [`words_per_query@${k}`, metrics.wordsPerQuery.toFixed(1)],
  ];
  const left = Math.max(...rows.map(([name]) => name.length));
  const right = Math.max(...rows.map(([, value]) => value.length));
  const line = `${"-".repeat(left)}  ${"-".repeat(right)}`;
  return [`${"metric".padEnd(left)}  ${"value".padStart(right)}`, line, ...rows.map(([n, v]) => `${n.padEnd(left)}  ${v.padStart(right)}`)].join("\n");
}

/** Per-query records as JSON lines (one object per line, trailing newline) for error analysis. */
export function formatPerQueryJsonl(records: readonly QueryEvaluation[]): string {
  return records.map((r) => JSON.stringify(r)).join("\n") + (records.length ? "\n" : "");
}
