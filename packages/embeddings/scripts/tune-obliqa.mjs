#!/usr/bin/env node
// Dense-only passage retrieval on ObliQA dev with GloVe variants, to tune SIF weighting.
// Usage (after building): node packages/embeddings/scripts/tune-obliqa.mjs [--cache-dir DIR] [--questions N] [--a 1e-3,3e-4]
// Without --a it runs the whole grid (unweighted, SIF a grid, first-PC removal, corpus frequencies): ~4 min.
// Reads ../shared/corpora/obliqa in place. Prints passage-level Recall@10 and MRR@10 per variant.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const corpus = resolve(here, "../../../../shared/corpora/obliqa");
if (!existsSync(corpus)) {
  console.error(`skipped: ${corpus} not present`);
  process.exit(0);
}
const args = process.argv.slice(2);
const cacheDir = args.includes("--cache-dir") ? args[args.indexOf("--cache-dir") + 1] : join(tmpdir(), "hierdoc-embeddings-cache");
const maxQuestions = args.includes("--questions") ? Number(args[args.indexOf("--questions") + 1]) : Infinity;
const { GloveEmbedder, wordTokens } = await import(new URL("../dist/index.js", import.meta.url).href);

const passages = [];
for (const f of readdirSync(join(corpus, "StructuredRegulatoryDocuments"))) {
  for (const p of JSON.parse(readFileSync(join(corpus, "StructuredRegulatoryDocuments", f), "utf8"))) {
    passages.push({ key: `${p.DocumentID}|${p.PassageID}`, text: p.Passage });
  }
}
const questions = JSON.parse(readFileSync(join(corpus, "ObliQA_dev.json"), "utf8")).slice(0, maxQuestions);
console.log(`${passages.length} passages, ${questions.length} questions`);

const glove = await GloveEmbedder.load({ cacheDir });
const dims = glove.dimensions;
const H = Math.log(glove.size) + 0.5772156649;
const zipf = (row) => 1 / ((row + 1) * H);

// Corpus frequencies (passages), add-one smoothed, backed off to Zipf for unseen words.
const counts = new Map();
let total = 0;
for (const p of passages) for (const t of wordTokens(p.text)) { counts.set(t, (counts.get(t) ?? 0) + 1); total++; }

const wv = new Map();
const vec = (w) => { if (!wv.has(w)) wv.set(w, glove.wordVector(w) ?? null); return wv.get(w); };
function embed(text, weight) {
  const acc = new Float32Array(dims);
  for (const t of wordTokens(text)) {
    const v = vec(t); if (!v) continue;
    const w = weight(t); for (let d = 0; d < dims; d++) acc[d] += w * v[d];
  }
  return acc;
}
function normalize(v) { let s = 0; for (const x of v) s += x * x; if (s > 0) { const k = 1 / Math.sqrt(s); for (let i = 0; i < v.length; i++) v[i] *= k; } return v; }
function topPC(vectors) {
  let u = new Float32Array(dims).fill(1);
  for (let it = 0; it < 30; it++) {
    const next = new Float32Array(dims);
    for (const v of vectors) { let dot = 0; for (let d = 0; d < dims; d++) dot += v[d] * u[d]; for (let d = 0; d < dims; d++) next[d] += dot * v[d]; }
    u = normalize(next);
  }
  return u;
}
function removePC(v, u) { let dot = 0; for (let d = 0; d < dims; d++) dot += v[d] * u[d]; for (let d = 0; d < dims; d++) v[d] -= dot * u[d]; return v; }

function evaluate(name, weight, { pc = false } = {}) {
  const P = passages.map((p) => embed(p.text, weight));
  const Q = questions.map((q) => embed(q.Question, weight));
  if (pc) { const u = topPC(P.map((v) => normalize(Float32Array.from(v)))); P.forEach((v) => removePC(v, u)); Q.forEach((v) => removePC(v, u)); }
  P.forEach(normalize); Q.forEach(normalize);
  let recall = 0, mrr = 0;
  const scores = new Float32Array(P.length);
  questions.forEach((q, qi) => {
    const qv = Q[qi];
    for (let i = 0; i < P.length; i++) { let s = 0; const pv = P[i]; for (let d = 0; d < dims; d++) s += qv[d] * pv[d]; scores[i] = s; }
    const top = Array.from(scores.keys()).sort((a, b) => scores[b] - scores[a]).slice(0, 10).map((i) => passages[i].key);
    const gold = new Set(q.Passages.map((p) => `${p.DocumentID}|${p.PassageID}`));
    recall += top.filter((k) => gold.has(k)).length / gold.size;
    const first = top.findIndex((k) => gold.has(k)); if (first >= 0) mrr += 1 / (first + 1);
  });
  console.log(`${name.padEnd(34)} R@10 ${(recall / questions.length).toFixed(4)}  MRR@10 ${(mrr / questions.length).toFixed(4)}`);
}

const zipfWeight = (a) => (t) => a / (a + zipf(glove.rowOf(t)));
const corpusWeight = (a) => (t) => a / (a + (counts.has(t) ? counts.get(t) / total : zipf(glove.rowOf(t))));
evaluate("unweighted mean", () => 1);
if (args.includes("--a")) {
  for (const a of args[args.indexOf("--a") + 1].split(",").map(Number)) evaluate(`SIF zipf a=${a}`, zipfWeight(a));
  process.exit(0);
}
for (const a of [1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5]) evaluate(`SIF zipf a=${a}`, zipfWeight(a));
for (const a of [1e-3, 3e-4, 1e-4]) evaluate(`SIF zipf a=${a} + remove PC1`, zipfWeight(a), { pc: true });
for (const a of [1e-3, 3e-4, 1e-4]) evaluate(`SIF corpus a=${a}`, corpusWeight(a));
for (const a of [1e-3, 3e-4]) evaluate(`SIF corpus a=${a} + remove PC1`, corpusWeight(a), { pc: true });
