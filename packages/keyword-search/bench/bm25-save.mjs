// Times a small incremental change to a saved BM25 index and its save (what an ingest of one small file costs
// the keyword index). Informal, not a benchmark harness; see tools/bench.
// Usage (after building the package): node --max-old-space-size=12000 packages/keyword-search/bench/bm25-save.mjs DIR add|update|none [DIST]
//   DIR: a folder with bm25.bin (e.g. from bm25-1m.mjs, or an index's keyword/ folder)
//   add: 11 new documents; update: 11 existing documents replaced (a changed file: removals renumber the slots);
//   none: no change (an ingest where every file was unchanged)
//   DIST: another build of this package to compare (default ../dist)
// Prints JSON: upsert and save wall ms, process CPU ms, RSS after.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [dir, mode, dist = resolve(dirname(fileURLToPath(import.meta.url)), "../dist")] = process.argv.slice(2);
if (!dir || !["add", "update", "none"].includes(mode)) throw new Error("usage: bm25-save.mjs DIR add|update|none [DIST]");
const { Bm25Index } = await import(join(dist, "index.js"));
const index = await Bm25Index.load(dir);
if (!index) throw new Error(`no bm25.bin in ${dir}`);
const n = index.documentCount;
const ids = index["ids"]; // the loaded documents' ids, in slot order (private; read here only to pick some)
const docs = Array.from({ length: mode === "none" ? 0 : 11 }, (_, i) => ({
  id: mode === "add" ? `new-${i}` : ids[Math.floor((i * n) / 11)],
  text: `harbour pilot register amendment number ${i} of the port authority`,
  sourcePath: "x.md",
}));
// The change is saved to a scratch folder, except for `none`: saved back to DIR, as an ingest would.
const out = mode === "none" ? dir : mkdtempSync(join(tmpdir(), "bm25-save-"));
try {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  index.upsertSync(docs);
  const t1 = performance.now();
  await index.save(out);
  const t2 = performance.now();
  const c = process.cpuUsage(c0);
  console.log(JSON.stringify({ mode, docs: n, upsertMs: Math.round(t1 - t0), saveMs: Math.round(t2 - t1), cpuMs: Math.round((c.user + c.system) / 1000), rssMb: Math.round(process.memoryUsage().rss / 1e6) }));
} finally {
  if (out !== dir) rmSync(out, { recursive: true, force: true });
}
