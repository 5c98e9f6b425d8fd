#!/usr/bin/env node
// Experiment: an offline embedder learned from the corpus itself (LSA: TF-IDF + truncated SVD) vs GloVe-SIF,
// dense-only passage retrieval on ObliQA dev (same metric as tune-obliqa.mjs). Not a product feature.
// Usage (after building): node packages/embeddings/scripts/lsa-obliqa.mjs [--k 200] [--questions N] [--cache-dir DIR]
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
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const K = Number(arg("--k", 200));
const maxQuestions = Number(arg("--questions", Infinity));
const cacheDir = arg("--cache-dir", join(tmpdir(), "hierdoc-embeddings-cache"));
const { GloveEmbedder, wordTokens } = await import(new URL("../dist/index.js", import.meta.url).href);

const passages = [];
for (const f of readdirSync(join(corpus, "StructuredRegulatoryDocuments"))) {
  for (const p of JSON.parse(readFileSync(join(corpus, "StructuredRegulatoryDocuments", f), "utf8"))) passages.push({ key: `${p.DocumentID}|${p.PassageID}`, text: p.Passage });
}
const questions = JSON.parse(readFileSync(join(corpus, "ObliQA_dev.json"), "utf8")).slice(0, maxQuestions);
const N = passages.length;
let t0 = performance.now();
const lap = (m) => { console.error(`  ${m}: ${((performance.now() - t0) / 1000).toFixed(1)} s`); t0 = performance.now(); };

// Sparse TF-IDF (sublinear tf, idf = ln(N/df)), rows L2-normalised; terms with df < 2 dropped.
const docTokens = passages.map((p) => wordTokens(p.text));
const df = new Map();
for (const toks of docTokens) for (const t of new Set(toks)) df.set(t, (df.get(t) ?? 0) + 1);
const termId = new Map();
for (const [t, n] of df) if (n >= 2) termId.set(t, termId.size);
const V = termId.size;
const idf = new Float64Array(V);
for (const [t, id] of termId) idf[id] = Math.log(N / df.get(t));
function tfidf(tokens) {
  const tf = new Map();
  for (const t of tokens) { const id = termId.get(t); if (id !== undefined) tf.set(id, (tf.get(id) ?? 0) + 1); }
  const ids = [...tf.keys()], vals = ids.map((id) => (1 + Math.log(tf.get(id))) * idf[id]);
  const n = Math.hypot(...vals) || 1;
  return { ids, vals: vals.map((v) => v / n) };
}
const rows = docTokens.map(tfidf);
lap(`tf-idf ${N} × ${V}`);

// Randomised SVD (Halko et al.): Y = A Ω, two power iterations, QR, B = Qᵀ A, eig(B Bᵀ).
const L = K + 20;
const mulA = (X) => { // A (N×V) · X (V×L) → N×L
  const out = Array.from({ length: N }, () => new Float64Array(L));
  rows.forEach((r, i) => { const o = out[i]; r.ids.forEach((id, j) => { const v = r.vals[j], x = X[id]; for (let c = 0; c < L; c++) o[c] += v * x[c]; }); });
  return out;
};
const mulAt = (Y) => { // Aᵀ (V×N) · Y (N×L) → V×L
  const out = Array.from({ length: V }, () => new Float64Array(L));
  rows.forEach((r, i) => { const y = Y[i]; r.ids.forEach((id, j) => { const v = r.vals[j], o = out[id]; for (let c = 0; c < L; c++) o[c] += v * y[c]; }); });
  return out;
};
const orthonormalize = (Y) => { // modified Gram–Schmidt on the L columns
  for (let c = 0; c < L; c++) {
    for (let p = 0; p < c; p++) { let d = 0; for (const y of Y) d += y[c] * y[p]; for (const y of Y) y[c] -= d * y[p]; }
    let n = 0; for (const y of Y) n += y[c] * y[c]; n = Math.sqrt(n) || 1; for (const y of Y) y[c] /= n;
  }
  return Y;
};
let seed = 7;
const gauss = () => { seed = (seed * 16807) % 2147483647; const u = seed / 2147483647; seed = (seed * 16807) % 2147483647; const v = seed / 2147483647; return Math.sqrt(-2 * Math.log(u + 1e-12)) * Math.cos(2 * Math.PI * v); };
let Q = orthonormalize(mulA(Array.from({ length: V }, () => Float64Array.from({ length: L }, gauss))));
for (let it = 0; it < 2; it++) Q = orthonormalize(mulA(orthonormalize(mulAt(Q))));
const Bt = mulAt(Q); // V×L = (Qᵀ A)ᵀ
const C = Array.from({ length: L }, () => new Float64Array(L)); // B Bᵀ (L×L)
for (const b of Bt) for (let i = 0; i < L; i++) { const bi = b[i]; if (bi === 0) continue; const row = C[i]; for (let j = 0; j < L; j++) row[j] += bi * b[j]; }
lap(`randomised SVD sketch (k=${K})`);
// Cyclic Jacobi eigen-decomposition of the symmetric L×L matrix.
const E = Array.from({ length: L }, (_, i) => { const r = new Float64Array(L); r[i] = 1; return r; });
for (let sweep = 0; sweep < 12; sweep++) {
  let off = 0;
  for (let p = 0; p < L; p++) for (let q = p + 1; q < L; q++) {
    const apq = C[p][q]; off += apq * apq; if (Math.abs(apq) < 1e-14) continue;
    const theta = (C[q][q] - C[p][p]) / (2 * apq);
    const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1)); const c = 1 / Math.sqrt(t * t + 1), s = t * c;
    for (let k = 0; k < L; k++) { const akp = C[k][p], akq = C[k][q]; C[k][p] = c * akp - s * akq; C[k][q] = s * akp + c * akq; }
    for (let k = 0; k < L; k++) { const apk = C[p][k], aqk = C[q][k]; C[p][k] = c * apk - s * aqk; C[q][k] = s * apk + c * aqk; }
    for (let k = 0; k < L; k++) { const ekp = E[k][p], ekq = E[k][q]; E[k][p] = c * ekp - s * ekq; E[k][q] = s * ekp + c * ekq; }
  }
  if (off < 1e-18) break;
}
const order = Array.from({ length: L }, (_, i) => i).sort((a, b) => C[b][b] - C[a][a]).slice(0, K);
// Right singular vectors: Vk = Bᵀ U Σ⁻¹ (V×K). A term's projection row = Vk[term].
const sigma = order.map((i) => Math.sqrt(Math.max(C[i][i], 1e-18)));
const proj = Bt.map((b) => Float64Array.from(order, (i, k) => { let s = 0; for (let j = 0; j < L; j++) s += b[j] * E[j][i]; return s / sigma[k]; }));
lap("eigen-decomposition and term projections");

const embedLsa = (text) => { const r = tfidf(wordTokens(text)); const v = new Float32Array(K); r.ids.forEach((id, j) => { const p = proj[id], w = r.vals[j]; for (let k = 0; k < K; k++) v[k] += w * p[k]; }); return v; };
const normalize = (v) => { let s = 0; for (const x of v) s += x * x; if (s > 0) { const n = 1 / Math.sqrt(s); for (let i = 0; i < v.length; i++) v[i] *= n; } return v; };

const golds = questions.map((q) => new Set(q.Passages.map((p) => `${p.DocumentID}|${p.PassageID}`)));
function report(name, rankings) {
  let recall = 0, mrr = 0;
  rankings.forEach((ranked, qi) => {
    const top = ranked.slice(0, 10).map((i) => passages[i].key), gold = golds[qi];
    recall += top.filter((k) => gold.has(k)).length / gold.size;
    const first = top.findIndex((k) => gold.has(k)); if (first >= 0) mrr += 1 / (first + 1);
  });
  console.log(`${name.padEnd(34)} R@10 ${(recall / questions.length).toFixed(4)}  MRR@10 ${(mrr / questions.length).toFixed(4)}`);
}
const top100 = (scores) => Array.from(scores.keys()).sort((a, b) => scores[b] - scores[a]).slice(0, 100);
function denseRankings(P, Q2) {
  P.forEach(normalize); Q2.forEach(normalize);
  const dims = P[0].length; const scores = new Float32Array(N);
  return Q2.map((qv) => { for (let i = 0; i < N; i++) { let s = 0; const pv = P[i]; for (let d = 0; d < dims; d++) s += qv[d] * pv[d]; scores[i] = s; } return top100(scores); });
}
function rrf(...lists) { // weighted reciprocal rank fusion, k = 60, equal weights
  return lists[0].map((_, qi) => { const score = new Map(); for (const l of lists) l[qi].forEach((doc, r) => score.set(doc, (score.get(doc) ?? 0) + 1 / (60 + r + 1))); return [...score.keys()].sort((a, b) => score.get(b) - score.get(a)); });
}

console.log(`${N} passages, ${questions.length} questions, ${V} terms`);
const lsa = denseRankings(passages.map((p) => embedLsa(p.text)), questions.map((q) => embedLsa(q.Question)));
report(`LSA k=${K}`, lsa); lap("LSA");
const glove = await GloveEmbedder.load({ cacheDir });
const gl = denseRankings(await glove.embedDocuments(passages.map((p) => p.text)), await glove.embedDocuments(questions.map((q) => q.Question)));
report(`GloVe-SIF a=${glove.sifA}`, gl); lap("GloVe");
// Lexical reference: cosine of the sparse TF-IDF vectors (a stand-in for the BM25 leg).
const postings = Array.from({ length: V }, () => []);
rows.forEach((r, i) => r.ids.forEach((id, j) => postings[id].push([i, r.vals[j]])));
const lex = questions.map((q) => { const scores = new Float32Array(N); const r = tfidf(wordTokens(q.Question)); r.ids.forEach((id, j) => { for (const [i, v] of postings[id]) scores[i] += v * r.vals[j]; }); return top100(scores); });
report("TF-IDF cosine (sparse)", lex);
report("RRF TF-IDF + GloVe", rrf(lex, gl));
report(`RRF TF-IDF + LSA`, rrf(lex, lsa));
report(`RRF TF-IDF + GloVe + LSA`, rrf(lex, gl, lsa));
