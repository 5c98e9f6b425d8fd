// Timings of ChromaStore against a real local Chroma server. Build first:
//   npx tsc -p packages/core/tsconfig.lib.json && npx tsc -p packages/store-adapters-chroma/tsconfig.lib.json
//   node packages/store-adapters-chroma/scripts/bench.mjs [records=1000] [dimensions=100]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomVector } from "@hierdoc/core/testing";
import { ChromaStore } from "../dist/index.js";
import { startChromaServer } from "../dist/testing/index.js";

const N = Number(process.argv[2] ?? 1000);
const D = Number(process.argv[3] ?? 100);
const words = "data subject controller processing erasure consent rights article member state authority supervisory personal".split(" ");

const vector = (seed) => randomVector(D, seed);

function record(i) {
  const content = Array.from({ length: 180 }, (_, j) => words[(i * 7 + j * 13) % words.length]).join(" ");
  const sourcePath = `doc${i % 10}.md`;
  return {
    id: `${sourcePath}_chunk_${i}`, sourcePath, chunkIndex: i, content, start: 0, end: content.length, sectionId: `Article ${i}`,
    sectionTitle: `Article ${i}`, parentChain: ["Chapter III"], chunkType: "content", tokens: 180, unitIds: [], context: "ctx",
    indexedText: `ctx\n\n${content}`, fileHash: "h", fileChunkCount: 1, fileType: "markdown", sectionAliases: [], definitions: [], crossReferences: [],
  };
}

const ms = (t0) => Math.round((performance.now() - t0) * 10) / 10;
const dir = mkdtempSync(join(tmpdir(), "hierdoc-chroma-bench-"));
const server = await startChromaServer({ path: dir });
try {
  const out = { records: N, dimensions: D, serverStartMs: Math.round(server.startMs) };
  const store = new ChromaStore({ url: server.url, collection: "bench" });
  let t0 = performance.now();
  await store.open({ embedderId: "bench", dimensions: D });
  out.openMs = ms(t0);
  out.maxBatchSize = store.capabilities.maxBatchSize;
  const recs = Array.from({ length: N }, (_, i) => ({ record: record(i), vector: vector(i + 1) }));
  t0 = performance.now();
  await store.upsert(recs);
  out.upsertAllMs = ms(t0);
  t0 = performance.now();
  for (let i = 0; i < N; i += 100) await store.upsert(recs.slice(i, i + 100));
  out.reUpsertIn100sMs = ms(t0);
  const q = [];
  for (let i = 0; i < 50; i++) {
    t0 = performance.now();
    await store.vectorSearch({ topK: 10, vector: vector(10_000 + i) });
    q.push(performance.now() - t0);
  }
  q.sort((a, b) => a - b);
  out.queryTop10P50Ms = Math.round(q[25] * 10) / 10;
  out.queryTop10P95Ms = Math.round(q[47] * 10) / 10;
  t0 = performance.now();
  await store.vectorSearch({ topK: 10, vector: vector(1), filter: { sourcePaths: ["doc1.md", "doc2.md"] } });
  out.filteredQueryMs = ms(t0);
  t0 = performance.now();
  let n = 0;
  for await (const _ of store.scan()) n++;
  out.scanMs = ms(t0);
  out.scanned = n;
  t0 = performance.now();
  await store.get(recs.slice(0, 100).map((r) => r.record.id));
  out.get100Ms = ms(t0);
  t0 = performance.now();
  await store.deleteBySource("doc3.md");
  out.deleteBySourceMs = ms(t0);
  out.countAfterDelete = await store.count();
  console.log(JSON.stringify(out));
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
