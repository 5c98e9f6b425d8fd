// Timings of LanceDbStore on a temp folder, and the cost of refreshing the FTS index eagerly (after each
// batch) versus lazily (once, before the next text search). Build first:
//   npx tsc -p packages/core/tsconfig.lib.json && npx tsc -p packages/store-adapters-lancedb/tsconfig.lib.json
//   LANCEDB_LOG=error node packages/store-adapters-lancedb/scripts/bench.mjs [records=1000] [dimensions=100] [batch=100]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomVector } from "@hierdoc/core/testing";
import { LanceDbStore } from "../dist/index.js";

const N = Number(process.argv[2] ?? 1000);
const D = Number(process.argv[3] ?? 100);
const B = Number(process.argv[4] ?? 100);
const words = "data subject controller processing erasure consent rights article member state authority supervisory personal".split(" ");

const vector = (seed) => randomVector(D, seed);

function record(i) {
  const content = Array.from({ length: 180 }, (_, j) => words[(i * 7 + j * 13) % words.length]).join(" ") + ` marker${i}`;
  const sourcePath = `doc${i % 10}.md`;
  return {
    id: `${sourcePath}_chunk_${i}`, sourcePath, chunkIndex: i, content, start: 0, end: content.length, sectionId: `Article ${i}`,
    sectionTitle: `Article ${i}`, parentChain: ["Chapter III"], chunkType: "content", tokens: 180, unitIds: [], context: "ctx",
    indexedText: `ctx\n\n${content}`, fileHash: "h", fileChunkCount: 1, fileType: "markdown", sectionAliases: [], definitions: [], crossReferences: [],
  };
}

const ms = (t0) => Math.round((performance.now() - t0) * 10) / 10;
const p50 = async (fn, n = 50) => {
  const t = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return Math.round(t[Math.floor(n / 2)] * 10) / 10;
};
const root = mkdtempSync(join(tmpdir(), "hierdoc-lancedb-bench-"));
try {
  const out = { records: N, dimensions: D, batch: B };
  const recs = Array.from({ length: N }, (_, i) => ({ record: record(i), vector: vector(i + 1) }));
  const open = { embedderId: "bench", dimensions: D };

  let store = new LanceDbStore({ uri: join(root, "lazy") });
  let t0 = performance.now();
  await store.open(open);
  out.openMs = ms(t0);
  t0 = performance.now();
  await store.upsert(recs);
  out.upsertAllMs = ms(t0);
  t0 = performance.now();
  for (let i = 0; i < N; i += B) await store.upsert(recs.slice(i, i + B));
  out.reUpsertInBatchesMs = ms(t0);
  t0 = performance.now();
  await store.fullTextSearch({ topK: 10, text: "marker7" });
  out.firstTextSearchWithLazyRefreshMs = ms(t0);
  out.vectorTop10P50Ms = await p50((i) => store.vectorSearch({ topK: 10, vector: vector(10_000 + i) }));
  out.vectorTop10FilteredP50Ms = await p50((i) => store.vectorSearch({ topK: 10, vector: vector(10_000 + i), filter: { sourcePaths: ["doc1.md", "doc2.md"] } }));
  out.textTop10P50Ms = await p50((i) => store.fullTextSearch({ topK: 10, text: `erasure marker${i}` }));
  out.hybridTop10P50Ms = await p50((i) => store.hybridSearch({ topK: 10, text: `erasure marker${i}`, vector: vector(10_000 + i) }));
  t0 = performance.now();
  let n = 0;
  for await (const _ of store.scan()) n++;
  out.scanMs = ms(t0);
  out.scanned = n;
  await store.close();

  store = new LanceDbStore({ uri: join(root, "eager") });
  await store.open(open);
  t0 = performance.now();
  for (let i = 0; i < N; i += B) {
    await store.upsert(recs.slice(i, i + B));
    await store.flush();
  }
  out.upsertInBatchesWithEagerRefreshMs = ms(t0);
  store.close();

  store = new LanceDbStore({ uri: join(root, "lazy2") });
  await store.open(open);
  t0 = performance.now();
  for (let i = 0; i < N; i += B) await store.upsert(recs.slice(i, i + B));
  await store.flush();
  out.upsertInBatchesWithOneLazyRefreshMs = ms(t0);
  await store.close();
  console.log(JSON.stringify(out));
} finally {
  rmSync(root, { recursive: true, force: true });
}
