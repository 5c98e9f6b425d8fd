import { HierdocError } from "@hierdoc/core";
import { averagePrecisionAtK, dedupe, ndcgAtK } from "./metrics.js";
import { createProjector, splitUnitKey, type Projector } from "./projection.js";
import { countWords, pyRound } from "./python-compat.js";
import type { Qrels } from "./qrels.js";
import { toRun, type RunInput, type RunResult } from "./run.js";

/** Options of {@link evaluateRun}. */
export interface EvaluateOptions {
  /** Cut-off and passage budget (default 10). */
  k?: number;
  /** A projector made by `createProjector(qrels)` for this same qrels, reused across runs (saves ~1 s on ObliQA). */
  projector?: Projector;
}

/** Averages over all qrels queries (a query missing from the run scores 0). */
export interface EvalMetrics {
  k: number;
  /** Queries in the qrels. */
  queries: number;
  /** Qrels queries without a line in the run (or with `results: null`). */
  missing: number;
  /** Passage-projected Recall@k (chunk-id recall for chunk-gold queries). */
  recall: number;
  precision: number;
  /** MAP@k, average precision normalised by min(|gold|, k). */
  map: number;
  mrr: number;
  ndcg: number;
  /** Gold passages covered by any of the top-k chunks, no passage budget. */
  chunkRecall: number;
  /** Words of the top-k chunks per answered query (the reading cost). */
  wordsPerQuery: number;
}

/** One top-k chunk of a query and the passages it covers (display keys). */
export interface ChunkTrace {
  rank: number;
  id: string | null;
  sourcePath: string | null;
  start: number | null;
  end: number | null;
  covers: string[];
  gold: number;
}

/** A per-query record for JSONL error analysis. */
export interface QueryEvaluation {
  id: string;
  query: string;
  missing: boolean;
  results: number;
  gold: string[];
  /** The top-k projected units, in rank order. */
  ranked: string[];
  found: string[];
  missed: string[];
  /** 1-based rank of the first gold unit in the projected list, or null. */
  firstHitRank: number | null;
  recall: number;
  precision: number;
  averagePrecision: number;
  reciprocalRank: number;
  ndcg: number;
  chunkRecall: number;
  words: number;
  chunks: ChunkTrace[];
  meta?: Record<string, unknown>;
}

/** What {@link evaluateRun} returns. */
export interface EvaluationReport {
  metrics: EvalMetrics;
  perQuery: QueryEvaluation[];
}

/** Display form of a unit key: `doc#passage` for passages, the chunk id for chunk gold. */
export function displayUnit(key: string): string {
  const { doc, id } = splitUnitKey(key);
  return doc === null ? id : `${doc}#${id}`;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function num(v: unknown): number | null {
  return typeof v === "number" ? v : null;
}

/**
 * Scores a run against qrels, exactly as `score_obliqa.py score` does for passage gold: each result is
 * projected onto the universe passages it covers (in rank order, document order inside a chunk,
 * de-duplicated) and Recall/Precision/MAP/MRR/nDCG@k are computed on that passage ranking (a budget of
 * k passages; results past rank k still fill the budget when the first k cover fewer passages).
 * Chunk-gold queries are scored on result ids. Pure: no I/O.
 * Throws `E_INVALID_ARGUMENT` for `k < 1` or gold evidence the matching mode cannot use.
 */
export function evaluateRun(qrels: Qrels, run: RunInput, options: EvaluateOptions = {}): EvaluationReport {
  const k = options.k ?? 10;
  if (!Number.isInteger(k) || k < 1) throw new HierdocError("E_INVALID_ARGUMENT", `k must be a positive integer, got ${k}`);
  const projector = options.projector ?? createProjector(qrels);
  const runs = toRun(run);
  let rec = 0, prec = 0, mapk = 0, mrr = 0, ndcg = 0, crec = 0, words = 0, missing = 0;
  const perQuery: QueryEvaluation[] = [];
  for (const q of qrels.queries) {
    const gold = projector.goldKeys(q.gold);
    const goldList = [...gold].map(displayUnit);
    const res = runs.get(q.id);
    const record: QueryEvaluation = {
      id: q.id, query: q.query, missing: res === undefined || res === null, results: res?.length ?? 0,
      gold: goldList, ranked: [], found: [], missed: goldList, firstHitRank: null,
      recall: 0, precision: 0, averagePrecision: 0, reciprocalRank: 0, ndcg: 0, chunkRecall: 0, words: 0, chunks: [],
    };
    if (q.meta) record.meta = q.meta;
    perQuery.push(record);
    if (res === undefined || res === null) {
      missing += 1;
      continue;
    }
    const byChunk = q.gold.length > 0 && "chunk" in q.gold[0];
    const ranked: string[] = [];
    const chunkHits = new Set<string>();
    res.forEach((r: RunResult, i) => {
      const cov = byChunk ? (typeof r.id === "string" ? [r.id] : []) : projector.covered(r);
      if (i < k) {
        for (const x of cov) if (gold.has(x)) chunkHits.add(x);
        const w = countWords(typeof r.content === "string" ? r.content : "");
        record.words += w;
        words += w;
        record.chunks.push({
          rank: i + 1, id: str(r.id), sourcePath: str(r.source_path), start: num(r.start), end: num(r.end),
          covers: dedupe(cov).map(displayUnit), gold: dedupe(cov).filter((x) => gold.has(x)).length,
        });
      }
      ranked.push(...cov);
    });
    const top = dedupe(ranked).slice(0, k);
    const hits = top.map((x) => (gold.has(x) ? 1 : 0));
    const nHits = hits.reduce((a: number, b) => a + b, 0);
    const first = hits.indexOf(1);
    record.ranked = top.map(displayUnit);
    const foundSet = new Set(top.filter((x) => gold.has(x)));
    record.found = [...gold].filter((x) => foundSet.has(x)).map(displayUnit);
    record.missed = [...gold].filter((x) => !foundSet.has(x)).map(displayUnit);
    record.firstHitRank = first < 0 ? null : first + 1;
    record.recall = nHits / gold.size;
    record.precision = nHits / k;
    record.averagePrecision = averagePrecisionAtK(top, gold, k);
    record.reciprocalRank = first < 0 ? 0 : 1 / (first + 1);
    record.ndcg = ndcgAtK(top, gold, k);
    record.chunkRecall = chunkHits.size / gold.size;
    rec += record.recall;
    prec += record.precision;
    crec += record.chunkRecall;
    mapk += record.averagePrecision;
    mrr += record.reciprocalRank;
    ndcg += record.ndcg;
  }
  const n = qrels.queries.length;
  const avg = (x: number): number => (n === 0 ? 0 : x / n);
  return {
    metrics: {
      k, queries: n, missing,
      recall: avg(rec), precision: avg(prec), map: avg(mapk), mrr: avg(mrr), ndcg: avg(ndcg), chunkRecall: avg(crec),
      wordsPerQuery: words / Math.max(1, n - missing),
    },
    perQuery,
  };
}

/**
 * The metrics in the reference scorer's JSON shape and rounding (`{"queries", "missing", "k",
 * "recall@k", "map@k", "mrr@k", "chunk_recall@k", "words_per_query@k"}`, 4 and 1 decimals, Python
 * `round`), so the output can be compared with `score_obliqa.py score` byte for byte after parsing.
 */
export function toScorerJson(metrics: EvalMetrics): Record<string, number> {
  const { k } = metrics;
  return {
    queries: metrics.queries,
    missing: metrics.missing,
    k,
    [`recall@${k}`]: pyRound(metrics.recall, 4),
    [`map@${k}`]: pyRound(metrics.map, 4),
    [`mrr@${k}`]: pyRound(metrics.mrr, 4),
    [`chunk_recall@${k}`]: pyRound(metrics.chunkRecall, 4),
    [`words_per_query@${k}`]: pyRound(metrics.wordsPerQuery, 1),
  };
}
