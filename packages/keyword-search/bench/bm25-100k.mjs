// Informal measurement of the in-memory BM25 index at 100k chunks (not a benchmark harness; see tools/bench).
// Usage (after `npx tsc -p packages/keyword-search/tsconfig.lib.json`):
//   node packages/keyword-search/bench/bm25-100k.mjs [chunks=100000]
// Chunks are pairs of ObliQA passages (../shared/corpora/obliqa); queries are ObliQA dev questions.
// Prints wall and CPU times (CPU times matter on a shared machine).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Bm25Index } from "../dist/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const obliqa = resolve(here, "../../../../shared/corpora/obliqa");
if (!existsSync(obliqa)) {
  console.log("skipped: ../shared/corpora/obliqa not present");
  process.exit(0);
}
const passages = [];
for (const f of readdirSync(join(obliqa, "StructuredRegulatoryDocuments"))) {
  for (const p of JSON.parse(readFileSync(join(obliqa, "StructuredRegulatoryDocuments", f), "utf8"))) passages.push(p.Passage);
}
const n = Number(process.argv[2] ?? 100000);
const docs = Array.from({ length: n }, (_, i) => ({
  id: `doc_chunk_${i}`,
  text: `${passages[i % passages.length]}\n\n${passages[(i * 7919) % passages.length]}`,
  sourcePath: `f${i % 500}.txt`,
}));
const questions = JSON.parse(readFileSync(join(obliqa, "ObliQA_dev.json"), "utf8")).map((q) => q.Question);

const measure = (fn) => {
  const c = process.cpuUsage();
  const t = performance.now();
  const value = fn();
  return { value, wall: performance.now() - t, cpu: process.cpuUsage(c).user / 1000 };
};
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

const build = measure(() => {
  const index = new Bm25Index();
  index.upsertSync(docs);
  return index;
});
console.log(`build ${n} chunks: wall ${build.wall.toFixed(0)} ms, cpu ${build.cpu.toFixed(0)} ms`);
const index = build.value;
for (const q of questions.slice(0, 200)) index.searchSync(q, { topK: 10 });
const wall = [];
const cpu = [];
for (const q of questions) {
  const m = measure(() => index.searchSync(q, { topK: 10 }));
  wall.push(m.wall);
  cpu.push(m.cpu);
}
console.log(`query top-10 (${questions.length} questions): wall p50 ${pct(wall, 0.5).toFixed(2)} p95 ${pct(wall, 0.95).toFixed(2)} ms; cpu p50 ${pct(cpu, 0.5).toFixed(2)} p95 ${pct(cpu, 0.95).toFixed(2)} ms`);
const dir = mkdtempSync(join(tmpdir(), "bm25-bench-"));
try {
  const t = performance.now();
  await index.save(dir, { fingerprint: "bench" });
  console.log(`save: wall ${(performance.now() - t).toFixed(0)} ms`);
  const c = process.cpuUsage();
  const t2 = performance.now();
  const loaded = await Bm25Index.load(dir);
  console.log(`load: wall ${(performance.now() - t2).toFixed(0)} ms, cpu ${(process.cpuUsage(c).user / 1000).toFixed(0)} ms, ${await loaded.size()} docs`);
  // Serving path: the loaded index answers from its segment (views of the file's arrays).
  const lwall = [];
  const lcpu = [];
  for (const q of questions.slice(0, 200)) loaded.searchSync(q, { topK: 10 });
  for (const q of questions) {
    const m = measure(() => loaded.searchSync(q, { topK: 10 }));
    lwall.push(m.wall);
    lcpu.push(m.cpu);
  }
  console.log(`query top-10 on the loaded index: wall p50 ${pct(lwall, 0.5).toFixed(2)} p95 ${pct(lwall, 0.95).toFixed(2)} ms; cpu p50 ${pct(lcpu, 0.5).toFixed(2)} p95 ${pct(lcpu, 0.95).toFixed(2)} ms`);
  const up = [];
  const upCpu = [];
  const rm = [];
  for (let i = 0; i < 200; i++) {
    const m = measure(() => loaded.upsertSync([{ id: `doc_chunk_${i}`, text: docs[i + 1].text, sourcePath: "x" }]));
    up.push(m.wall);
    upCpu.push(m.cpu);
  }
  for (let i = 0; i < 200; i++) rm.push(measure(() => loaded.removeSync([`doc_chunk_${1000 + i}`])).wall);
  // The first update of a loaded index derives its per-document side from the postings (once).
  console.log(`first upsert after load: wall ${up[0].toFixed(1)} ms, cpu ${upCpu[0].toFixed(1)} ms`);
  console.log(`one upsert: p50 ${pct(up, 0.5).toFixed(3)} p95 ${pct(up, 0.95).toFixed(3)} ms (cpu p95 ${pct(upCpu, 0.95).toFixed(3)} ms); one remove: p95 ${pct(rm, 0.95).toFixed(3)} ms`);
  const mem = process.memoryUsage();
  console.log(`memory at the end (both indexes alive): rss ${(mem.rss / 2 ** 20).toFixed(0)} MB, heap ${(mem.heapUsed / 2 ** 20).toFixed(0)} MB, array buffers ${(mem.arrayBuffers / 2 ** 20).toFixed(0)} MB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
