// Scale benchmark (issue 16): 100k / 1M chunks, 100-d and 1,536-d, HNSW in the memory store.
//   node tools/bench/dist/scale-bench.js [--sizes 100000,1000000] [--dims 100,1536] [--shapes spread] [--skip 1000000x1536]
//        [--queries N] [--work DIR] [--out docs/benchmarks.md] [--no-doc] [--render-only]
// 1,536-d pools use an i8 graph with ef_construction 64 and pools from 500k on checkpoint every 200k records
// (the settings of the measured 1M × 1,536 run: 1,838 s store CPU, 10.2 GB build peak RSS; 1M × 1,536 stays
// skipped by default because it takes about an hour on two cores).
// Needs an ObliQA index built by the CLI and its qrels (made here when missing). Each step runs
// tools/bench/dist/scale-worker.js in a fresh process; results go to WORK/scale-results.json and a marked
// section of docs/benchmarks.md (see tools/bench/README.md).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { timed } from "./exec.js";
import { renderScaleSection, spliceScaleSection, type ScaleResults, type ScaleRun } from "./scale-report.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../../..");
const corpora = resolve(root, "../shared/corpora");
const argv = process.argv.slice(2);
const arg = (name: string, dflt: string): string => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const work = resolve(arg("work", "/tmp/hierdoc-scale"));
const outFile = resolve(root, arg("out", "docs/benchmarks.md"));
const sizes = arg("sizes", "100000,1000000").split(",").map(Number);
const dimsList = arg("dims", "100,1536").split(",").map(Number);
// How copies of the real records differ (scale-vectors.ts COPY_SHAPES): spread by default, tight for the first runs' pool.
const shapes = arg("shapes", "spread").split(",").filter(Boolean);
const skip = new Set(arg("skip", "1000000x1536").split(",").filter(Boolean));
const nQueries = arg("queries", "300");
const worker = join(here, "scale-worker.js");
const log = (m: string): void => void process.stderr.write(`[scale ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const resultsFile = join(work, "scale-results.json");

/** Graph settings per vector size (build and every open must agree, or the saved graph is not used). */
function graphArgs(dims: number): string[] {
  return dims >= 1000 ? ["--quantization", "i8", "--ef-construction", "64"] : [];
}

function render(r: ScaleResults): void {
  if (argv.includes("--no-doc")) return;
  const doc = existsSync(outFile) ? readFileSync(outFile, "utf8") : "# Benchmarks\n";
  writeFileSync(outFile, spliceScaleSection(doc, renderScaleSection(r)));
  log(`wrote the scale section of ${outFile}`);
}

async function main(): Promise<void> {
  if (argv.includes("--render-only")) return render(JSON.parse(readFileSync(resultsFile, "utf8")) as ScaleResults);
  mkdirSync(work, { recursive: true });
  const commands: string[] = [];
  const run = (args: string[], label: string): unknown => {
    log(label);
    const t = timed("node", ["--max-old-space-size=8192", ...args], root);
    commands.push(t.command.replaceAll(root + "/", "").replaceAll(work, "$WORK").replaceAll(corpora, "../shared/corpora"));
    const line = t.stdout.trim().split("\n").pop() ?? "";
    return JSON.parse(line);
  };
  const obliqa = join(work, "idx-obliqa");
  const qrels = join(work, "obliqa.qrels.json");
  const queries = join(work, "obliqa.queries.jsonl");
  if (!existsSync(qrels)) run([join(root, "tools/qrels/dist/cli.js"), "obliqa", "--corpus", join(corpora, "obliqa"), "--out", qrels, "--queries", queries], "qrels");
  if (!existsSync(join(obliqa, "hierdoc.json"))) {
    log("ingest ObliQA");
    const t = timed("node", [join(root, "apps/cli/bin/hierdoc.js"), "ingest", join(corpora, "obliqa/StandardizedRegulatoryDocumentsTXT"), "--index", obliqa, "--json", "--quiet"], root);
    commands.push(t.command.replaceAll(root + "/", "").replaceAll(work, "$WORK").replaceAll(corpora, "../shared/corpora"));
  }
  const results: ScaleResults = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${cpus()[0]?.model?.trim()} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average at start ${loadavg()[0].toFixed(1)}`,
    commands,
    runs: [],
  };
  results.quality = run([worker, "quality", "--index", obliqa, "--qrels", qrels, "--threshold", "5000"], "ObliQA quality, exact vs ANN") as ScaleResults["quality"];
  for (const shape of shapes) for (const dims of dimsList) {
    for (const size of sizes) {
      const entry: ScaleRun = { size, dims, shape };
      results.runs.push(entry);
      if (skip.has(`${size}x${dims}`)) {
        entry.error = `skipped (--skip ${size}x${dims})`;
        continue;
      }
      const dir = join(work, `idx-${size}-${dims}-${shape}`);
      try {
        entry.build = run([worker, "build", "--src", obliqa, "--out", dir, "--size", String(size), "--dims", String(dims), "--shape", shape, ...graphArgs(dims), ...(size >= 500_000 ? ["--flush-every", "200000"] : [])], `build ${size} × ${dims} (${shape})`) as ScaleRun["build"];
        entry.latency = run([worker, "latency", "--index", dir, "--src", obliqa, "--queries", queries, "--dims", String(dims), "--n", nQueries, ...graphArgs(dims)], `latency ${size} × ${dims}`) as ScaleRun["latency"];
      } catch (err) {
        entry.error = (err as Error).message.split("\n")[0].slice(0, 200);
      }
      writeFileSync(resultsFile, JSON.stringify(results, null, 2));
    }
  }
  writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  render(results);
}

await main();
