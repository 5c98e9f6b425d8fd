// hierdoc benchmark harness: `npm run bench [-- --quick] [-- --work DIR]` → docs/benchmarks.md.
// See tools/bench/README.md. Every number in the written file comes from this run.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadavg } from "node:os";
import { loadQrels } from "@hierdoc/eval";
import { lastJson, timed, type Timed } from "./exec.js";
import { machineInfo } from "./machine.js";
import { buildLangChain, buildOrama } from "./peers.js";
import { loadEmbedder, manifestConfig, readIndexRecords, toPoolChunks } from "./pool.js";
import { rescore, runHierdoc, runPeer, subsetQrels, writeVariantConfig, type QualityRow } from "./quality.js";
import { writeReport, type BenchResults, type IngestSummary } from "./report.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../../..");
const corpora = resolve(root, "../shared/corpora");
const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const workArg = argv.indexOf("--work");
const work = resolve(workArg >= 0 ? argv[workArg + 1] : "/tmp/hierdoc-bench");
const outArg = argv.indexOf("--out");
const outFile = resolve(root, outArg >= 0 ? argv[outArg + 1] : "docs/benchmarks.md");
const cli = join(root, "apps/cli/bin/hierdoc.js");
const worker = join(here, "worker.js");
const qrelsCli = join(root, "tools/qrels/dist/cli.js");
const log = (m: string): void => {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
};
const rel = (p: string): string => (p.startsWith(root + "/") ? p.slice(root.length + 1) : p.startsWith(resolve(root, "..") + "/") ? `../${p.slice(resolve(root, "..").length + 1)}` : p);

/** Sizes of the run (quick: a few minutes; full: ≤ 20 minutes on 2 idle cores). */
const P = quick
  ? { qualityQueries: 300, peerQueries: 50, latencyQueries: 100, peerVectorQueries: 50, peerSlow10k: 10, peerSlow100k: 1, cliQueries: 100, coldRuns: 2, chunkerRounds: 1 }
  : { qualityQueries: Infinity, peerQueries: 100, latencyQueries: 500, peerVectorQueries: 200, peerSlow10k: 30, peerSlow100k: 2, cliQueries: 500, coldRuns: 3, chunkerRounds: 2 };

async function main(): Promise<void> {
  if (argv.includes("--render-only")) {
    // Re-renders the report from the raw numbers of the last run in --work (no measurement).
    writeReport(JSON.parse(readFileSync(join(work, "results.json"), "utf8")) as BenchResults, outFile);
    log(`rendered ${rel(outFile)} from ${join(work, "results.json")}`);
    return;
  }
  const started = new Date();
  const machine = machineInfo();
  log(`machine ${machine.cpuModel} × ${machine.cores}, load ${machine.loadAverage.map((x) => x.toFixed(2)).join(" ")}; work dir ${work}`);
  if (!existsSync(corpora)) throw new Error(`${corpora} not present: the benchmark needs the shared corpora`);
  for (const f of [cli, qrelsCli]) if (!existsSync(f)) throw new Error(`${f} missing: build first (npx nx run-many -t build)`);
  mkdirSync(work, { recursive: true });
  const commands: string[] = [];
  const run = (program: string, args: string[], o: Parameters<typeof timed>[3] = {}): Timed => {
    const t = timed(program, args, root, o);
    commands.push(t.command.replaceAll(corpora, "../shared/corpora").replaceAll(root + "/", "").replaceAll(work, "$WORK"));
    return t;
  };

  // 1. Qrels and query files.
  log("qrels");
  const q = (n: string): string => join(work, n);
  run("node", [qrelsCli, "obliqa", "--corpus", join(corpora, "obliqa"), "--out", q("obliqa.qrels.json"), "--queries", q("obliqa.queries.jsonl")]);
  run("node", [qrelsCli, "policyqa", "--input", join(corpora, "policyqa/dev.json"), "--docs-dir", q("policyqa-docs"), "--out", q("policyqa.qrels.json"), "--queries", q("policyqa.queries.jsonl")]);
  const variantsYaml = writeVariantConfig(work);

  // 2. Ingest (fresh indexes), through the CLI.
  const ingest = (name: string, paths: string[], extra: string[] = []): IngestSummary => {
    const dir = q(name);
    rmSync(dir, { recursive: true, force: true });
    log(`ingest ${name}`);
    const t = run("node", [cli, "ingest", ...paths, "--index", dir, "--json", "--quiet", ...extra]);
    const s = JSON.parse(t.stdout) as IngestSummary;
    s.wallMs = t.wallMs;
    s.command = t.command.replaceAll(corpora, "../shared/corpora").replaceAll(root + "/", "").replaceAll(work, "$WORK");
    return s;
  };
  const obliqaDocs = join(corpora, "obliqa/StandardizedRegulatoryDocumentsTXT");
  const ingests: Record<string, IngestSummary> = {};
  ingests.obliqa = ingest("idx-obliqa", [obliqaDocs]);
  ingests.obliqaNoCtx = ingest("idx-obliqa-noctx", [obliqaDocs], ["--config", variantsYaml, "--tool", "no_context"]);
  ingests.policyqa = ingest("idx-policyqa", [q("policyqa-docs")]);
  ingests.policyqaNoCtx = ingest("idx-policyqa-noctx", [q("policyqa-docs")], ["--config", variantsYaml, "--tool", "no_context"]);
  const sharedFiles = [
    join(corpora, "gdpr/gdpr_2016_679.md"),
    ...listFiles(join(corpora, "uscode/md"), ".md"),
    ...listFiles(join(corpora, "cfr27/md"), ".md"),
    ...listFiles(join(corpora, "rfc/derived"), ".md"),
    ...listFiles(join(corpora, "rfc"), ".txt"),
    obliqaDocs,
    q("policyqa-docs"),
  ];
  ingests.all = ingest("idx-all", sharedFiles);
  {
    const embedder = await loadEmbedder(manifestConfig(q("idx-all")));
    const maxEnd = new Map<string, number>();
    for (const r of await readIndexRecords(q("idx-all"), embedder)) maxEnd.set(r.record.sourcePath, Math.max(maxEnd.get(r.record.sourcePath) ?? 0, r.record.end));
    ingests.all.convertedChars = [...maxEnd.values()].reduce((a, b) => a + b, 0);
  }
  const sharedDisplay = "../shared/corpora/{gdpr/gdpr_2016_679.md, uscode/md/*.md, cfr27/md/*.md, rfc/derived/*.md, rfc/*.txt, obliqa/StandardizedRegulatoryDocumentsTXT} $WORK/policyqa-docs";

  // 3. Retrieval quality, in process (evaluateRun), plus the same on a subset for the peer comparison.
  const quality: QualityRow[] = [];
  const peerRows: QualityRow[] = [];
  const subsetRows: Array<{ row: QualityRow; metrics: QualityRow["metrics"] }> = [];
  const lcOrderCheck: Array<{ corpus: string; checked: number; differ: number }> = [];
  const corporaSpec = [
    { name: "ObliQA dev", qrels: q("obliqa.qrels.json"), idx: q("idx-obliqa"), noctx: q("idx-obliqa-noctx") },
    { name: "PolicyQA dev", qrels: q("policyqa.qrels.json"), idx: q("idx-policyqa"), noctx: q("idx-policyqa-noctx") },
  ];
  for (const c of corporaSpec) {
    const full = await loadQrels(c.qrels);
    const qrels = subsetQrels(full, P.qualityQueries);
    const sub = subsetQrels(full, P.peerQueries);
    const variants = [
      { name: "keyword only", index: c.idx, mode: "keyword" as const },
      { name: "semantic only", index: c.idx, mode: "semantic" as const },
      { name: "hybrid (defaults)", index: c.idx, mode: "hybrid" as const },
      { name: "hybrid, no structural context", index: c.noctx, mode: "hybrid" as const },
      { name: "hybrid, RRF equal weights", index: c.idx, mode: "hybrid" as const, config: { file: variantsYaml, tool: "rrf_equal" } },
      { name: "hybrid, no exact leg", index: c.idx, mode: "hybrid" as const, config: { file: variantsYaml, tool: "no_exact" } },
    ];
    for (const v of variants) {
      log(`quality ${c.name}: ${v.name} (${qrels.queries.length} queries)`);
      const row = await runHierdoc(c.name, qrels, v);
      quality.push(row);
      if (v.name === "keyword only" || v.name === "semantic only" || v.name === "hybrid (defaults)") subsetRows.push({ row, metrics: rescore(row, sub) });
    }
    // Peers over hierdoc's own chunks (indexed text = context + content) and GloVe vectors.
    const config = manifestConfig(c.idx);
    const embedder = await loadEmbedder(config);
    const records = await readIndexRecords(c.idx, embedder);
    const byId = new Map(records.map((r) => [r.record.id, r]));
    const pool = toPoolChunks(records);
    log(`peers ${c.name}: Orama, LangChain over ${pool.length} chunks (${sub.queries.length} queries)`);
    const orama = await buildOrama(pool, embedder);
    for (const m of ["fulltext", "vector", "hybrid"] as const) peerRows.push(await runPeer(c.name, sub, orama, m, byId));
    const lc = await buildLangChain(pool, embedder, true);
    peerRows.push(await runPeer(c.name, sub, lc, "vector", byId));
    // How often LangChain's top 10 differs from an exact cosine ranking of the same vectors.
    let differ = 0;
    const checked = sub.queries.slice(0, 30);
    for (const qq of checked) {
      const qv = await embedder.embedQuery(qq.query);
      const exact = pool.map((p) => { let d = 0; for (let i = 0; i < qv.length; i++) d += qv[i] * p.vector[i]; return { id: p.id, d }; }).sort((a, b) => b.d - a.d).slice(0, 10).map((x) => x.id);
      if (exact.join("\n") !== (await lc.search(qq.query, "vector", 10)).join("\n")) differ++;
    }
    lcOrderCheck.push({ corpus: c.name, checked: checked.length, differ });
  }
  // `hierdoc eval` reproduces the in-process number (ObliQA dev, hybrid defaults, all queries).
  let cliEval: { command: string; metrics: Record<string, number> } | undefined;
  if (!quick) {
    log("hierdoc eval (CLI) on ObliQA dev");
    const t = run("node", [cli, "eval", "--qrels", q("obliqa.qrels.json"), "--index", q("idx-obliqa"), "--json"]);
    cliEval = { command: commands[commands.length - 1], metrics: JSON.parse(t.stdout) as Record<string, number> };
  }

  // 4. Latency at 10k and 100k chunks (the shared corpus repeated with distinct ids).
  const sizes = [10_000, 100_000];
  const latency: BenchResults["latency"] = [];
  const peerLatency: BenchResults["peerLatency"] = [];
  const cliBatch: BenchResults["cliBatch"] = [];
  const builds: BenchResults["builds"] = [];
  const queriesFile = q("obliqa.queries.jsonl");
  const cliQueries = q("latency.queries.jsonl");
  writeFileSync(cliQueries, readFileSync(queriesFile, "utf8").split("\n").filter(Boolean).slice(0, P.cliQueries).join("\n") + "\n");
  // The ObliQA index itself (11k chunks, questions about its own text): the realistic case near 10k.
  log("latency hierdoc on the ObliQA index");
  latency.push({ ...lastJson<BenchResults["latency"][number]>(run("node", [worker, "latency-hierdoc", "--index", q("idx-obliqa"), "--queries", queriesFile, "--n", String(P.latencyQueries)])), label: "ObliQA index" });
  for (const size of sizes) {
    const dir = q(`idx-${size / 1000}k`);
    log(`build hierdoc ${size} chunks`);
    builds.push({ size, ...lastJson<object>(run("node", [worker, "build-hierdoc", "--src", q("idx-all"), "--out", dir, "--size", String(size)])) } as never);
    log(`latency hierdoc ${size}`);
    latency.push(lastJson(run("node", [worker, "latency-hierdoc", "--index", dir, "--queries", queriesFile, "--n", String(P.latencyQueries)])));
    log(`hierdoc search --queries at ${size}`);
    const t = run("node", [cli, "search", "--queries", cliQueries, "--index", dir, "--top-k", "10", "--json"], { stdoutFile: q(`cli-run-${size}.jsonl`) });
    cliBatch.push({ size, queries: P.cliQueries, wallMs: t.wallMs });
    for (const system of ["orama", "langchain"]) {
      log(`latency ${system} ${size}`);
      const modes = system === "orama" ? "vector,fulltext,hybrid" : "vector";
      const nSlow = size >= 100_000 ? P.peerSlow100k : P.peerSlow10k;
      peerLatency.push(lastJson(run("node", [worker, "latency-peer", "--src", q("idx-all"), "--size", String(size), "--system", system, "--modes", modes, "--queries", queriesFile, "--n", String(P.peerVectorQueries), "--n-slow", String(nSlow)])));
    }
  }
  // Cold start: a fresh `hierdoc search` process on the persisted 10k index, spawn to exit (first result printed).
  const cold: number[] = [];
  let coldCommand = "";
  for (let i = 0; i < P.coldRuns; i++) {
    const t = run("node", [cli, "search", "What are the obligations of an Authorised Person?", "--index", q("idx-10k"), "--json"]);
    if (!t.stdout.includes('"id"')) throw new Error("cold-start search printed no result");
    cold.push(t.wallMs);
    coldCommand = commands[commands.length - 1];
  }

  // Start-up alone: `hierdoc --version` loads the CLI's modules and exits (no embedder, no index).
  const coldVersion: number[] = [];
  for (let i = 0; i < P.coldRuns; i++) coldVersion.push(run("node", [cli, "--version"]).wallMs);

  // 5. Components.
  log("components (GloVe, BM25 100k, chunker)");
  const components = lastJson<BenchResults["components"]>(
    run("node", [worker, "components", "--src", q("idx-all"), "--corpora", corpora, "--queries", queriesFile, "--n", String(P.latencyQueries), "--tmp", work, "--rounds", String(P.chunkerRounds)]),
  );

  const results: BenchResults = {
    quick, started: started.toISOString(), finished: new Date().toISOString(), machine, loadAtEnd: loadavg() as [number, number, number],
    commands: commands.map((x) => x.replaceAll(corpora, "../shared/corpora")), ingests, sharedDisplay, quality, peerRows, subsetRows, peerQueries: P.peerQueries, qualityQueries: P.qualityQueries,
    cliEval, latency, peerLatency, cliBatch, builds, cold, coldCommand, coldVersion, lcOrderCheck, components, params: P, workDisplay: work,
  };
  writeFileSync(join(work, "results.json"), JSON.stringify(results, (key, v) => (key === "run" ? [] : v === Infinity ? 1e9 : v), 1));
  writeReport(results, outFile);
  log(`wrote ${rel(outFile)} (raw numbers: ${join(work, "results.json")})`);
}

function listFiles(dir: string, ext: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(ext)).sort().map((f) => join(dir, f)) : [];
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
