// Parse + chunk throughput of @hierdoc/chunker over the shared corpora, one core.
// Usage (after `npx tsc -p packages/chunker/tsconfig.lib.json`):
//   node packages/chunker/bench/throughput.mjs [--rounds 3] [--giant 50]
// Reports MB/s (UTF-16 code units / 1e6 per second, i.e. characters) per format, best round, and the time
// for one giant single-line document of N MB.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cpus, loadavg } from "node:os";
import { parseDocument } from "../dist/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const corpora = resolve(here, "../../../../shared/corpora");
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
if (!existsSync(corpora)) {
  console.log(`skipped: ${corpora} not present`);
  process.exit(0);
}
const files = [];
const add = (dir, ext, format) => {
  for (const f of readdirSync(resolve(corpora, dir))) if (f.endsWith(ext)) files.push([`${dir}/${f}`, format]);
};
add("gdpr", ".md", "markdown");
add("cfr27/md", ".md", "markdown");
add("uscode/md", ".md", "markdown");
add("rfc", ".md", "markdown");
add("rfc/derived", ".md", "markdown");
add("gdpr", ".txt", "text");
add("rfc", ".txt", "text");
add("obliqa/StandardizedRegulatoryDocumentsTXT", ".txt", "text");
const docs = files.map(([p, format]) => ({ sourcePath: p, fileType: format, format, text: readFileSync(resolve(corpora, p), "utf8") }));
const best = { markdown: Infinity, text: Infinity };
const bestCpu = { markdown: Infinity, text: Infinity };
const size = { markdown: 0, text: 0 };
const chunks = { markdown: 0, text: 0 };
for (const d of docs) size[d.format] += d.text.length;
for (let round = 0; round < arg("rounds", 3); round++) {
  const ms = { markdown: 0, text: 0 };
  const cpu = { markdown: 0, text: 0 };
  for (const d of docs) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const parsed = parseDocument(d);
    const c1 = process.cpuUsage(c0);
    ms[d.format] += performance.now() - t0;
    cpu[d.format] += (c1.user + c1.system) / 1000;
    if (round === 0) chunks[d.format] += parsed.chunks.length;
  }
  for (const k of Object.keys(ms)) {
    best[k] = Math.min(best[k], ms[k]);
    bestCpu[k] = Math.min(bestCpu[k], cpu[k]);
  }
}
for (const k of Object.keys(best)) {
  console.log(`${k}: ${docs.filter((d) => d.format === k).length} files, ${(size[k] / 1e6).toFixed(2)} MB, ${chunks[k]} chunks, wall ${best[k].toFixed(0)} ms = ${(size[k] / 1e3 / best[k]).toFixed(2)} MB/s, CPU ${bestCpu[k].toFixed(0)} ms = ${(size[k] / 1e3 / bestCpu[k]).toFixed(2)} MB/s (best of rounds; load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`);
}
const giantMb = arg("giant", 50);
if (giantMb > 0) {
  const words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ";
  const text = words.repeat(Math.ceil((giantMb * 1e6) / words.length)).slice(0, giantMb * 1e6);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const parsed = parseDocument({ sourcePath: "giant.txt", fileType: "text", format: "text", text });
  const ms = performance.now() - t0;
  const c1 = process.cpuUsage(c0);
  console.log(`giant CPU ${((c1.user + c1.system) / 1000).toFixed(0)} ms`);
  console.log(`giant single line: ${giantMb} MB, ${parsed.chunks.length} chunks in ${ms.toFixed(0)} ms = ${(text.length / 1e3 / ms).toFixed(2)} MB/s`);
}
