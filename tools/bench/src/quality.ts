import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SearchMode, StoreRecord } from "@hierdoc/core";
import { evaluateRun, type EvalMetrics, type Qrels, type RunEntry, type RunResult } from "@hierdoc/eval";
import { openIndex } from "@hierdoc/runtime";
import type { PeerIndex, PeerMode } from "./peers.js";
import { env } from "./pool.js";

/** One retrieval-quality row: a system/variant and its metrics on a query set. */
export interface QualityRow {
  corpus: string;
  system: string;
  variant: string;
  metrics: EvalMetrics;
  /** Wall time of the searches, ms. */
  searchMs: number;
  /** The run, kept to score it again on a subset. */
  run: RunEntry[];
}

/** A hierdoc search variant: which index, which agent.yaml tool (search config), which mode. */
export interface HierdocVariant {
  name: string;
  index: string;
  mode: SearchMode;
  /** agent.yaml + tool name overriding the manifest's config (search settings only). */
  config?: { file: string; tool: string };
}

/** Qrels restricted to the first `n` queries (the others are not scored). */
export function subsetQrels(qrels: Qrels, n: number): Qrels {
  return n >= qrels.queries.length ? qrels : { ...qrels, queries: qrels.queries.slice(0, n) };
}

/** Runs every query of `qrels` through a hierdoc index in process and scores the run (k = 10). */
export async function runHierdoc(corpus: string, qrels: Qrels, v: HierdocVariant): Promise<QualityRow> {
  const tool = await openIndex({ index: v.index, config: v.config?.file, tool: v.config?.tool }, { mustExist: true, env });
  const run: RunEntry[] = [];
  const t0 = performance.now();
  for (const q of qrels.queries) {
    const res = await tool.search(q.query, { topK: 10, mode: v.mode });
    run.push({ id: q.id, results: res.results.map((r) => ({ id: r.id, content: r.content, source_path: r.sourcePath, start: r.start, end: r.end })) });
  }
  const searchMs = performance.now() - t0;
  await tool.close();
  return { corpus, system: "hierdoc", variant: v.name, metrics: evaluateRun(qrels, run).metrics, searchMs, run };
}

/** Runs every query through a peer over the same chunks and scores the run with the same projection. */
export async function runPeer(corpus: string, qrels: Qrels, peer: PeerIndex, mode: PeerMode, byId: ReadonlyMap<string, StoreRecord>): Promise<QualityRow> {
  const run: RunEntry[] = [];
  const t0 = performance.now();
  for (const q of qrels.queries) {
    const ids = await peer.search(q.query, mode, 10);
    const results: RunResult[] = ids.map((id) => {
      const r = byId.get(id)?.record;
      return { id, content: r?.content ?? null, source_path: r?.sourcePath ?? null, start: r?.start, end: r?.end };
    });
    run.push({ id: q.id, results });
  }
  const searchMs = performance.now() - t0;
  return { corpus, system: peer.name, variant: mode, metrics: evaluateRun(qrels, run).metrics, searchMs, run };
}

/** Scores a row's run again on a subset of the queries. */
export function rescore(row: QualityRow, qrels: Qrels): EvalMetrics {
  return evaluateRun(qrels, row.run).metrics;
}

/** Writes an agent.yaml with the search variants used by the quality table. */
export function writeVariantConfig(dir: string): string {
  const file = join(dir, "bench-variants.yaml");
  writeFileSync(
    file,
    [
      "tools:",
      "  - name: rrf_equal",
      "    type: hierarchical_document",
      "    source: .",
      "    search: { fusion: rrf, rrf_k: 60, weights: { semantic: 1, keyword: 1, exact: 1 } }",
      "  - name: no_exact",
      "    type: hierarchical_document",
      "    source: .",
      "    search: { weights: { exact: 0 } }",
      "  - name: no_context",
      "    type: hierarchical_document",
      "    source: .",
      "    contextual_embeddings: false",
      "",
    ].join("\n"),
  );
  return file;
}
