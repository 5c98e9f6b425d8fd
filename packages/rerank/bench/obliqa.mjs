// ObliQA dev (the only split here): hybrid vs hybrid + lexical rerank, in-process. From the repo root,
// after the build, qrels and ingest of packages/rerank/README.md:
//   node packages/rerank/bench/obliqa.mjs /tmp/rr-idx /tmp/rr.qrels.json /tmp/rr.queries.jsonl [--tune]
// --tune runs a coordinate ascent over the lexical weights (objective MAP@10) on cached candidates.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { LexicalReranker, DEFAULT_LEXICAL_WEIGHTS } from "@hierdoc/rerank";

// Loaded by name at run time: the benchmark is not part of the package's dependency graph (the runtime
// depends on this package, and a domain package may not depend on @hierdoc/eval).
const load = (name) => import(name);
const { openIndex } = await load("@hierdoc/runtime");
const { evaluateRun, loadQrels } = await load("@hierdoc/eval");

const [index, qrelsPath, queriesPath] = process.argv.slice(2);
const tune = process.argv.includes("--tune");
const qrels = await loadQrels(qrelsPath);
const queries = readFileSync(queriesPath, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const tool = await openIndex({ index }, { mustExist: true, env: (n) => process.env[n] });
const CANDIDATES = Number(process.env.RR_CANDIDATES ?? 50);
const cache = `/tmp/rr-cands-${CANDIDATES}.json`;

const slim = (r) => ({ id: r.id, content: r.content, source_path: r.sourcePath, start: r.start, end: r.end });
// RR_HOLDOUT=1: tune on even-numbered queries, report the odd-numbered ones (a held-out check of the weights).
const holdout = process.env.RR_HOLDOUT === "1";
const half = (parity) => ({ ...qrels, queries: qrels.queries.filter((_q, i) => i % 2 === parity) });
const tuneQrels = holdout ? half(0) : qrels;
const testQrels = holdout ? half(1) : qrels;
const metricsOn = (qs, entries) => {
  const m = evaluateRun(qs, entries, { k: 10 }).metrics;
  return { recall: +m.recall.toFixed(4), map: +m.map.toFixed(4) };
};
const metrics = (entries) => {
  const m = evaluateRun(testQrels, entries, { k: 10 }).metrics;
  return { recall: +m.recall.toFixed(4), map: +m.map.toFixed(4) };
};
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]; };

let base10;
let cands;
if (existsSync(cache)) ({ base10, cands } = JSON.parse(readFileSync(cache, "utf8")));
else {
  base10 = [];
  cands = [];
  for (const q of queries) {
    base10.push({ id: q.id, results: (await tool.search(q.query, { topK: 10, rerank: false })).results.map(slim) });
    const res = (await tool.search(q.query, { topK: CANDIDATES, rerank: false })).results;
    cands.push({
      id: q.id, query: q.query, results: res.map(slim),
      candidates: res.map((r, i) => ({
        id: r.id, content: r.content, context: "", sectionId: r.sectionId, sectionTitle: r.sectionTitle, parentChain: r.parentChain,
        definitions: r.definitions.map((d) => ({ term: d.term })), fusedScore: r.score, fusedRank: i + 1,
      })),
    });
  }
  writeFileSync(cache, JSON.stringify({ base10, cands }));
}
console.log("hybrid (topK 10)              ", metrics(base10));
console.log(`hybrid (top 10 of ${CANDIDATES})         `, metrics(cands.map((c) => ({ id: c.id, results: c.results.slice(0, 10) }))));

const probe = new LexicalReranker();
const signals = cands.map((c) => probe.signalsFor(c.query, c.candidates));
function evalWeights(weights, qs = testQrels) {
  const rr = new LexicalReranker({ weights });
  return metricsOn(qs, cands.map((c, i) => {
    const byId = new Map(c.results.map((r) => [r.id, r]));
    return { id: c.id, results: rr.combine(c.candidates, signals[i]).slice(0, 10).map((s) => byId.get(s.id)) };
  }));
}

let w = JSON.parse(process.env.RR_WEIGHTS ?? "null") ?? { ...DEFAULT_LEXICAL_WEIGHTS };

if (tune) {
  w = { ...DEFAULT_LEXICAL_WEIGHTS, fused: 1, ...JSON.parse(process.env.RR_START ?? "{}") };
  let best = evalWeights(w, tuneQrels);
  const grid = JSON.parse(process.env.RR_GRID ?? "[0, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1, 1.5]");
  for (let pass = 0; pass < Number(process.env.RR_PASSES ?? 2); pass++) {
    for (const key of ["coverage", "proximity", "phrase", "title", "chain", "definitions", "sectionId", "rank"]) {
      for (const v of grid) {
        const trial = { ...w, [key]: v };
        const m = evalWeights(trial, tuneQrels);
        if (m.map > best.map + 1e-4) { best = m; w = trial; console.log("  better", JSON.stringify(w), m); }
      }
    }
  }
}
console.log(`lexical rerank (offline${holdout ? ", odd half" : ""})`, JSON.stringify(w), evalWeights(w));
if (holdout) process.exit(0);

// Tool-level: the wired stage, with the latency it adds.
Object.defineProperty(tool, "reranker", { value: new LexicalReranker({ weights: w }) });
const wired = [];
const ms = [];
const totalOn = [];
const totalOff = [];
for (const q of queries) {
  let t = performance.now();
  await tool.search(q.query, { topK: 10, rerank: false });
  totalOff.push(performance.now() - t);
  t = performance.now();
  const res = await tool.search(q.query, { topK: 10 });
  totalOn.push(performance.now() - t);
  wired.push({ id: q.id, results: res.results.map(slim) });
  if (res.timingsMs.rerank !== undefined) ms.push(res.timingsMs.rerank);
}
const f = (xs) => `p50 ${pct(xs, 50).toFixed(1)} p95 ${pct(xs, 95).toFixed(1)}`;
console.log("hybrid + lexical (tool)       ", metrics(wired), `rerank stage ms ${f(ms)} (n=${ms.length}); whole search ms without ${f(totalOff)}, with ${f(totalOn)}`);
await tool.close?.();
