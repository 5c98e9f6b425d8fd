// Ingest worker pool benchmark (issue 16): conversion + parsing throughput of a folder with 1, 2, … workers.
//   node tools/bench/dist/ingest-workers-bench.js [--dir DIR] [--workers 1,2] [--rounds 3]
// Default DIR: ../shared/corpora/obliqa/StandardizedRegulatoryDocumentsTXT (40 files, 5.5 MB). Workers start and
// load the converters before the clock starts; rounds alternate the worker counts. Prints one JSON line per
// run (seconds, MB/s, CPU seconds of the process and CPU/wall, load average) and the median speed-up over the
// first worker count. On a shared machine the load average decides the result: read it with the numbers.
// Not part of `npm test` or `npm run bench`.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ConverterLimitsConfigSchema } from "@hierdoc/core";
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
const rounds = Number(opt("rounds", "3"));

/** One timed pass over the folder with `size` warm workers. */
async function run(size: number, files: string[]): Promise<{ workers: number; seconds: number; mbPerS: number; cpuS: number; load: number }> {
  const pool = new ConvertPool({ size, limits: ConverterLimitsConfigSchema.parse({}), maxChunkTokens: 800 });
  try {
    await Promise.all(Array.from({ length: size }, (_, i) => pool.run(`warm-${i}.md`, new TextEncoder().encode("# Warm\n\nup\n"))));
    const bytes = files.map((f) => new Uint8Array(readFileSync(f)));
    const mb = bytes.reduce((s, b) => s + b.length, 0) / 1e6;
    const t = performance.now();
    const c0 = process.cpuUsage();
    await Promise.all(files.map((f, i) => pool.run(f, bytes[i]!)));
    const seconds = (performance.now() - t) / 1000;
    const c = process.cpuUsage(c0);
    return { workers: size, seconds, mbPerS: mb / seconds, cpuS: (c.user + c.system) / 1e6, load: machineInfo().loadAverage[0] };
  } finally {
    await pool.close();
  }
}

if (!existsSync(dir)) {
  console.log(`skipped: ${dir} is absent`);
} else {
  const files = readdirSync(dir).map((f) => join(dir, f)).sort();
  const speeds = new Map<number, number[]>(counts.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const n of counts) {
      const res = await run(n, files);
      speeds.get(n)!.push(res.mbPerS);
      console.log(JSON.stringify({ round: r + 1, ...res, cpu_per_wall: res.cpuS / res.seconds }));
    }
  }
  const base = summarize(speeds.get(counts[0]!)!).p50;
  for (const n of counts) {
    const med = summarize(speeds.get(n)!).p50;
    console.log(`workers ${n}: median ${med.toFixed(3)} MB/s, ${(med / base).toFixed(2)}× ${counts[0]} worker(s) (${files.length} files in ${dir})`);
  }
}
