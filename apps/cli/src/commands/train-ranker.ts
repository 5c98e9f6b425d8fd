import { writeFile } from "node:fs/promises";
import { HierdocError } from "@hierdoc/core";
import { evaluateRun, loadQrels, type Qrels, type RunResult } from "@hierdoc/eval";
import {
  FEATURE_NAMES,
  LexicalReranker,
  crossValidateScores,
  toTrainingGroups,
  trainLinearRanker,
  trainTreesRanker,
  type RankerModel,
  type TrainingGroup,
} from "@hierdoc/rerank";
import { err, out } from "../io.js";
import { openTool, type IndexOptions } from "../runtime.js";
import { collectCandidates, labelQueries, type TrainingQuery } from "./train-ranker-data.js";

/** Options of `hierdoc train-ranker`. */
export interface TrainRankerCommandOptions extends IndexOptions {
  qrels?: string;
  out?: string;
  folds?: string;
  candidates?: string;
  kind?: string;
  trees?: string;
  k?: string;
  cache?: string;
  json?: boolean;
}

function intOption(name: string, v: string | undefined, dflt: number, min: number, max: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new HierdocError("E_INVALID_ARGUMENT", `--${name} must be an integer from ${min} to ${max} (got "${v}")`);
  return n;
}

/** Metrics of one ordering of every query's candidates, cut at k. */
function metricsOf(qrels: Qrels, queries: readonly TrainingQuery[], order: (q: TrainingQuery, i: number) => number[], k: number): { recall: number; map: number; mrr: number } {
  const run = new Map<string, RunResult[]>();
  queries.forEach((q, i) => run.set(q.id, order(q, i).slice(0, k).map((j) => q.run[j])));
  const m = evaluateRun(qrels, run, { k }).metrics;
  const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
  return { recall: r4(m.recall), map: r4(m.map), mrr: r4(m.mrr) };
}

/** Candidate indexes by descending score; ties keep the fused order. */
function byScore(scores: readonly number[]): number[] {
  return scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.i);
}

/**
 * `hierdoc train-ranker --qrels FILE --out ranker.json`: collects the fused top `--candidates` (default 50)
 * of every qrels query from the index, labels each candidate by the gold passages it covers, reports
 * k-fold cross-validated Recall@k / MAP@k / MRR@k (folds by question: a question is never trained on and
 * scored by the same model) for the fused order, the lexical reranker and the learned model, then trains
 * the model on every question and writes it as a `hierdoc-ranker` JSON file for
 * `rerank: {provider: learned, model_path: …}`.
 */
export async function trainRankerCommand(opts: TrainRankerCommandOptions): Promise<number> {
  if (!opts.qrels) throw new HierdocError("E_INVALID_ARGUMENT", "give --qrels FILE (hierdoc-qrels JSON, e.g. from tools/qrels)");
  if (!opts.out) throw new HierdocError("E_INVALID_ARGUMENT", "give --out FILE (the ranker JSON to write)");
  const folds = intOption("folds", opts.folds, 5, 2, 20);
  const candidates = intOption("candidates", opts.candidates, 50, 2, 100);
  const k = intOption("k", opts.k, 10, 1, 100);
  const kind = opts.kind ?? "trees";
  if (kind !== "trees" && kind !== "linear") throw new HierdocError("E_INVALID_ARGUMENT", `--kind must be trees or linear (got "${kind}")`);
  // 200 rounds: best of 100 / 200 / 300 on ObliQA dev with the cut-off (rerank README, "Choice of model").
  const nTrees = intOption("trees", opts.trees, 200, 1, 2000);
  const qrels = await loadQrels(opts.qrels);
  if (qrels.queries.length < folds) {
    throw new HierdocError("E_INVALID_ARGUMENT", `${opts.qrels}: ${qrels.queries.length} queries, fewer than --folds ${folds}`, { details: { file: opts.qrels } });
  }
  const t0 = performance.now();
  const raw = await collectCandidates(
    () => openTool(opts, { mustExist: true, onWarning: (m) => err(`warning: ${m}`) }),
    qrels,
    candidates,
    opts.cache,
  );
  const queries = labelQueries(qrels, raw);
  const features = [...FEATURE_NAMES];
  const groups = toTrainingGroups(queries, features);
  const train = (g: readonly TrainingGroup[]): RankerModel =>
    // Trees optimise NDCG truncated at the reported cut-off k (LambdaMART@k): measured on ObliQA dev, see the rerank README.
    kind === "trees" ? trainTreesRanker(features, g, { trees: nTrees, cutoff: k }) : trainLinearRanker(features, g);
  const oof = crossValidateScores(groups, folds, train);
  const lexical = new LexicalReranker();
  const fusedM = metricsOf(qrels, queries, (q) => q.candidates.map((_c, i) => i), k);
  const lexicalM = metricsOf(qrels, queries, (q, i) => {
    const order = lexical.combine(q.candidates, groups[i].features.map((x) => Object.fromEntries(features.map((f, j) => [f, x[j]])) as never));
    const at = new Map(q.candidates.map((c, j) => [c.id, j]));
    return order.map((s) => at.get(s.id)!);
  }, k);
  const learnedM = metricsOf(qrels, queries, (q) => byScore(oof.get(q.id) ?? []), k);
  const model = train(groups);
  const labelled = queries.filter((q) => q.labels.some((y) => y > 0)).length;
  model.trainedOn = { qrels: qrels.name ?? opts.qrels, queries: queries.length, withGoldInCandidates: labelled, candidates, kind, ...(kind === "trees" ? { trees: nTrees, cutoff: k } : {}) };
  model.metrics = { k, folds, fused: fusedM, lexical: lexicalM, learned: learnedM };
  await writeFile(opts.out, JSON.stringify(model) + "\n");
  const secs = (performance.now() - t0) / 1000;
  if (opts.json) {
    await out(JSON.stringify({ out: opts.out, kind, folds, k, candidates, queries: queries.length, fused: fusedM, lexical: lexicalM, learned: learnedM, seconds: Math.round(secs * 10) / 10 }) + "\n");
  } else {
    const row = (name: string, m: { recall: number; map: number; mrr: number }) => `${name.padEnd(26)} ${m.recall.toFixed(4)}   ${m.map.toFixed(4)}   ${m.mrr.toFixed(4)}`;
    await out(
      [
        `${folds}-fold cross-validation by question, ${queries.length} queries (${labelled} with gold in the top ${candidates}), k=${k}`,
        `${"order".padEnd(26)} R@${k}    MAP@${k}  MRR@${k}`,
        row("fused (no rerank)", fusedM),
        row("lexical", lexicalM),
        row(`learned (${kind}, held out)`, learnedM),
        `model (trained on all ${queries.length} queries) -> ${opts.out}`,
        "",
      ].join("\n"),
    );
  }
  err(`${queries.length} queries in ${secs.toFixed(1)} s`);
  return 0;
}
