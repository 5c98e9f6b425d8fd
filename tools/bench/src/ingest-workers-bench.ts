// Ingest worker pool benchmark (issue 16): throughput of a folder with 1, 2, … workers, pool only and end to end.
//   node tools/bench/dist/ingest-workers-bench.js [--dir DIR] [--workers 1,2] [--rounds 1] [--modes pool,e2e]
// Default DIR: ../shared/corpora/obliqa/StandardizedRegulatoryDocumentsTXT (40 files, 5.5 MB).
// - pool: conversion + parsing + definitions/references in a ConvertPool whose workers started and loaded the
//   converters before the clock starts (what the workers scale).
// - e2e: `tool.ingest` of the folder into a fresh index with the default config (GloVe embedder, memory store,
//   BM25), workers started by the ingest itself, as `hierdoc ingest DIR --workers N --force` does.
// CPU is split per thread on Linux (/proc): `main` is the main thread, `other threads` every other one (the ingest
// workers and V8's helper threads for GC and compilation, which serve all threads), and in pool runs the worker
// threads alone (each worker reports its own thread's CPU).
// Rounds alternate the worker counts. One JSON line per run, then one summary line per mode and worker count with
// the speed-up over the first count, the load average, and a CPU ceiling that ignores the load: with the first
// count's CPU (worker threads Wt from the pool runs, main thread M, other threads R, over the folder) a run with N
// workers takes at least max(Wt / N, M, (R + M) / cores); the ceiling is that bound for the first count over N's.
// Not part of `npm test` or `npm run bench`; about 1 minute on 2 idle cores with the defaults.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ConverterLimitsConfigSchema } from "@hierdoc/core";
import { openIndex } from "@hierdoc/runtime";
import { ConvertPool } from "@hierdoc/tool";
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
  workers: number;
  seconds: number;
  mb: number;
  mbPerS: number;
  /** CPU seconds: the whole process, the main thread, the other threads. */
  cpuS: number;
  mainCpuS?: number;
  restCpuS?: number;
  /** CPU seconds of the worker threads themselves (pool runs, Linux). */
  workerCpuS?: number;
  load: number;
}

/** Times `fn` with the process's and the main thread's CPU. */
async function measure(mode: Run["mode"], workers: number, mb: number, fn: () => Promise<void>): Promise<Run> {
  const m0 = mainThreadCpu();
  const c0 = process.cpuUsage();
  const t = performance.now();
  await fn();
  const seconds = (performance.now() - t) / 1000;
  const c = process.cpuUsage(c0);
  const m1 = mainThreadCpu();
  const cpuS = (c.user + c.system) / 1e6;
  const mainCpuS = m0 === undefined || m1 === undefined ? undefined : m1 - m0;
  return { mode, workers, seconds, mb, mbPerS: mb / seconds, cpuS, mainCpuS, restCpuS: mainCpuS === undefined ? undefined : cpuS - mainCpuS, load: machineInfo().loadAverage[0] };
}

/** One timed pass of the pool over the folder with `size` warm workers. */
async function poolRun(size: number, files: string[]): Promise<Run> {
  const pool = new ConvertPool({ size, limits: ConverterLimitsConfigSchema.parse({}), maxChunkTokens: 800 });
  try {
    await Promise.all(Array.from({ length: size }, (_, i) => pool.run(`warm-${i}.md`, new TextEncoder().encode("# Warm\n\nup\n"))));
    const bytes = files.map((f) => new Uint8Array(readFileSync(f)));
    const mb = bytes.reduce((s, b) => s + b.length, 0) / 1e6;
    const w0 = pool.workerCpuMs;
    const run = await measure("pool", size, mb, async () => {
      await Promise.all(files.map((f, i) => pool.run(f, bytes[i]!)));
    });
    const w1 = pool.workerCpuMs;
    return { ...run, workerCpuS: w0 === undefined || w1 === undefined ? undefined : (w1 - w0) / 1000 };
  } finally {
    await pool.close();
  }
}

/** One end-to-end ingest of the folder into a fresh index with `workers` workers. */
async function e2eRun(workers: number, files: string[]): Promise<Run> {
  const index = mkdtempSync(join(tmpdir(), "hierdoc-ingest-bench-"));
  try {
    const mb = files.reduce((s, f) => s + readFileSync(f).length, 0) / 1e6;
    const tool = await openIndex({ index }, { mustExist: false, env: (name) => process.env[name], sources: [dir] });
    try {
      return await measure("e2e", workers, mb, async () => {
        const report = await tool.ingest([dir], { workers, force: true });
        const failed = report.files.filter((f) => f.outcome === "failed");
        if (failed.length > 0) throw new Error(`${failed.length} file(s) failed: ${failed[0]!.error?.message}`);
      });
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
  for (let r = 0; r < rounds; r++) {
    for (const mode of modes) {
      for (const n of counts) {
        const res = mode === "pool" ? await poolRun(n, files) : await e2eRun(n, files);
        runs.push(res);
        console.log(JSON.stringify({ round: r + 1, ...res, cpu_per_wall: res.cpuS / res.seconds }));
      }
    }
  }
  const cores = availableParallelism();
  const median = (xs: Array<number | undefined>) => (xs.length > 0 && xs.every((x) => x !== undefined) ? summarize(xs as number[]).p50 : undefined);
  // Worker-thread CPU over the folder: the same work in both modes, measured in the pool runs of the first worker count.
  const poolFirst = runs.filter((x) => x.mode === "pool" && x.workers === counts[0]);
  const wt = poolFirst.length > 0 ? median(poolFirst.map((x) => x.workerCpuS)) : undefined;
  for (const mode of modes) {
    const of = (n: number) => runs.filter((x) => x.mode === mode && x.workers === n);
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
      const loads = runsN.map((x) => x.load.toFixed(2)).join("/");
      console.log(
        `${mode} workers ${n}: median ${med.toFixed(3)} MB/s, ${(med / base).toFixed(2)}× ${counts[0]} worker(s) (CPU ceiling ${ceiling} on ${cores} cores); ` +
          `CPU s/MB main ${perMb(median(runsN.map((x) => x.mainCpuS)), mb)}, other threads ${perMb(median(runsN.map((x) => x.restCpuS)), mb)}` +
          (mode === "pool" ? ` (worker threads ${perMb(median(runsN.map((x) => x.workerCpuS)), mb)})` : "") +
          `; load ${loads} (${files.length} files, ${mb.toFixed(1)} MB)`,
      );
    }
  }
}
