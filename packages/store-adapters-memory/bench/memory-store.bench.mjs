// Benchmark of the memory store (run after building core and this package):
//   npx tsc -p packages/core/tsconfig.lib.json && npx tsc -p packages/store-adapters-memory/tsconfig.lib.json
//   node packages/store-adapters-memory/bench/memory-store.bench.mjs [rows=100000] [dims=100]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeRecord, makeVector, seededRandom } from "@hierdoc/core/testing";
import { MemoryStore } from "@hierdoc/store-adapters-memory";

const rows = Number(process.argv[2] ?? 100_000);
const dims = Number(process.argv[3] ?? 100);
const rnd = seededRandom(1);
const randomVector = () => Float32Array.from({ length: dims }, () => rnd() * 2 - 1);
const ms = (t) => (performance.now() - t).toFixed(1);

const store = new MemoryStore();
await store.open({ embedderId: "bench", dimensions: dims });
let t = performance.now();
const BATCH = 10_000;
for (let i = 0; i < rows; i += BATCH) {
  const batch = [];
  for (let j = i; j < Math.min(rows, i + BATCH); j++) batch.push({ record: { id: `c${j}`, sourcePath: `doc${j % 50}.md` }, vector: randomVector() });
  await store.upsert(batch);
}
console.log(`upsert ${rows} x ${dims}: ${ms(t)} ms`);

const queries = Array.from({ length: 50 }, randomVector);
for (const q of queries.slice(0, 5)) await store.vectorSearch({ vector: q, topK: 10 });
for (const [label, filter] of [["unfiltered", undefined], ["filter 5/50 sources", { sourcePaths: ["doc1.md", "doc2.md", "doc3.md", "doc4.md", "doc5.md"] }]]) {
  const times = [];
  const cpu = process.cpuUsage();
  for (const q of queries) {
    const s = performance.now();
    await store.vectorSearch({ vector: q, topK: 10, filter });
    times.push(performance.now() - s);
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  const cpuMs = (used.user + used.system) / 1000 / queries.length;
  console.log(`vectorSearch top-10 ${label}: wall median ${times[25].toFixed(2)} ms, p95 ${times[47].toFixed(2)} ms; CPU ${cpuMs.toFixed(2)} ms/query`);
}

const dir = mkdtempSync(join(tmpdir(), "hierdoc-bench-"));
try {
  const persisted = new MemoryStore({ dir });
  await persisted.open({ embedderId: "bench", dimensions: dims });
  const records = Array.from({ length: 10_000 }, (_, i) => ({ record: makeRecord(i, { content: `Rule ${i} `.repeat(60) }), vector: makeVector(i, dims) }));
  await persisted.upsert(records);
  t = performance.now();
  await persisted.flush();
  console.log(`flush 10k full records: ${ms(t)} ms`);
  await persisted.close();
  t = performance.now();
  const cpu = process.cpuUsage();
  const reopened = new MemoryStore({ dir });
  await reopened.open({ embedderId: "bench", dimensions: dims });
  const used = process.cpuUsage(cpu);
  console.log(`open (load + verify checksums) 10k full records: wall ${ms(t)} ms, CPU ${((used.user + used.system) / 1000).toFixed(1)} ms, count ${await reopened.count()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
