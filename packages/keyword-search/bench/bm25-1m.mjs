// Builds a 1M-document BM25 index for bm25-save.mjs (informal, not a benchmark harness; see tools/bench).
// Usage (after building the package): node --max-old-space-size=12000 packages/keyword-search/bench/bm25-1m.mjs OUT_DIR
// Documents are the ObliQA regulatory texts' paragraphs (../shared/corpora/obliqa), copied under new ids up to
// 1,000,000 (≈ 2 min, a 441 MB bm25.bin).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Bm25Index } from "../dist/index.js";

const out = process.argv[2];
if (!out) throw new Error("usage: bm25-1m.mjs OUT_DIR");
const src = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora/obliqa/StandardizedRegulatoryDocumentsTXT");
if (!existsSync(src)) {
  console.log("skipped: ../shared/corpora/obliqa not present");
  process.exit(0);
}
const paras = [];
for (const f of readdirSync(src).sort()) {
  for (const p of readFileSync(join(src, f), "utf8").split(/\n\s*\n/)) if (p.trim().length > 40) paras.push({ f, p: p.trim() });
}
const index = new Bm25Index();
const t0 = performance.now();
for (let i = 0; i < 1_000_000; i += 10_000) {
  const batch = [];
  for (let j = i; j < i + 10_000; j++) {
    const x = paras[j % paras.length];
    batch.push({ id: `${x.f}#${j}`, text: x.p, sourcePath: x.f });
  }
  index.upsertSync(batch);
}
console.log(`${paras.length} paragraphs, 1,000,000 documents built in ${Math.round(performance.now() - t0)} ms`);
await index.save(out);
console.log(`saved to ${out} after ${Math.round(performance.now() - t0)} ms`);
