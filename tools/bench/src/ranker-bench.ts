// Learned reranker benchmark (issue 17) → the marked "Learned reranker" section of docs/benchmarks.md.
//   node tools/bench/dist/ranker-bench.js [--work DIR] [--out FILE] [--kind trees|linear] [--latency-queries N] [--skip-train] [--latency-only]
// --latency-only: only part 3 (with --skip-train), written to $WORK/ranker-latency.json; the doc is left alone.
// --skip-train: report the cross-validated numbers recorded in the shipped model by the train-ranker run that wrote it.
// 1. ObliQA dev, k-fold by question: `hierdoc train-ranker` (fused / lexical / learned, held out).
// 2. The model shipped with @hierdoc/rerank on sets it was not trained on: PolicyQA dev, and US Code / CFR
//    exact lookups in three surface forms (rank 1 with the learned stage configured).
// 3. Rerank compute per search at 50 candidates (lexical vs learned), in process.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolConfigSchema, type RerankCandidate, type Reranker } from "@hierdoc/core";
import { HashEmbedder } from "@hierdoc/embeddings";
import { evaluateRun, loadQrels, toRunResult, type RunResult } from "@hierdoc/eval";
import { DEFAULT_RANKER_MODEL_PATH, FeatureExtractor, LearnedReranker, LexicalReranker, candidateFromResult } from "@hierdoc/rerank";
import { openIndex } from "@hierdoc/runtime";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool } from "@hierdoc/tool";
import { lastJson, timed } from "./exec.js";
import { machineInfo } from "./machine.js";
import { renderRankerSection, spliceRankerSection, type RankerBenchResults } from "./ranker-report.js";
import { summarize } from "./stats.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../../..");
const corpora = resolve(root, "../shared/corpora");
const argv = process.argv.slice(2);
const arg = (name: string, dflt: string): string => (argv.indexOf(name) >= 0 ? argv[argv.indexOf(name) + 1] : dflt);
const work = resolve(arg("--work", "/tmp/hierdoc-bench"));
const outFile = resolve(root, arg("--out", "docs/benchmarks.md"));
const kind = arg("--kind", "trees");
const latencyQueries = Number(arg("--latency-queries", "500"));
const cli = join(root, "apps/cli/bin/hierdoc.js");
const qrelsCli = join(root, "tools/qrels/dist/cli.js");
const q = (f: string): string => join(work, f);
const log = (m: string): void => {
  process.stderr.write(`[ranker-bench ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
};
const commands: string[] = [];
const run = (args: string[]): ReturnType<typeof timed> => {
  const t = timed("node", args, root);
  commands.push(t.command.replaceAll(corpora, "../shared/corpora").replaceAll(root + "/", "").replaceAll(work, "$WORK"));
  return t;
};
const r4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** Fused top 50 of each query, reordered by each reranker; Recall@10 / MAP@10 and rerank compute times. */
async function rerankQuality(index: string, qrelsPath: string, limit = Infinity): Promise<RankerBenchResults["policyqa"]> {
  const qrels = await loadQrels(qrelsPath);
  const tool = await openIndex({ index }, { mustExist: true, env: (n) => process.env[n] });
  const rerankers: Record<string, Reranker | undefined> = { fused: undefined, lexical: new LexicalReranker(), learned: new LearnedReranker() };
  const runs: Record<string, Map<string, RunResult[]>> = { fused: new Map(), lexical: new Map(), learned: new Map() };
  const times: Record<string, number[]> = { lexical: [], learned: [], model: [], learnedCpu: [], learnedWarm: [], learnedWarmCpu: [] };
  const seen: Array<[string, RerankCandidate[]]> = [];
  const extractor = new FeatureExtractor();
  const model = rerankers.learned as LearnedReranker;
  try {
    for (const query of qrels.queries.slice(0, limit)) {
      const res = (await tool.search(query.query, { topK: 50, mode: "hybrid", rerank: false })).results;
      const cands: RerankCandidate[] = res.map((r, i) => candidateFromResult(r, i + 1));
      const byId = new Map(res.map((r) => [r.id, r]));
      for (const [name, rr] of Object.entries(rerankers)) {
        if (!rr) {
          runs[name].set(query.id, res.slice(0, 10).map(toRunResult));
          continue;
        }
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const scores = await rr.rerank(query.query, cands, 10);
        times[name].push(performance.now() - t0);
        if (name === "learned") {
          const c = process.cpuUsage(c0);
          times.learnedCpu.push((c.user + c.system) / 1000);
        }
        runs[name].set(query.id, scores.map((s) => toRunResult(byId.get(s.id)!)));
      }
      // The model alone (scoring and sorting precomputed feature rows): what `learned` adds over the features.
      const rows = extractor.extract(query.query, cands);
      const t1 = performance.now();
      model.order(cands, rows, 10);
      times.model.push(performance.now() - t1);
      if (Number.isFinite(limit)) seen.push([query.query, cands]);
    }
    // Warm: the same searches again, every chunk's analysis already cached (a long-running server's steady state).
    for (const [text, cands] of seen) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await model.rerank(text, cands, 10);
      times.learnedWarm.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      times.learnedWarmCpu.push((c.user + c.system) / 1000);
    }
  } finally {
    await tool.close();
  }
  const sub = { ...qrels, queries: qrels.queries.slice(0, limit) };
  const m = (name: string) => {
    const x = evaluateRun(sub, runs[name], { k: 10 }).metrics;
    return { recall: r4(x.recall), map: r4(x.map) };
  };
  return { queries: sub.queries.length, fused: m("fused"), lexical: m("lexical"), learned: m("learned"), lexicalMs: summarize(times.lexical), learnedMs: summarize(times.learned), modelMs: summarize(times.model),
    learnedCpuMs: summarize(times.learnedCpu), ...(seen.length > 0 ? { learnedWarmMs: summarize(times.learnedWarm), learnedWarmCpuMs: summarize(times.learnedWarmCpu) } : {}) };
}

/** US Code and CFR gold sections in three surface forms, hybrid search with the learned stage configured. */
async function exactLookups(): Promise<RankerBenchResults["exact"]> {
  const cases = [
    ...["01", "04", "09", "17", "35", "44", "51"].map((t) => ({ name: `US Code title ${Number(t)}`, file: `uscode/md/usc${t}.md`, gold: `uscode/md/usc${t}.sections.jsonl`, forms: (n: string) => [`§ ${n}`, `Section ${n}`, `s. ${n}`] })),
    { name: "CFR 27", file: "cfr27/md/cfr27_vol3.md", gold: "cfr27/md/cfr27_vol3.sections.jsonl", forms: (n: string) => [`§ ${n}`, `Section ${n}`, n] },
  ];
  const out: RankerBenchResults["exact"] = [];
  for (const c of cases) {
    const config = ToolConfigSchema.parse({ name: "x", type: "hierarchical_document", source: ".", rerank: { provider: "learned" } });
    const dir = mkdtempSync(join(tmpdir(), "hierdoc-ranker-exact-"));
    const tool = await HierarchicalDocumentTool.open({ config, indexDir: dir, store: new MemoryStore(), embedder: new HashEmbedder({ dimensions: 64 }), reranker: new LearnedReranker() });
    try {
      await tool.ingest([join(corpora, c.file)]);
      const rows = readFileSync(join(corpora, c.gold), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { num?: string });
      let queries = 0;
      let rank1 = 0;
      for (const row of rows) {
        const num = String(row.num);
        for (const form of c.forms(num)) {
          const top = (await tool.search(form, { topK: 3 })).results[0];
          queries++;
          const id = (top?.sectionId ?? "").replace(/\s+/g, " ").replace(/\.$/, "").trim().toLowerCase();
          const want = `§ ${num}`.toLowerCase();
          if (id === want || (/[a-z]$/.test(id) && id.slice(0, -1) === want)) rank1++;
        }
      }
      out.push({ name: c.name, queries, rank1 });
      log(`${c.name}: ${rank1}/${queries} rank 1`);
    } finally {
      await tool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

async function main(): Promise<void> {
  const started = new Date();
  const machine = machineInfo();
  mkdirSync(work, { recursive: true });
  if (!existsSync(q("obliqa.qrels.json"))) run([qrelsCli, "obliqa", "--corpus", join(corpora, "obliqa"), "--out", q("obliqa.qrels.json"), "--queries", q("obliqa.queries.jsonl")]);
  const latencyOnly = argv.includes("--latency-only");
  if (!latencyOnly && !existsSync(q("policyqa.qrels.json"))) {
    run([qrelsCli, "policyqa", "--input", join(corpora, "policyqa/dev.json"), "--docs-dir", q("policyqa-docs"), "--out", q("policyqa.qrels.json"), "--queries", q("policyqa.queries.jsonl")]);
  }
  if (!existsSync(q("idx-obliqa/hierdoc.json"))) run([cli, "ingest", join(corpora, "obliqa/StandardizedRegulatoryDocumentsTXT"), "--index", q("idx-obliqa"), "--quiet"]);
  if (!latencyOnly && !existsSync(q("idx-policyqa/hierdoc.json"))) run([cli, "ingest", q("policyqa-docs"), "--index", q("idx-policyqa"), "--quiet"]);

  if (latencyOnly) {
    // Only the rerank compute rows (for measuring the stage): the doc is not written.
    log(`ObliQA dev latency, first ${latencyQueries} queries`);
    const latency = await rerankQuality(q("idx-obliqa"), q("obliqa.qrels.json"), latencyQueries);
    const out = { started: started.toISOString(), finished: new Date().toISOString(), loadAtStart: machine.loadAverage, loadAtEnd: loadavg(), latency };
    writeFileSync(q("ranker-latency.json"), JSON.stringify(out, null, 1));
    log(`wrote ${q("ranker-latency.json")}`);
    return;
  }
  let cv: RankerBenchResults["cv"];
  let shippedSame: boolean | "not checked";
  if (argv.includes("--skip-train")) {
    // The cross-validated numbers the train-ranker run that wrote the shipped model recorded in it.
    const shipped = JSON.parse(readFileSync(DEFAULT_RANKER_MODEL_PATH, "utf8")) as { metrics: RankerBenchResults["cv"]; trainedOn: { queries: number; candidates: number } };
    cv = { ...shipped.metrics, queries: shipped.trainedOn.queries, candidates: shipped.trainedOn.candidates, seconds: Number.NaN };
    commands.push("# earlier, writing the shipped model: node apps/cli/bin/hierdoc.js train-ranker --qrels $WORK/obliqa.qrels.json --index $WORK/idx-obliqa --out packages/rerank/models/obliqa-dev.v1.json --kind trees --folds 5 --cache $WORK/obliqa-cands50.jsonl");
    shippedSame = "not checked";
  } else {
    log(`ObliQA dev: ${kind} train-ranker, 5-fold by question`);
    const trained = q(`obliqa-dev.${kind}.json`);
    cv = lastJson<RankerBenchResults["cv"]>(
      run([cli, "train-ranker", "--qrels", q("obliqa.qrels.json"), "--index", q("idx-obliqa"), "--out", trained, "--kind", kind, "--folds", "5", "--cache", q("obliqa-cands50.jsonl"), "--json"]),
    );
    shippedSame = readFileSync(trained, "utf8").trim() === readFileSync(DEFAULT_RANKER_MODEL_PATH, "utf8").trim();
  }

  log("PolicyQA dev with the shipped model");
  const policyqa = await rerankQuality(q("idx-policyqa"), q("policyqa.qrels.json"));
  log(`ObliQA dev latency, first ${latencyQueries} queries`);
  const latency = await rerankQuality(q("idx-obliqa"), q("obliqa.qrels.json"), latencyQueries);
  log("exact lookups");
  const exact = await exactLookups();

  commands.push(["node tools/bench/dist/ranker-bench.js", ...argv].join(" ").replaceAll(work, "$WORK"));
  const results: RankerBenchResults = {
    started: started.toISOString(), finished: new Date().toISOString(), machine, loadAtEnd: loadavg() as [number, number, number],
    kind, cv, shippedSame, policyqa, latency, exact, commands,
  };
  writeFileSync(q("ranker-results.json"), JSON.stringify(results, null, 1));
  const old = existsSync(outFile) ? readFileSync(outFile, "utf8") : "";
  writeFileSync(outFile, spliceRankerSection(old, renderRankerSection(results)));
  log(`wrote ${outFile} (raw: ${q("ranker-results.json")})`);
}

main().catch((e: unknown) => {
  process.stderr.write(`ranker-bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
