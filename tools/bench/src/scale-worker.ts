// Child-process measurements of the scale benchmark (one per process: peak RSS and open time belong to it).
// Usage: node scale-worker.js MODE --key value ...; prints one JSON object on stdout.
//   build    --src OBLIQA_INDEX --out DIR --size N --dims D [--quantization f32|f16|bf16|i8] [--shape tight|spread] [--store-only]
//            [--flush-every N] (checkpoint the store every N records: bounds the flush's copy of the new vectors)
//            [--reuse-keyword INDEX_DIR] (copy that index's BM25 file when its store holds byte-identical records;
//             the tool still checks the file's fingerprint against the records it scans, and rebuilds it otherwise)
//   (build and every mode that opens its store: [--m N] [--ef-construction N]; a graph saved with other values is not used)
//   latency  --index DIR --src OBLIQA_INDEX --queries FILE --dims D [--n 300] [--recall-n 200]
//            [--passes N] (then N − 1 more hybrid passes over the same questions in the same process: warm-process p50 / p95)
//   (latency, store-latency: [--quantization f32|f16|bf16|i8|off] [--candidates N] [--ef-search N] [--search-thread auto|on|off] override the store's ann settings)
//   quality  --index OBLIQA_INDEX --qrels FILE [--threshold 5000]
//   ann-sweep --index STORE_DIR --src OBLIQA_INDEX --queries FILE --dims D [--n 100] [--settings 0x256,512x256,...] [--quantization f32|f16]
//             (recall@10 and dense search cost per candidates × ef_search setting)
//   prepare  --index DIR --dims D   (convert an older index to the current formats once, before timing it)
//   store-latency --index STORE_DIR --src OBLIQA_INDEX --queries FILE --dims D [--n 200] [--recall-n 100]  (the store alone)
//   (latency, store-latency also print storeOpen (how the graph was opened: viewed / extended / none) and
//    servingRssSplitMb: resident anonymous vs file-backed MB after the searches; a viewed graph is file-backed)
import { createHash } from "node:crypto";
import { copyFileSync, createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import type { Embedder, SearchMode } from "@hierdoc/core";
import { cosineSimilarity } from "@hierdoc/embeddings";
import { evaluateRun, loadQrels, type RunEntry } from "@hierdoc/eval";
import { createReranker } from "@hierdoc/rerank";
import { MemoryStore, snapshotRowVectors, type MemoryAnnConfig } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool } from "@hierdoc/tool";
import { copyManifest, loadEmbedder, manifestConfig, peakRssMb, readIndexRecords, readQueries, rssSplitMb } from "./pool.js";
import { COPY_SHAPES, projectedEmbedder, projection, scaleRecord } from "./scale-vectors.js";
import { annSweep } from "./scale-recall.js";
import { summarize } from "./stats.js";
import { cpuMsSince, timeQueries } from "./time-queries.js";

type AnnQuantization = Exclude<MemoryAnnConfig["quantization"], undefined>;

const args = process.argv.slice(2);
const mode = args[0];
const opt = (name: string, dflt?: string): string => {
  const i = args.indexOf(`--${name}`);
  if (i > 0 && i + 1 < args.length) return args[i + 1];
  if (dflt === undefined) throw new Error(`scale-worker ${mode}: --${name} is required`);
  return dflt;
};
const load = (): number => Number(loadavg()[0].toFixed(2));

function annConfig(): MemoryAnnConfig | false {
  const q = opt("quantization", "f32");
  if (q === "off") return false;
  const num = (name: string): number | undefined => (args.includes(`--${name}`) ? Number(opt(name)) : undefined);
  const thread = opt("search-thread", "auto");
  return { quantization: q as AnnQuantization, threshold: Number(opt("threshold", "20000")), candidates: num("candidates"), ef_search: num("ef-search"), m: num("m"), ef_construction: num("ef-construction"), search_thread: thread === "auto" ? "auto" : thread === "on" };
}

async function embedderFor(src: string, dims: number): Promise<Embedder> {
  return projectedEmbedder(await loadEmbedder(manifestConfig(src)), dims);
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    total += s.isDirectory() ? dirBytes(p) : s.size;
  }
  return total;
}

/** Writes a `size`-chunk index of `dims`-d vectors (store with its graph, BM25, exact index) from real ObliQA records. */
async function build(): Promise<object> {
  const src = resolve(opt("src"));
  const out = resolve(opt("out"));
  const size = Number(opt("size"));
  const dims = Number(opt("dims"));
  const glove = await loadEmbedder(manifestConfig(src));
  const base = await readIndexRecords(src, glove);
  const embedder = await embedderFor(src, dims);
  const project = projection(glove.dimensions, dims);
  const shapeName = opt("shape", "tight");
  const shape = COPY_SHAPES[shapeName];
  if (shape === undefined) throw new Error(`scale-worker build: --shape must be one of ${Object.keys(COPY_SHAPES).join(", ")}`);
  // Mean cosine of a copy to its real record, on the first 2,000 copies (before projection).
  const sample = Array.from({ length: Math.min(2000, Math.max(0, size - base.length)) }, (_, j) => cosineSimilarity(scaleRecord(base, base.length + j, (v) => v, shape).vector, Float32Array.from(base[j % base.length].vector)));
  const copyCosine = sample.length ? sample.reduce((a, b) => a + b, 0) / sample.length : null;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const loads = [load()];
  const t0 = performance.now();
  const store = new MemoryStore({ dir: join(out, "store"), ann: annConfig() });
  await store.open({ embedderId: embedder.id, dimensions: embedder.dimensions });
  const c0 = process.cpuUsage();
  const batch = 10_000;
  const flushEvery = Number(opt("flush-every", "0"));
  let flushes = 0;
  for (let i = 0; i < size; i += batch) {
    const records = [];
    for (let j = i; j < Math.min(size, i + batch); j++) records.push(scaleRecord(base, j, project, shape));
    await store.upsert(records);
    const done = i + records.length;
    if (flushEvery > 0 && done % flushEvery === 0 && done < size) {
      await store.flush();
      flushes++;
    }
    if (i % 100_000 === 0 || done === size) process.stderr.write(`[scale-worker] ${done} / ${size} (${((performance.now() - t0) / 1000).toFixed(0)} s, CPU ${(cpuMsSince(c0) / 1000).toFixed(0)} s, RSS ${(process.memoryUsage.rss() / 2 ** 20).toFixed(0)} MB, load ${load()})\n`);
  }
  const upsertMs = performance.now() - t0;
  await store.flush();
  await store.close();
  const storeMs = performance.now() - t0;
  const storeCpuMs = cpuMsSince(c0);
  const storePeakRssMb = peakRssMb();
  loads.push(load());
  const common = { size, dims, shape: shapeName, ann: annConfig(), flushes: flushes + 1, copyCosine, baseChunks: base.length, upsertMs, storeWriteMs: storeMs, storeCpuMs, storePeakRssMb };
  if (args.includes("--store-only")) {
    return { ...common, chunks: size, derivedBuildMs: 0, buildMs: storeMs, diskBytes: dirBytes(out), storeBytes: dirBytes(join(out, "store")), peakRssMb: peakRssMb(), loadAverage: loads, storeOnly: true };
  }
  const keywordFrom = args.includes("--reuse-keyword") ? await reuseKeyword(resolve(opt("reuse-keyword")), out) : undefined;
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  // Opening the tool over the new store builds and saves the BM25 and exact indexes from its records.
  const tool = await HierarchicalDocumentTool.open({ config: manifestConfig(src), indexDir: out, store: new MemoryStore({ dir: join(out, "store"), ann: annConfig() }), embedder });
  const chunks = tool.chunkCount;
  const openInfo = tool.openInfo;
  await tool.close();
  const derivedMs = performance.now() - t1;
  const derivedCpuMs = cpuMsSince(c1);
  copyManifest(src, out);
  loads.push(load());
  return { ...common, chunks, derivedBuildMs: derivedMs, derivedCpuMs, keywordFrom, derivedOpenInfo: openInfo, buildMs: storeMs + derivedMs, diskBytes: dirBytes(out), storeBytes: dirBytes(join(out, "store")), peakRssMb: peakRssMb(), loadAverage: loads };
}

/** SHA-256 of a store's records: its segments' records files in manifest order (every line, in row order). */
async function recordsDigest(storeDir: string): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(storeDir, "manifest.json"), "utf8")) as { segments?: Array<{ records: { name: string } }> };
  const hash = createHash("sha256");
  for (const seg of manifest.segments ?? []) for await (const chunk of createReadStream(join(storeDir, seg.records.name))) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Copies `from`'s BM25 file into `out` when both stores hold byte-identical records (a pool of the same size
 * from the same real records: the vectors differ, the records do not), so the tool's open reuses it instead
 * of rebuilding it; the tool still compares the file's fingerprint with the catalog it scans. Returns what
 * was decided and why (for the result JSON).
 */
async function reuseKeyword(from: string, out: string): Promise<{ dir: string; copied: boolean; reason?: string; digestMs: number }> {
  const t = performance.now();
  const [a, b] = [await recordsDigest(join(from, "store")), await recordsDigest(join(out, "store"))];
  const digestMs = performance.now() - t;
  if (a !== b) return { dir: from, copied: false, reason: `records differ (sha256 ${a.slice(0, 12)} vs ${b.slice(0, 12)})`, digestMs };
  mkdirSync(join(out, "keyword"), { recursive: true });
  for (const name of readdirSync(join(from, "keyword"))) copyFileSync(join(from, "keyword", name), join(out, "keyword", name));
  return { dir: from, copied: true, digestMs };
}

/** Opens a scale index (open time), times hybrid (default reranker), keyword and semantic searches, then ANN recall@10 against an exact scan. */
async function latency(): Promise<object> {
  const dir = resolve(opt("index"));
  const dims = Number(opt("dims"));
  const n = Number(opt("n", "300"));
  const queries = readQueries(opt("queries")).slice(0, n).map((q) => q.query);
  const config = manifestConfig(dir);
  const embedder = await embedderFor(dir, dims);
  const reranker = createReranker(config.rerank, { env: (k) => process.env[k] });
  const loads = [load()];
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const store = new MemoryStore({ dir: join(dir, "store"), ann: annConfig() });
  const tool = await HierarchicalDocumentTool.open({ config, indexDir: dir, store, embedder, reranker });
  const openMs = performance.now() - t0;
  const openCpuMs = cpuMsSince(c0);
  const latencyMs: Record<string, object> = {};
  const cpuMs: Record<string, object> = {};
  // Per-stage wall milliseconds of the hybrid searches (the tool's own timers: legs, fusion, rerank, attach).
  const stages: Record<string, number[]> = {};
  for (const m of ["hybrid", "keyword", "semantic"] as SearchMode[]) {
    const t = await timeQueries(queries, async (q) => {
      const res = await tool.search(q, { topK: 10, mode: m });
      if (m === "hybrid") for (const [k, v] of Object.entries(res.timingsMs ?? {})) (stages[k] ??= []).push(v);
      return res;
    });
    latencyMs[m] = summarize(t.wall);
    cpuMs[m] = summarize(t.cpu);
    loads.push(load());
  }
  const hybridStagesMs = Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, summarize(v)]));
  // Later passes over the same questions: what a long-running process sees once candidates were analysed and read before.
  const warmPasses: object[] = [];
  for (let p = 1; p < Number(opt("passes", "1")); p++) {
    const t = await timeQueries(queries, (q) => tool.search(q, { topK: 10, mode: "hybrid" }), 0);
    warmPasses.push({ pass: p + 1, hybrid: summarize(t.wall), cpu: summarize(t.cpu) });
  }
  const servingPeakRssMb = peakRssMb();
  const servingRssSplitMb = rssSplitMb();
  // ANN recall@10: the store's answer against an exact scan of the vectors file of the same snapshot.
  const recallN = Number(opt("recall-n", "200"));
  const manifest = JSON.parse(readFileSync(join(dir, "store", "manifest.json"), "utf8")) as { count: number; files: { vectors: { name: string }; ann?: unknown } };
  const { vectors } = snapshotRowVectors(join(dir, "store"));
  const ids: string[] = [];
  for await (const r of store.scan()) ids.push(r.id);
  let hit = 0;
  let asked = 0;
  for (const q of queries.slice(0, recallN)) {
    const v = await embedder.embedQuery(q);
    let norm = 0;
    for (const x of v) norm += x * x;
    if (norm === 0) continue;
    const got = new Set((await store.vectorSearch({ vector: v, topK: 10 })).map((h) => h.id));
    const top: Array<[number, number]> = [];
    for (let r = 0, off = 0; r < manifest.count; r++, off += dims) {
      let s = 0;
      for (let j = 0; j < dims; j++) s += vectors[off + j] * v[j];
      if (top.length < 10 || s > top[9][1]) {
        top.push([r, s]);
        top.sort((a, b) => b[1] - a[1]);
        if (top.length > 10) top.pop();
      }
    }
    for (const [r] of top) if (got.has(ids[r])) hit++;
    asked++;
  }
  const chunks = tool.chunkCount;
  await tool.close();
  return { dims, chunks, ann: opt("quantization", "f32") !== "off", annOnDisk: manifest.files.ann !== undefined, openMs, openCpuMs, storeOpen: store.openInfo, latency: latencyMs, cpu: cpuMs, hybridStagesMs, warmPasses, servingPeakRssMb, servingRssSplitMb, recallAt10: asked ? hit / (asked * 10) : null, recallQueries: asked, loadAverage: loads };
}

/** The store alone (no BM25 / tool): open time, dense search wall and CPU per query, peak RSS, ANN recall@10 against an exact scan. */
async function storeLatency(): Promise<object> {
  const dir = resolve(opt("index"));
  const dims = Number(opt("dims"));
  const n = Number(opt("n", "200"));
  const embedder = await embedderFor(resolve(opt("src")), dims);
  const queries = await Promise.all(readQueries(opt("queries")).slice(0, n).map((q) => embedder.embedQuery(q.query)));
  const loads = [load()];
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const store = new MemoryStore({ dir, ann: annConfig() });
  await store.open({ embedderId: embedder.id, dimensions: dims });
  const openMs = performance.now() - t0;
  const openCpuMs = cpuMsSince(c0);
  const { wall, cpu, results: answers } = await timeQueries(queries, async (v) => (await store.vectorSearch({ vector: v, topK: 10 })).map((h) => h.id), 0);
  loads.push(load());
  const servingPeakRssMb = peakRssMb();
  const servingRssSplitMb = rssSplitMb();
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { count: number; files: { vectors: { name: string }; ann?: unknown } };
  const { vectors } = snapshotRowVectors(dir);
  const ids: string[] = [];
  for await (const r of store.scan()) ids.push(r.id);
  let hit = 0;
  const recallN = Math.min(queries.length, Number(opt("recall-n", "100")));
  for (let qi = 0; qi < recallN; qi++) {
    const v = queries[qi];
    let norm = 0;
    for (const x of v) norm += x * x;
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const top: Array<[number, number]> = [];
    for (let r = 0, off = 0; r < manifest.count; r++, off += dims) {
      let s = 0;
      for (let j = 0; j < dims; j++) s += vectors[off + j] * v[j];
      s *= inv;
      if (top.length < 10 || s > top[top.length - 1][1]) {
        top.push([r, s]);
        top.sort((a, b) => b[1] - a[1]);
        if (top.length > 10) top.pop();
      }
    }
    const got = new Set(answers[qi]);
    for (const [r] of top) if (got.has(ids[r])) hit++;
  }
  await store.close();
  return { dims, chunks: manifest.count, annOnDisk: manifest.files.ann !== undefined, openMs, openCpuMs, storeOpen: store.openInfo, semantic: summarize(wall), semanticCpu: summarize(cpu), servingPeakRssMb, servingRssSplitMb, recallAt10: hit / (recallN * 10), recallQueries: recallN, loadAverage: loads };
}

/** ObliQA dev R@10 / MAP@10 (hybrid with the default reranker, and semantic), exact store vs the HNSW graph. */
async function quality(): Promise<object> {
  const dir = resolve(opt("index"));
  const qrels = await loadQrels(resolve(opt("qrels")));
  const config = manifestConfig(dir);
  const embedder = await loadEmbedder(config);
  const reranker = createReranker(config.rerank, { env: (k) => process.env[k] });
  const out: Record<string, object> = {};
  for (const [name, ann] of [["exact", false], ["ann", { threshold: Number(opt("threshold", "5000")), threads: 1 }]] as const) {
    const store = new MemoryStore({ dir: join(dir, "store"), ann });
    const tool = await HierarchicalDocumentTool.open({ config, indexDir: dir, store, embedder, reranker });
    // The CLI wrote this index without a graph (it is below the default threshold): build one in memory.
    if (ann !== false && !(await store.buildAnnIndex())) throw new Error("the HNSW graph was not built");
    for (const m of ["hybrid", "semantic"] as SearchMode[]) {
      const run: RunEntry[] = [];
      for (const q of qrels.queries) {
        const res = await tool.search(q.query, { topK: 10, mode: m });
        run.push({ id: q.id, results: res.results.map((r) => ({ id: r.id, content: r.content, source_path: r.sourcePath, start: r.start, end: r.end })) });
      }
      const metrics = evaluateRun(qrels, run).metrics;
      out[`${name}-${m}`] = { recall: metrics.recall, map: metrics.map, queries: metrics.queries };
    }
    await tool.close();
  }
  return { chunks: existsSync(join(dir, "store")) ? JSON.parse(readFileSync(join(dir, "store", "manifest.json"), "utf8")).count : null, threshold: Number(opt("threshold", "5000")), metrics: out, loadAverage: load() };
}

/** Recall@10 and dense-search cost of the store for several `candidates` × `ef_search` settings (one open each). */
async function sweep(): Promise<object> {
  const dir = resolve(opt("index"));
  const dims = Number(opt("dims"));
  const embedder = await embedderFor(resolve(opt("src")), dims);
  const texts = readQueries(opt("queries")).slice(0, Number(opt("n", "100"))).map((q) => q.query);
  const settings = opt("settings", "0x256").split(",").map((s) => {
    const [candidates, efSearch] = s.split("x").map(Number);
    return { candidates, efSearch };
  });
  const loads = [load()];
  const rows = await annSweep(dir, embedder, texts, settings, opt("quantization", "f32") as AnnQuantization);
  loads.push(load());
  return { dims, queries: texts.length, rows, peakRssMb: peakRssMb(), loadAverage: loads };
}

/**
 * Brings an index written by an older build to the current formats before timing it: the store is opened
 * and flushed (a version 1-2 store folder is converted), then the tool is opened once (derived indexes the
 * current code keeps beside the store are rebuilt and saved). Prints the wall / CPU milliseconds of both.
 */
async function prepare(): Promise<object> {
  const dir = resolve(opt("index"));
  const dims = Number(opt("dims"));
  const config = manifestConfig(dir);
  const embedder = await embedderFor(dir, dims);
  const loads = [load()];
  let t = performance.now();
  let c = process.cpuUsage();
  const store = new MemoryStore({ dir: join(dir, "store"), ann: annConfig() });
  await store.open({ embedderId: embedder.id, dimensions: embedder.dimensions });
  await store.flush();
  await store.close();
  const storeMs = performance.now() - t;
  const storeCpuMs = cpuMsSince(c);
  t = performance.now();
  c = process.cpuUsage();
  const tool = await HierarchicalDocumentTool.open({ config, indexDir: dir, store: new MemoryStore({ dir: join(dir, "store"), ann: annConfig() }), embedder });
  await tool.close();
  loads.push(load());
  return { storeMs, storeCpuMs, toolOpenMs: performance.now() - t, toolOpenCpuMs: cpuMsSince(c), diskBytes: dirBytes(dir), peakRssMb: peakRssMb(), loadAverage: loads };
}

const modes: Record<string, () => Promise<object>> = {
  prepare, build, latency, quality, "store-latency": storeLatency, "ann-sweep": sweep };
const run = modes[mode];
if (!run) throw new Error(`scale-worker: unknown mode ${mode} (build | latency | quality)`);
process.stdout.write(JSON.stringify(await run()) + "\n");
