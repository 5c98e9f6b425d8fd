// Ingest worker pool benchmark (issue 16): throughput of a folder with 1, 2, … workers, pool only and end to end,
// with the per-file stages split two ways.
//   node tools/bench/dist/ingest-workers-bench.js [--dir DIR] [--workers 1,2] [--rounds 1] [--modes pool,e2e] [--splits main,workers]
// Default DIR: ../shared/corpora/obliqa/StandardizedRegulatoryDocumentsTXT (40 files, 5.5 MB).
// - splits: `workers` is the product's split (the default GloVe embedder and structural context declare a
//   workerRecipe, so contexts and vectors are written in the workers); `main` strips those recipes from the same
//   objects, so contexts and vectors are written in the main thread as before that change (convert, parse and
//   definitions/references still in the workers). Each round runs the splits alternately.
// - pool: a ConvertPool over the folder whose workers started (converters, and in the `workers` split the GloVe table
//   and structural context) before the clock starts: what the workers do. Also reports each worker's start-up time,
//   V8 heap and external memory, and the process RSS each worker adds.
// - e2e: `tool.ingest` of the folder into a fresh index with the default config (GloVe embedder, memory store,
//   BM25), workers started by the ingest itself, as `hierdoc ingest DIR --workers N --force` does.
// CPU is split per thread on Linux (/proc): `main` is the main thread, `other threads` every other one (the ingest
// workers and V8's helper threads for GC and compilation, which serve all threads), and in pool runs the worker
// threads alone (each worker reports its own thread's CPU).
// One JSON line per run, then one summary line per mode, split and worker count with the speed-up over the first
// count, the load average and a CPU ceiling on this machine's cores; then, per split, a PROJECTION (not a
// measurement) of the pipeline bound on idle machines with more cores: with the main thread's CPU per MB while files
// stream M and after the last file E (persisting, serial; e2e) and the worker threads' W (pool), N workers cannot
// exceed 1 / (max(M, W / N) + E) MB/s (worker start-up, ≈ 0.35 s of CPU each, left out); and the 2-core bound
// 2·max(W, M) / (W + M) of 2 workers over 1, with the largest file's share of the workers' time (it caps the pool).
// Not part of `npm test` or `npm run bench`; about 2 minutes per round on 2 idle cores with the defaults.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ConverterLimitsConfigSchema, type ContextGenerator, type Embedder } from "@hierdoc/core";
import { openIndex } from "@hierdoc/runtime";
import { Bm25Index } from "@hierdoc/keyword-search";
import { ConvertPool, workerComponents, type ConvertPoolOptions } from "@hierdoc/tool";
import { machineInfo } from "./machine.js";
import { summarize } from "./stats.js";

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const dir = resolve(opt("dir", resolve(here, "../../../../shared/corpora/obliqa/StandardizedRegulatoryDocumentsTXT")));
const counts = opt("workers", "1,2").split(",").map(Number);
const rounds = Number(opt("rounds", "1"));
const modes = opt("modes", "pool,e2e").split(",") as Array<"pool" | "e2e">;
const splits = opt("splits", "main,workers").split(",") as Split[];

/** Where contexts and vectors are written: the main thread (recipes stripped) or the workers (the product's default). */
type Split = "main" | "workers";

/** CPU seconds of this process's main thread (Linux), else undefined. */
function mainThreadCpu(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ ticks
  } catch {
    return undefined;
  }
}

interface Run {
  mode: "pool" | "e2e";
  split: Split;
  workers: number;
  seconds: number;
  mb: number;
  mbPerS: number;
  /** CPU seconds: the whole process, the main thread, the other threads. */
  cpuS: number;
  mainCpuS?: number;
  restCpuS?: number;
  /** e2e: main-thread CPU seconds after the last file was indexed (persisting the indexes: serial, after the workers). */
  mainEndCpuS?: number;
  /** CPU seconds of the worker threads themselves (pool runs, Linux). */
  workerCpuS?: number;
  /** Pool runs: median start-up of a worker (wall ms from spawn to ready, and its thread's CPU ms), its V8 heap and external MB, process RSS MB added per worker. */
  startMs?: number;
  startCpuMs?: number;
  heapMb?: number;
  externalMb?: number;
  rssPerWorkerMb?: number;
  /** Pool runs: the worker milliseconds (sum of the file's stage timings) of the largest file and of all files. */
  largestFileMs?: number;
  allFilesMs?: number;
  load: number;
}

/** Times `fn` with the process's and the main thread's CPU. */
async function measure(mode: Run["mode"], split: Split, workers: number, mb: number, fn: () => Promise<void>): Promise<Run> {
  const m0 = mainThreadCpu();
  const c0 = process.cpuUsage();
  const t = performance.now();
  await fn();
  const seconds = (performance.now() - t) / 1000;
  const c = process.cpuUsage(c0);
  const m1 = mainThreadCpu();
  const cpuS = (c.user + c.system) / 1e6;
  const mainCpuS = m0 === undefined || m1 === undefined ? undefined : m1 - m0;
  return { mode, split, workers, seconds, mb, mbPerS: mb / seconds, cpuS, mainCpuS, restCpuS: mainCpuS === undefined ? undefined : cpuS - mainCpuS, load: machineInfo().loadAverage[0] };
}

/** The context writer and embedder of the default config (what `hierdoc ingest` uses), opened once. */
async function defaultComponents(): Promise<{ embedder: Embedder; context: ContextGenerator | undefined }> {
  const index = mkdtempSync(join(tmpdir(), "hierdoc-ingest-bench-"));
  try {
    const tool = await openIndex({ index }, { mustExist: false, env: (name) => process.env[name], sources: [dir] });
    await tool.close();
    return { embedder: tool.embedder, context: tool.contextGenerator };
  } finally {
    rmSync(index, { recursive: true, force: true });
  }
}

/**
 * The pool's worker components in the `workers` split: as the ingest picks them (contexts, vectors, the default BM25's
 * analysis and the records' assembly).
 */
function poolComponents(split: Split, c: { embedder: Embedder; context: ContextGenerator | undefined }): ConvertPoolOptions["components"] {
  if (split === "main") return undefined;
  const { embedder, context } = c;
  if (!embedder.workerRecipe || (context && !context.workerRecipe)) throw new Error("the default embedder or context writer declares no workerRecipe");
  return workerComponents(embedder, context, new Bm25Index({ variant: "lucene" }));
}

/** Makes `tool`'s context writer and embedder run in the main thread (the split before contexts and vectors moved). */
function keepInMainThread(components: Array<object | undefined>): void {
  for (const c of components) if (c) Object.defineProperty(c, "workerRecipe", { value: undefined, configurable: true });
}

/** One timed pass of the pool over the folder with `size` warm workers. */
async function poolRun(size: number, split: Split, files: string[]): Promise<Run> {
  const c = await defaultComponents();
  const rss0 = process.memoryUsage().rss;
  const pool = new ConvertPool({ size, limits: ConverterLimitsConfigSchema.parse({}), maxChunkTokens: 800, components: poolComponents(split, c) });
  try {
    await Promise.all(Array.from({ length: size }, (_, i) => pool.run(`warm-${i}.md`, new TextEncoder().encode("# Warm\n\nup\n"))));
    const rssPerWorkerMb = (process.memoryUsage().rss - rss0) / 1e6 / size;
    const bytes = files.map((f) => new Uint8Array(readFileSync(f)));
    const mb = bytes.reduce((s, b) => s + b.length, 0) / 1e6;
    // Before the run: the bytes' buffers are transferred to the workers (their lengths read 0 after).
    const largest = bytes.reduce((best, b, i) => (b.length > bytes[best]!.length ? i : best), 0);
    const w0 = pool.workerCpuMs;
    const fileMs: number[] = [];
    const run = await measure("pool", split, size, mb, async () => {
      await Promise.all(files.map(async (f, i) => (fileMs[i] = Object.values((await pool.run(f, bytes[i]!, undefined, "bench-hash")).timingsMs).reduce((a, b) => a + b, 0))));
    });
    const w1 = pool.workerCpuMs;
    const med = (xs: number[]) => summarize(xs).p50;
    return {
      ...run,
      workerCpuS: w0 === undefined || w1 === undefined ? undefined : (w1 - w0) / 1000,
      startMs: med(pool.starts.map((s) => s.startMs)),
      startCpuMs: pool.starts.every((s) => s.startCpuMs !== undefined) ? med(pool.starts.map((s) => s.startCpuMs!)) : undefined,
      heapMb: med(pool.starts.map((s) => s.heapMb)),
      externalMb: med(pool.starts.map((s) => s.externalMb)),
      rssPerWorkerMb,
      largestFileMs: fileMs[largest],
      allFilesMs: fileMs.reduce((a, b) => a + b, 0),
    };
  } finally {
    await pool.close();
  }
}

/** One end-to-end ingest of the folder into a fresh index with `workers` workers. */
async function e2eRun(workers: number, split: Split, files: string[]): Promise<Run> {
  const index = mkdtempSync(join(tmpdir(), "hierdoc-ingest-bench-"));
  try {
    const mb = files.reduce((s, f) => s + readFileSync(f).length, 0) / 1e6;
    const tool = await openIndex({ index }, { mustExist: false, env: (name) => process.env[name], sources: [dir] });
    if (split === "main") keepInMainThread([tool.embedder, tool.contextGenerator]);
    try {
      let lastFileCpu: number | undefined;
      const run = await measure("e2e", split, workers, mb, async () => {
        const report = await tool.ingest([dir], {
          workers,
          force: true,
          onProgress: (e) => {
            if (e.file === e.files && (e.stage === "done" || e.stage === "failed" || e.stage === "skipped")) lastFileCpu = mainThreadCpu();
          },
        });
        const failed = report.files.filter((f) => f.outcome === "failed");
        if (failed.length > 0) throw new Error(`${failed.length} file(s) failed: ${failed[0]!.error?.message}`);
      });
      const end = mainThreadCpu();
      return { ...run, mainEndCpuS: lastFileCpu === undefined || end === undefined ? undefined : end - lastFileCpu };
    } finally {
      await tool.close();
    }
  } finally {
    rmSync(index, { recursive: true, force: true });
  }
}

const perMb = (s: number | undefined, mb: number) => (s === undefined ? "n/a" : (s / mb).toFixed(3));

if (!existsSync(dir)) {
  console.log(`skipped: ${dir} is absent`);
} else {
  const files = readdirSync(dir).map((f) => join(dir, f)).sort();
  const runs: Run[] = [];
  console.log(JSON.stringify({ start: machineInfo() }));
  for (let r = 0; r < rounds; r++) {
    for (const mode of modes) {
      for (const n of counts) {
        // Alternate the splits (old, new; new, old on the next round) so drifting load hits both alike.
        for (const split of r % 2 === 0 ? splits : [...splits].reverse()) {
          const res = mode === "pool" ? await poolRun(n, split, files) : await e2eRun(n, split, files);
          runs.push(res);
          console.log(JSON.stringify({ round: r + 1, ...res, cpu_per_wall: res.cpuS / res.seconds }));
        }
      }
    }
  }
  const cores = availableParallelism();
  const median = (xs: Array<number | undefined>) => (xs.length > 0 && xs.every((x) => x !== undefined) ? summarize(xs as number[]).p50 : undefined);
  const fixed = (x: number | undefined, digits = 3) => (x === undefined ? "n/a" : x.toFixed(digits));
  for (const split of splits) {
    // Worker-thread CPU over the folder: the same work in both modes, measured in the pool runs of the first worker count.
    const poolFirst = runs.filter((x) => x.mode === "pool" && x.split === split && x.workers === counts[0]);
    const wt = poolFirst.length > 0 ? median(poolFirst.map((x) => x.workerCpuS)) : undefined;
    for (const mode of modes) {
      const of = (n: number) => runs.filter((x) => x.mode === mode && x.split === split && x.workers === n);
      const base = summarize(of(counts[0]!).map((x) => x.mbPerS)).p50;
      const first = of(counts[0]!);
      const mb = first[0]!.mb;
      // Ceiling from CPU alone (load-independent), with the first count's per-MB CPU: a run takes at least the
      // busiest worker's share, the main thread's CPU, and all CPU spread over the cores.
      const m = median(first.map((x) => x.mainCpuS));
      const rest = median(first.map((x) => x.restCpuS));
      const bound = (n: number) => Math.max(wt! / n, m!, (rest! + m!) / cores);
      for (const n of counts) {
        const runsN = of(n);
        const med = summarize(runsN.map((x) => x.mbPerS)).p50;
        const ceiling = m === undefined || rest === undefined || wt === undefined ? "n/a" : `${(bound(counts[0]!) / bound(n)).toFixed(2)}×`;
        // Measured, not modelled: n workers spent this much CPU in all (V8's GC and compiler threads included), so on
        // these cores they need at least CPU / cores seconds; against the first count's wall time that caps the speed-up.
        const allCpu = summarize(runsN.map((x) => x.cpuS)).p50;
        const firstWall = summarize(first.map((x) => x.seconds)).p50;
        const cpuBound = `${(firstWall / (allCpu / cores)).toFixed(2)}× by this run's total CPU ${(allCpu / mb).toFixed(3)} s/MB`;
        const loads = runsN.map((x) => x.load.toFixed(2)).join("/");
        const other = runs.filter((x) => x.mode === mode && x.split !== split && x.workers === n);
        const vsOther = other.length > 0 ? `, ${(med / summarize(other.map((x) => x.mbPerS)).p50).toFixed(2)}× split ${other[0]!.split}` : "";
        console.log(
          `${mode} split ${split} workers ${n}: median ${med.toFixed(3)} MB/s, ${(med / base).toFixed(2)}× ${counts[0]} worker(s)${vsOther} (CPU ceiling ${ceiling} on ${cores} cores; ≤ ${cpuBound}); ` +
            `CPU s/MB main ${perMb(median(runsN.map((x) => x.mainCpuS)), mb)}, other threads ${perMb(median(runsN.map((x) => x.restCpuS)), mb)}` +
            (mode === "pool"
              ? ` (worker threads ${perMb(median(runsN.map((x) => x.workerCpuS)), mb)}); per worker: start ${fixed(median(runsN.map((x) => x.startMs)), 0)} ms (CPU ${fixed(median(runsN.map((x) => x.startCpuMs)), 0)} ms), ` +
                `V8 heap ${fixed(median(runsN.map((x) => x.heapMb)), 1)} MB + external ${fixed(median(runsN.map((x) => x.externalMb)), 1)} MB, process RSS +${fixed(median(runsN.map((x) => x.rssPerWorkerMb)), 0)} MB`
              : "") +
            `; load ${loads} (${files.length} files, ${mb.toFixed(1)} MB)`,
        );
      }
    }
    // The pipeline bound on an idle machine with at least N + 1 cores: a PROJECTION from measured CPU, not a measurement.
    // While files stream, the main thread (M per file) and the workers (W / N) overlap; persisting at the end (E) follows.
    const e2eFirst = runs.filter((x) => x.mode === "e2e" && x.split === split && x.workers === counts[0]);
    const m = e2eFirst.length > 0 ? median(e2eFirst.map((x) => x.mainCpuS)) : undefined;
    const e = e2eFirst.length > 0 ? median(e2eFirst.map((x) => x.mainEndCpuS)) : undefined;
    if (m !== undefined && e !== undefined && wt !== undefined) {
      const mb = e2eFirst[0]!.mb;
      const perFile = m - e;
      const cap = (n: number) => mb / (Math.max(perFile, wt / n) + e);
      const line = [1, 2, 3, 4].map((n) => `${n}: ${cap(n).toFixed(2)} MB/s`).join(", ");
      // The 2-core bound of the model: 1 worker takes max(W, M) per MB, 2 workers share 2 cores with the main thread.
      const wPerMb = wt / mb;
      const mPerMb = perFile / mb;
      const largest = poolFirst.length > 0 ? median(poolFirst.map((x) => x.largestFileMs)) : undefined;
      const all = poolFirst.length > 0 ? median(poolFirst.map((x) => x.allFilesMs)) : undefined;
      console.log(
        `PROJECTION (not measured) split ${split}: 2 cores, 2 workers ≤ 2·max(W, M) / (W + M) = ${((2 * Math.max(wPerMb, mPerMb)) / (wPerMb + mPerMb)).toFixed(2)}× 1 worker ` +
          `(W ${wPerMb.toFixed(3)}, M ${mPerMb.toFixed(3)} CPU s/MB; V8 helper threads, worker start-up and the serial end left out)` +
          (largest !== undefined && all !== undefined ? `; largest file ${(largest / 1000).toFixed(2)} s of ${(all / 1000).toFixed(2)} s worker time (${((100 * largest) / all).toFixed(0)} %)` : ""),
      );
      console.log(
        `PROJECTION (not measured) split ${split}: main ${(perFile / mb).toFixed(3)} CPU s/MB while files stream + ${(e / mb).toFixed(3)} persisting at the end, ` +
          `workers ${(wt / mb).toFixed(3)} CPU s/MB; bound MB / (max(main, workers / N) + end) with ≥ N + 1 idle cores: ${line}; ` +
          `2 workers ≤ ${(cap(2) / cap(1)).toFixed(2)}× 1 worker`,
      );
    }
  }
  console.log(JSON.stringify({ end: machineInfo().loadAverage }));
}
