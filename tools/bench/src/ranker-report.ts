import type { MachineInfo } from "./machine.js";
import type { LatencySummary } from "./stats.js";
import { extractMarkedSection, spliceMarkedSection } from "./marked-section.js";

export const RANKER_SECTION_BEGIN = "<!-- ranker-bench:begin (written by tools/bench/dist/ranker-bench.js) -->";
export const RANKER_SECTION_END = "<!-- ranker-bench:end -->";

interface Metrics {
  recall: number;
  map: number;
  mrr?: number;
}

/** Reranked quality and per-search compute of one query set (`modelMs`: the learned model alone, features precomputed). */
export interface RerankRun {
  queries: number;
  fused: Metrics;
  lexical: Metrics;
  learned: Metrics;
  lexicalMs: LatencySummary;
  learnedMs: LatencySummary;
  modelMs: LatencySummary;
  /** CPU time (process.cpuUsage, user + system) of each learned rerank. */
  learnedCpuMs?: LatencySummary;
  /** The learned rerank of the same searches repeated, every chunk already analysed (latency run only). */
  learnedWarmMs?: LatencySummary;
  /** CPU time of each warm learned rerank. */
  learnedWarmCpuMs?: LatencySummary;
}

/** Raw numbers of one ranker-bench run. */
export interface RankerBenchResults {
  started: string;
  finished: string;
  machine: MachineInfo;
  loadAtEnd: [number, number, number];
  kind: string;
  /** `hierdoc train-ranker --json` on ObliQA dev. */
  cv: { folds: number; k: number; candidates: number; queries: number; fused: Metrics; lexical: Metrics; learned: Metrics; seconds: number };
  /** The model the CV run wrote (trained on all ObliQA dev) is byte-identical to the shipped one. */
  shippedSame: boolean | "not checked";
  policyqa: RerankRun;
  latency: RerankRun;
  exact: Array<{ name: string; queries: number; rank1: number }>;
  commands: string[];
}

const f4 = (x: number): string => x.toFixed(4);
const ms = (x: number): string => `${x.toFixed(2)} ms`;
const verdict = (ok: boolean): string => (ok ? "**met**" : "**not met**");

/** The "Learned reranker" section, between its markers. */
export function renderRankerSection(r: RankerBenchResults): string {
  const L: string[] = [RANKER_SECTION_BEGIN, "", "## 8. Learned reranker (issue 17)", ""];
  const la = (x: number[]): string => x.map((v) => v.toFixed(2)).join(" / ");
  L.push(
    `Written by \`node tools/bench/dist/ranker-bench.js\` — run started ${r.started}, finished ${r.finished}; ${r.machine.cpuModel} × ${r.machine.cores}, Node ${r.machine.node}; ` +
      `load average (1/5/15 min) at start ${la(r.machine.loadAverage)}, at end ${la(r.loadAtEnd)}. This section is kept when \`npm run bench\` rewrites the rest of the file.`,
    "",
    `Model: ${r.kind === "trees" ? "gradient-boosted trees (LambdaMART)" : "linear pairwise (LambdaRank loss)"} over the features of \`@hierdoc/rerank\` (shared with the lexical reranker), ` +
      `fused top ${r.cv.candidates} of the offline hybrid search. Passage-projected metrics, k = ${r.cv.k}.`,
    "",
    `### ObliQA dev, ${r.cv.folds}-fold cross-validation by question (${r.cv.queries} questions; a question is never trained on and scored by the same model)`,
    "",
    "| order | Recall@10 | MAP@10 | MRR@10 |",
    "|---|---|---|---|",
  );
  for (const [name, m] of [["fused (no rerank)", r.cv.fused], ["lexical (default weights)", r.cv.lexical], [`learned (${r.kind}), held out`, r.cv.learned]] as const) {
    L.push(`| ${name} | ${f4(m.recall)} | ${f4(m.map)} | ${m.mrr === undefined ? "–" : f4(m.mrr)} |`);
  }
  L.push(
    "",
    r.shippedSame === "not checked"
      ? "Run with `--skip-train`: the table shows the cross-validated numbers that the `hierdoc train-ranker` run which wrote the shipped model (`packages/rerank/models/obliqa-dev.v1.json`, trained on all ObliQA dev questions) recorded in that file's `metrics`."
      : `The model shipped as \`packages/rerank/models/obliqa-dev.v1.json\` is this run's model trained on all ObliQA dev questions: ${r.shippedSame ? "byte-identical (training is deterministic)" : "**differs from this run's** (retrained since?)"}.`,
    "",
    `### The shipped model on data it was not trained on`,
    "",
    `PolicyQA dev (${r.policyqa.queries} questions, fused top 50 reordered in process exactly as the tool's rerank stage does):`,
    "",
    "| order | Recall@10 | MAP@10 |",
    "|---|---|---|",
    `| fused | ${f4(r.policyqa.fused.recall)} | ${f4(r.policyqa.fused.map)} |`,
    `| lexical | ${f4(r.policyqa.lexical.recall)} | ${f4(r.policyqa.lexical.map)} |`,
    `| learned (shipped) | ${f4(r.policyqa.learned.recall)} | ${f4(r.policyqa.learned.map)} |`,
    "",
    "Exact-id lookups with `rerank: {provider: learned}` configured (GDPR-style id queries are answered by the exact index and skip the stage; hash embedder, as in tools/corpus-checks):",
    "",
    "| corpus | queries (3 surface forms) | rank 1 |",
    "|---|---|---|",
  );
  let q = 0;
  let r1 = 0;
  for (const e of r.exact) {
    q += e.queries;
    r1 += e.rank1;
    L.push(`| ${e.name} | ${e.queries} | ${e.rank1} (${((100 * e.rank1) / e.queries).toFixed(2)}%) |`);
  }
  const lat = r.latency;
  L.push(
    "",
    `### Rerank compute at 50 candidates (ObliQA dev, first ${lat.queries} questions, in process; features + model, the records already fetched)`,
    "",
    "| reranker | p50 | p95 | p99 | max |",
    "|---|---|---|---|---|",
    `| lexical | ${ms(lat.lexicalMs.p50)} | ${ms(lat.lexicalMs.p95)} | ${ms(lat.lexicalMs.p99)} | ${ms(lat.lexicalMs.max)} |`,
    `| learned | ${ms(lat.learnedMs.p50)} | ${ms(lat.learnedMs.p95)} | ${ms(lat.learnedMs.p99)} | ${ms(lat.learnedMs.max)} |`,
    `| learned: the model alone (features precomputed) | ${ms(lat.modelMs.p50)} | ${ms(lat.modelMs.p95)} | ${ms(lat.modelMs.p99)} | ${ms(lat.modelMs.max)} |`,
    ...(lat.learnedCpuMs ? [`| learned, CPU time (process user + system) | ${ms(lat.learnedCpuMs.p50)} | ${ms(lat.learnedCpuMs.p95)} | ${ms(lat.learnedCpuMs.p99)} | ${ms(lat.learnedCpuMs.max)} |`] : []),
    ...(lat.learnedWarmMs ? [`| learned, warm (same searches again, chunk analyses cached) | ${ms(lat.learnedWarmMs.p50)} | ${ms(lat.learnedWarmMs.p95)} | ${ms(lat.learnedWarmMs.p99)} | ${ms(lat.learnedWarmMs.max)} |`] : []),
    ...(lat.learnedWarmCpuMs ? [`| learned, warm, CPU time | ${ms(lat.learnedWarmCpuMs.p50)} | ${ms(lat.learnedWarmCpuMs.p95)} | ${ms(lat.learnedWarmCpuMs.p99)} | ${ms(lat.learnedWarmCpuMs.max)} |`] : []),
    "",
    "Wall times on a shared 2-core machine include waiting for the CPU (see the load average above); the CPU row is the work itself. " +
      "The first time a chunk is seen its texts are tokenised, stemmed and numbered (stem ids of one vocabulary per extractor, cached by chunk id and by text, 20,000 of each); the warm rows are the cost once the chunks recur.",
    "",
    "Both rerankers compute the same features (the shared `FeatureExtractor`); the learned one then runs its trees instead of the lexical weighted sum. " +
      "Against the previous default (lexical) the learned stage adds the model's time only; against no rerank stage at all it adds the whole learned row, plus what the tool's stage does for any reranker and this in-process run leaves out: fetching the 50 records and looking up the defined terms each one uses (`TermIndex.termsUsedIn`).",
    "",
    "### Targets (issue 17)",
    "",
    "| target | measured | verdict |",
    "|---|---|---|",
    `| ObliQA dev cross-validated R@10 ≥ 0.82 | ${f4(r.cv.learned.recall)} | ${verdict(r.cv.learned.recall >= 0.82)} |`,
    `| ObliQA dev cross-validated MAP@10 ≥ 0.68 | ${f4(r.cv.learned.map)} | ${verdict(r.cv.learned.map >= 0.68)} |`,
    `| added rerank p95 ≤ 5 ms at 50 candidates, over the lexical stage (the model) | ${ms(lat.modelMs.p95)} | ${verdict(lat.modelMs.p95 <= 5)} |`,
    `| added rerank p95 ≤ 5 ms at 50 candidates, over no rerank stage (features + model) | ${ms(lat.learnedMs.p95)} | ${verdict(lat.learnedMs.p95 <= 5)} |`,
    ...(lat.learnedCpuMs
      ? [`| added rerank p95 ≤ 5 ms at 50 candidates, over no rerank stage (features + model), CPU time | ${ms(lat.learnedCpuMs.p95)} | ${verdict(lat.learnedCpuMs.p95 <= 5)} |`]
      : []),
    `| exact lookups (US Code, CFR; 3 forms) 100% rank 1 | ${r1}/${q} | ${verdict(r1 === q)} |`,
    `| PolicyQA dev does not drop (vs fused) | MAP@10 ${f4(r.policyqa.learned.map)} vs ${f4(r.policyqa.fused.map)} | ${verdict(r.policyqa.learned.map >= r.policyqa.fused.map && r.policyqa.learned.recall >= r.policyqa.fused.recall)} |`,
    "",
    "Commands:",
    "",
    "```sh",
    ...r.commands,
    "```",
    "",
    RANKER_SECTION_END,
  );
  return L.join("\n") + "\n";
}

/** `doc` with its ranker section replaced by `section` (or inserted before "## Notes and limits", else appended). */
export function spliceRankerSection(doc: string, section: string): string {
  return spliceMarkedSection(doc, { begin: RANKER_SECTION_BEGIN, end: RANKER_SECTION_END }, section);
}

/** The marked ranker section of `doc`, markers included, or undefined. */
export function extractRankerSection(doc: string): string | undefined {
  return extractMarkedSection(doc, { begin: RANKER_SECTION_BEGIN, end: RANKER_SECTION_END });
}
