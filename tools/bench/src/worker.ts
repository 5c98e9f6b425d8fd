// Child-process measurements, one per process so that peak RSS and cold loads belong to one system.
// Usage: node worker.js MODE --key value ...; prints one JSON object on stdout.
import { mkdirSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseDocument } from "@hierdoc/chunker";
import { GloveEmbedder } from "@hierdoc/embeddings";
import { Bm25Index } from "@hierdoc/keyword-search";
import { createReranker } from "@hierdoc/rerank";
import { cacheDirOf } from "@hierdoc/runtime";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool } from "@hierdoc/tool";
import { buildLangChain, buildOrama, type PeerIndex, type PeerMode } from "./peers.js";
import { copyManifest, env, loadEmbedder, manifestConfig, peakRssMb, readIndexRecords, readQueries, replicate, rssMb, toPoolChunks } from "./pool.js";
import { summarize } from "./stats.js";

const args = process.argv.slice(2);
const mode = args[0];
const opt = (name: string, dflt?: string): string => {
  const i = args.indexOf(`--${name}`);
  if (i > 0 && i + 1 < args.length) return args[i + 1];
  if (dflt === undefined) throw new Error(`worker ${mode}: --${name} is required`);
  return dflt;
};

async function timeQueries(queries: string[], run: (q: string) => Promise<unknown>, warmup: number): Promise<number[]> {
  for (const q of queries.slice(0, warmup)) await run(q);
  const ms: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await run(q);
    ms.push(performance.now() - t);
  }
  return ms;
}

/** Builds a persisted hierdoc index of `size` chunks from a source index (real store, BM25, exact index). */
async function buildHierdoc(): Promise<object> {
  const src = resolve(opt("src"));
  const out = resolve(opt("out"));
  const size = Number(opt("size"));
  const config = manifestConfig(src);
  const embedder = await loadEmbedder(config);
  const base = await readIndexRecords(src, embedder);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const t0 = performance.now();
  const store = new MemoryStore({ dir: join(out, "store") });
  await store.open({ embedderId: embedder.id, dimensions: embedder.dimensions });
  const records = replicate(base, size);
  for (let i = 0; i < records.length; i += 10_000) await store.upsert(records.slice(i, i + 10_000));
  await store.flush();
  await store.close();
  const storeMs = performance.now() - t0;
  const t1 = performance.now();
  const tool = await HierarchicalDocumentTool.open({ config, indexDir: out, store: new MemoryStore({ dir: join(out, "store") }), embedder });
  const chunks = tool.chunkCount;
  await tool.close();
  copyManifest(src, out);
  return { size, baseChunks: base.length, chunks, storeWriteMs: storeMs, derivedBuildMs: performance.now() - t1 };
}

/** Opens a persisted hierdoc index and times in-process searches (query embedding included). */
async function latencyHierdoc(): Promise<object> {
  const dir = resolve(opt("index"));
  const n = Number(opt("n", "500"));
  const searchMode = opt("mode", "hybrid") as "hybrid";
  const queries = readQueries(opt("queries")).slice(0, n).map((q) => q.query);
  const config = manifestConfig(dir);
  const rss0 = rssMb();
  const te = performance.now();
  const embedder = await loadEmbedder(config);
  const embedderLoadMs = performance.now() - te;
  const rssEmbedder = rssMb();
  const t0 = performance.now();
  // As shipped: the index config's rerank stage (default: the offline lexical reranker); `--rerank none` times without it.
  const reranker = opt("rerank", "config") === "none" ? undefined : createReranker(config.rerank, { env: (k) => process.env[k] });
  const tool = await HierarchicalDocumentTool.open({ config, indexDir: dir, store: new MemoryStore({ dir: join(dir, "store") }), embedder, reranker });
  const openMs = performance.now() - t0;
  const legSum: Record<string, number> = {};
  let counted = 0;
  const ms = await timeQueries(
    queries,
    async (q) => {
      const res = await tool.search(q, { topK: 10, mode: searchMode });
      counted++;
      for (const [leg, v] of Object.entries(res.timingsMs ?? {})) if (typeof v === "number") legSum[leg] = (legSum[leg] ?? 0) + v;
    },
    20,
  );
  const legMs = Object.fromEntries(Object.entries(legSum).map(([leg, v]) => [leg, v / counted]));
  const chunks = tool.chunkCount;
  await tool.close();
  return { system: "hierdoc", mode: searchMode, reranker: reranker?.id ?? "none", chunks, embedderLoadMs, openMs, rssBaseMb: rss0, rssAfterEmbedderMb: rssEmbedder, peakRssMb: peakRssMb(), latency: summarize(ms), legMs };
}

/** Builds a peer over `size` pool chunks and times its searches (query embedding included). */
async function latencyPeer(): Promise<object> {
  const src = resolve(opt("src"));
  const size = Number(opt("size"));
  const system = opt("system");
  const n = Number(opt("n", "500"));
  const modes = opt("modes").split(",") as PeerMode[];
  const queries = readQueries(opt("queries")).slice(0, n).map((q) => q.query);
  const config = manifestConfig(src);
  const rss0 = rssMb();
  const embedder = await loadEmbedder(config);
  const rssEmbedder = rssMb();
  const pool = toPoolChunks(replicate(await readIndexRecords(src, embedder), size));
  const t0 = performance.now();
  const peer: PeerIndex = system === "orama" ? await buildOrama(pool, embedder) : await buildLangChain(pool, embedder, false);
  const buildMs = performance.now() - t0;
  pool.length = 0;
  const latency: Record<string, object> = {};
  const nSlow = Number(opt("n-slow", String(n)));
  for (const m of modes) {
    const qs = m === "vector" ? queries : queries.slice(0, nSlow);
    latency[m] = summarize(await timeQueries(qs, (q) => peer.search(q, m, 10), m === "vector" ? 20 : Math.min(5, Math.max(1, Math.floor(qs.length / 10)))));
  }
  return { system: peer.name, chunks: size, buildMs, rssBaseMb: rss0, rssAfterEmbedderMb: rssEmbedder, peakRssMb: peakRssMb(), latency };
}

/** GloVe cold load and throughput, BM25 at 100k (build, query, save, reload), chunker MB/s. */
async function components(): Promise<object> {
  const src = resolve(opt("src"));
  const corpora = resolve(opt("corpora"));
  const n = Number(opt("n", "500"));
  const bm25Size = Number(opt("bm25-size", "100000"));
  const queries = readQueries(opt("queries")).slice(0, n).map((q) => q.query);
  // 1. GloVe binary cache: cold load in this fresh process (file may be in the OS page cache).
  const t0 = performance.now();
  const glove = await GloveEmbedder.load({ cacheDir: cacheDirOf(env) });
  const gloveLoadMs = performance.now() - t0;
  const base = await readIndexRecords(src, glove);
  const texts = base.slice(0, 5000).map((r) => r.record.indexedText);
  const t1 = performance.now();
  await glove.embedDocuments(texts);
  const embedMs = performance.now() - t1;
  const chars = texts.reduce((a, t) => a + t.length, 0);
  const tq = performance.now();
  for (const q of queries) await glove.embedQuery(q);
  const queryEmbedMs = (performance.now() - tq) / queries.length;
  // 2. BM25 at bm25Size chunks of real indexed text.
  const docs = replicate(base, bm25Size).map((r) => ({ id: r.record.id, text: r.record.indexedText, sourcePath: r.record.sourcePath }));
  const tb = performance.now();
  const bm25 = new Bm25Index();
  bm25.upsertSync(docs);
  const bm25BuildMs = performance.now() - tb;
  for (const q of queries.slice(0, 20)) bm25.searchSync(q, { topK: 10 });
  const qms: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    bm25.searchSync(q, { topK: 10 });
    qms.push(performance.now() - t);
  }
  const dir = resolve(opt("tmp"), "bm25-100k");
  rmSync(dir, { recursive: true, force: true });
  const ts = performance.now();
  await bm25.save(dir, { fingerprint: "bench" });
  const bm25SaveMs = performance.now() - ts;
  const tl = performance.now();
  const loaded = await Bm25Index.load(dir);
  const bm25LoadMs = performance.now() - tl;
  const reloadedHits = loaded ? loaded.searchSync(queries[0], { topK: 10 }).length : 0;
  const tu = performance.now();
  bm25.upsertSync([{ id: "bench-extra", text: docs[0].text, sourcePath: "extra.txt" }]);
  const addMs = performance.now() - tu;
  const tr = performance.now();
  bm25.removeSync(["bench-extra"]);
  const removeMs = performance.now() - tr;
  rmSync(dir, { recursive: true, force: true });
  // 3. Chunker: parse + chunk of the shared corpora's text and markdown files, best of `rounds`.
  const files: Array<{ path: string; format: "markdown" | "text" }> = [];
  const add = (sub: string, ext: string, format: "markdown" | "text"): void => {
    const d = join(corpora, sub);
    if (existsSync(d)) for (const f of readdirSync(d)) if (f.endsWith(ext)) files.push({ path: join(d, f), format });
  };
  add("gdpr", ".md", "markdown");
  add("cfr27/md", ".md", "markdown");
  add("uscode/md", ".md", "markdown");
  add("rfc/derived", ".md", "markdown");
  add("rfc", ".txt", "text");
  add("obliqa/StandardizedRegulatoryDocumentsTXT", ".txt", "text");
  const cdocs = files.map((f) => ({ sourcePath: f.path, fileType: f.format, format: f.format, text: readFileSync(f.path, "utf8") }));
  const cchars = cdocs.reduce((a, d) => a + d.text.length, 0);
  let best = Infinity;
  let chunkCount = 0;
  for (let round = 0; round < Number(opt("rounds", "2")); round++) {
    const t = performance.now();
    chunkCount = 0;
    for (const d of cdocs) chunkCount += parseDocument(d).chunks.length;
    best = Math.min(best, performance.now() - t);
  }
  return {
    glove: { loadMs: gloveLoadMs, id: glove.id, dims: glove.dimensions, embedChunks: texts.length, embedMs, chunksPerS: texts.length / (embedMs / 1000), mbPerS: chars / 1e6 / (embedMs / 1000), queryEmbedMs },
    bm25: { chunks: bm25Size, buildMs: bm25BuildMs, query: summarize(qms), saveMs: bm25SaveMs, loadMs: bm25LoadMs, reloadedHits, addMs, removeMs },
    chunker: { files: cdocs.length, chars: cchars, bestMs: best, mbPerS: cchars / 1e6 / (best / 1000), chunks: chunkCount },
    peakRssMb: peakRssMb(),
  };
}

const modes: Record<string, () => Promise<object>> = { "build-hierdoc": buildHierdoc, "latency-hierdoc": latencyHierdoc, "latency-peer": latencyPeer, components };
const fn = modes[mode];
if (!fn) {
  process.stderr.write(`unknown worker mode ${mode}\n`);
  process.exit(2);
}
fn().then(
  (r) => process.stdout.write(JSON.stringify(r) + "\n"),
  (e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
