// Local ONNX embedder benchmark: the cost of a real sentence-transformer architecture (all-MiniLM-L6-v2,
// optionally bge-small / e5-small) on this machine, with random weights of the exact shape.
//   node tools/bench/dist/embedder-bench.js [--models minilm,bge-small] [--batches 1,8,16,32] [--sample 512]
//     [--queries 50] [--work DIR] [--out docs/benchmarks.md] [--no-doc] [--no-256] [--no-glove] [--append]
//     [--q8 [--q8-batches 1,16]] [--no-sorted] [--variant-batch 16] (--batches none: only the variants)
//     [--repeat N] (rounds per configuration; each row keeps its fastest)
// Writes $WORK/embedder-results.json and the "Local ONNX embedder" section of docs/benchmarks.md.
// See tools/bench/README.md. Not part of `npm test` or `npm run bench` (minutes of CPU).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument, countTokens } from "@hierdoc/chunker";
import { GloveEmbedder, TransformersEmbedder } from "@hierdoc/embeddings";
import { cacheDirOf } from "@hierdoc/runtime";
import { BGE_SMALL, MINILM_L6, bertParameterCount, type BertShape } from "./bert-graph.js";
import { writeBertModelFolder } from "./bert-model-folder.js";
import { renderEmbedderSection, spliceEmbedderSection, type EmbedRun, type EmbedderBenchResults, type ModelInfo, type TokenStats } from "./embedder-report.js";
import { machineInfo } from "./machine.js";
import { env, peakRssMb, rssMb } from "./pool.js";
import { percentile, summarize } from "./stats.js";
import { basicTokens, buildWordPieceVocabulary, wordPieces } from "./wordpiece-vocab.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../../..");
const corpora = resolve(root, "../shared/corpora");
const argv = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback;
};
const log = (m: string): void => {
  process.stderr.write(`[embedder-bench ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
};
const loadavg = (): number[] => machineInfo().loadAverage;

const SHAPES: Record<string, BertShape> = { minilm: MINILM_L6, "bge-small": BGE_SMALL };
const SUFFIX_PIECES = 5800;
const MAX_TOKENS = 512;

// ---------------------------------------------------------------- child: one configuration, fresh process
async function child(): Promise<void> {
  const texts = JSON.parse(readFileSync(opt("texts", ""), "utf8")) as string[];
  const queries = JSON.parse(readFileSync(opt("queries-file", ""), "utf8")) as string[];
  const kind = opt("kind", "transformers");
  const loadAverageStart = loadavg();
  const t0 = performance.now();
  const e = kind === "glove" ? await GloveEmbedder.load({ cacheDir: cacheDirOf(env) }) : await TransformersEmbedder.load({ modelPath: opt("model", ""), batchSize: Number(opt("batch", "16")), dtype: opt("dtype", "fp32") as "fp32" | "q8" });
  const loadMs = performance.now() - t0;
  const rssAfterLoadMb = rssMb();
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  const vectors = await e.embedDocuments(texts);
  const embedMs = performance.now() - t1;
  const cpu = process.cpuUsage(cpu0);
  const embedCpuMs = (cpu.user + cpu.system) / 1000;
  const bad = vectors.findIndex((v) => v.length !== e.dimensions || !v.every(Number.isFinite) || Math.abs(Math.hypot(...v) - 1) > 1e-3);
  if (bad >= 0) throw new Error(`vector ${bad} is not a finite unit vector of ${e.dimensions} dimensions`);
  const qms: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await e.embedQuery(q);
    qms.push(performance.now() - t);
  }
  process.stdout.write(JSON.stringify({ dimensions: e.dimensions, loadMs, embedMs, embedCpuMs, rssAfterLoadMb, peakRssMb: peakRssMb(), query: summarize(qms), loadAverageStart, loadAverageEnd: loadavg() }) + "\n");
}

// ---------------------------------------------------------------- parent
function corpusFiles(sub: string, ext: string): string[] {
  const d = join(corpora, sub);
  return existsSync(d) ? readdirSync(d).filter((f) => f.endsWith(ext)).sort().map((f) => join(d, f)) : [];
}

function chunkTexts(files: string[], format: "markdown" | "text"): string[] {
  return files.flatMap((path) => parseDocument({ sourcePath: path, fileType: format, format, text: readFileSync(path, "utf8") }).chunks.map((c) => c.content));
}

function tokenStats(texts: string[], vocab: ReadonlySet<string>): { stats: TokenStats; lengths: number[] } {
  let words = 0;
  let pieces = 0;
  let unknown = 0;
  let cl100k = 0;
  const lengths = texts.map((t) => {
    const w = basicTokens(t);
    const p = w.flatMap((x) => wordPieces(x, vocab));
    words += w.length;
    pieces += p.length;
    unknown += p.filter((x) => x === "[UNK]").length;
    cl100k += countTokens(t);
    return p.length + 2; // [CLS] … [SEP]
  });
  const stats: TokenStats = {
    texts: texts.length,
    mean: lengths.reduce((a, b) => a + b, 0) / texts.length,
    p50: Math.round(percentile(lengths, 50)),
    p95: Math.round(percentile(lengths, 95)),
    max: Math.max(...lengths),
    truncatedShare: lengths.filter((n) => n > MAX_TOKENS).length / texts.length,
    meanCl100k: cl100k / texts.length,
    piecesPerWord: pieces / words,
    unknownShare: unknown / Math.max(1, pieces),
  };
  return { stats, lengths };
}

function runChild(args: string[]): Record<string, unknown> {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", ...args], { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`child ${args.join(" ")} exited ${r.status}: ${(r.stderr ?? "").slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}

async function main(): Promise<void> {
  if (!existsSync(corpora)) throw new Error(`${corpora} not present: the embedder benchmark reads the shared corpora`);
  const work = resolve(opt("work", "/tmp/hierdoc-embedder-bench"));
  const outFile = resolve(root, opt("out", "docs/benchmarks.md"));
  const models = opt("models", "minilm").split(",").map((m) => {
    const s = SHAPES[m];
    if (!s) throw new Error(`unknown model shape ${m} (known: ${Object.keys(SHAPES).join(", ")})`);
    return { key: m, shape: s };
  });
  const batches = opt("batches", "1,8,16,32") === "none" ? [] : opt("batches", "1,8,16,32").split(",").map(Number);
  const variantBatch = Number(opt("variant-batch", "16"));
  const repeat = Math.max(1, Number(opt("repeat", "1")));
  const sampleSize = Number(opt("sample", "512"));
  const nQueries = Number(opt("queries", "50"));
  const shortVariant = !argv.includes("--no-256");
  const q8Batches = argv.includes("--q8") ? opt("q8-batches", "1,16").split(",").map(Number) : [];
  mkdirSync(work, { recursive: true });
  const started = new Date().toISOString();
  const m0 = machineInfo();
  log(`machine ${m0.cpuModel} × ${m0.cores}, load ${m0.loadAverage.map((x) => x.toFixed(2)).join(" ")}; work ${work}`);

  // Vocabulary from text that is not measured.
  const vocabSources = [
    ["uscode/md", ".md"],
    ["cfr27/md", ".md"],
    ["rfc/derived", ".md"],
    ["rfc", ".txt"],
  ] as const;
  const vocabFiles = vocabSources.flatMap(([sub, ext]) => corpusFiles(sub, ext));
  const vocabTexts = vocabFiles.map((f) => readFileSync(f, "utf8"));
  let t = performance.now();
  const vocabulary = buildWordPieceVocabulary(vocabTexts, { size: MINILM_L6.vocabSize, suffixPieces: SUFFIX_PIECES });
  const vocabMs = performance.now() - t;
  const vocabSet = new Set(vocabulary);
  log(`vocabulary ${vocabulary.length} entries from ${vocabFiles.length} files in ${(vocabMs / 1000).toFixed(1)} s`);

  // Chunks: ObliQA (measured sample) and GDPR (token statistics).
  const obliqa = chunkTexts(corpusFiles("obliqa/StandardizedRegulatoryDocumentsTXT", ".txt"), "text");
  const gdpr = chunkTexts(corpusFiles("gdpr", ".md"), "markdown");
  const obliqaStats = tokenStats(obliqa, vocabSet);
  const gdprStats = tokenStats(gdpr, vocabSet);
  const step = obliqa.length / Math.min(sampleSize, obliqa.length);
  const sampleIdx = Array.from({ length: Math.min(sampleSize, obliqa.length) }, (_, i) => Math.floor(i * step));
  const sample = sampleIdx.map((i) => obliqa[i]!);
  const sampleStats = tokenStats(sample, vocabSet);
  const questions = (JSON.parse(readFileSync(join(corpora, "obliqa/ObliQA_dev.json"), "utf8")) as Array<{ Question: string }>).slice(0, nQueries).map((q) => q.Question);
  const queryStats = tokenStats(questions, vocabSet).stats;
  const textsFile = join(work, "sample-chunks.json");
  const queriesFile = join(work, "queries.json");
  writeFileSync(textsFile, JSON.stringify(sample));
  // The same chunks sorted by length: what embedDocuments would cost if it batched similar lengths together.
  const sortedOrder = sampleIdx.map((_, i) => i).sort((a, b) => sampleStats.lengths[a]! - sampleStats.lengths[b]! || a - b);
  const sortedFile = join(work, "sample-chunks.sorted.json");
  writeFileSync(sortedFile, JSON.stringify(sortedOrder.map((i) => sample[i]!)));
  const sortedLengths = sortedOrder.map((i) => sampleStats.lengths[i]!);
  writeFileSync(queriesFile, JSON.stringify(questions));
  const truncatedTokens = (lengths: number[], max: number): number => lengths.reduce((a, n) => a + Math.min(n, max), 0);
  // transformers.js pads each batch to its longest text: the positions the model actually computes.
  const paddedTokens = (lengths: number[], max: number, batch: number): number => {
    let total = 0;
    for (let i = 0; i < lengths.length; i += batch) {
      const group = lengths.slice(i, i + batch);
      total += group.length * Math.min(max, Math.max(...group));
    }
    return total;
  };
  log(`ObliQA ${obliqa.length} chunks (mean ${obliqaStats.stats.mean.toFixed(0)} tokens), sample ${sample.length}; GDPR ${gdpr.length} chunks`);

  const modelInfos: ModelInfo[] = [];
  const runs: EmbedRun[] = [];
  for (const { key, shape } of models) {
    const dir = join(work, "models", key);
    t = performance.now();
    const folder = await writeBertModelFolder(dir, { shape, vocabulary, seed: 1, quantized: q8Batches.length > 0 });
    const writeMs = performance.now() - t;
    modelInfos.push({
      name: shape.name,
      layers: shape.numHiddenLayers,
      hidden: shape.hiddenSize,
      heads: shape.numAttentionHeads,
      intermediate: shape.intermediateSize,
      weights: bertParameterCount(shape),
      onnxMb: folder.onnxBytes / 1e6,
      ...(folder.quantizedBytes !== undefined ? { quantizedMb: folder.quantizedBytes / 1e6 } : {}),
      writeMs,
    });
    log(`${shape.name}: wrote ${dir} (${(folder.onnxBytes / 1e6).toFixed(1)} MB) in ${(writeMs / 1000).toFixed(1)} s`);
    type Variant = { batch: number; maxLength: number; dir: string; dtype: "fp32" | "q8"; sorted?: boolean };
    const variants: Variant[] = batches.map((b) => ({ batch: b, maxLength: MAX_TOKENS, dir, dtype: "fp32" }));
    if (!argv.includes("--no-sorted")) variants.push({ batch: variantBatch, maxLength: MAX_TOKENS, dir, dtype: "fp32", sorted: true });
    if (shortVariant) {
      // sentence-transformers truncates MiniLM at 256 tokens (max_seq_length); transformers.js uses the tokenizer's 512.
      const short = join(work, "models", `${key}-256`);
      await writeBertModelFolder(short, { shape, vocabulary, seed: 1, maxLength: 256 });
      variants.push({ batch: variantBatch, maxLength: 256, dir: short, dtype: "fp32" });
    }
    for (const b of q8Batches) variants.push({ batch: b, maxLength: MAX_TOKENS, dir, dtype: "q8" });
    // Rounds interleave the configurations, so a burst of load from other jobs hits several of them a
    // little rather than one a lot; each row reports its fastest round (least disturbed) and all rounds.
    const rounds: EmbedRun[][] = variants.map(() => []);
    for (let round = 1; round <= repeat; round++) {
      for (const [vi, v] of variants.entries()) {
        log(`${shape.name} ${v.dtype}: batch ${v.batch}${v.sorted ? " (length-sorted)" : ""}, max ${v.maxLength} tokens, ${sample.length} chunks, round ${round}/${repeat} …`);
        const c = runChild(["--model", v.dir, "--dtype", v.dtype, "--batch", String(v.batch), "--texts", v.sorted ? sortedFile : textsFile, "--queries-file", queriesFile]);
        if (c.dimensions !== shape.hiddenSize) throw new Error(`expected ${shape.hiddenSize}-d vectors, got ${String(c.dimensions)}`);
        const tokens = truncatedTokens(sampleStats.lengths, v.maxLength);
        const embedMs = c.embedMs as number;
        const run: EmbedRun = {
          model: shape.name,
          dtype: v.dtype,
          batch: v.batch,
          maxLength: v.maxLength,
          chunks: sample.length,
          tokens,
          paddedTokens: paddedTokens(v.sorted ? sortedLengths : sampleStats.lengths, v.maxLength, v.batch),
          ...(v.sorted ? { lengthSorted: true } : {}),
          loadMs: c.loadMs as number,
          embedMs,
          embedCpuMs: c.embedCpuMs as number,
          chunksPerS: sample.length / (embedMs / 1000),
          tokensPerS: tokens / (embedMs / 1000),
          rssAfterLoadMb: c.rssAfterLoadMb as number,
          peakRssMb: c.peakRssMb as number,
          query: c.query as EmbedRun["query"],
          loadAverageStart: c.loadAverageStart as number[],
          loadAverageEnd: c.loadAverageEnd as number[],
        };
        rounds[vi]!.push(run);
        log(`  ${run.chunksPerS.toFixed(2)} chunks/s (${(run.chunks / (run.embedCpuMs! / 1000)).toFixed(2)} per CPU-s), ${run.tokensPerS.toFixed(0)} tokens/s, load ${run.loadMs.toFixed(0)} ms, query p50 ${run.query?.p50.toFixed(1)} ms, peak ${run.peakRssMb.toFixed(0)} MB, load avg ${run.loadAverageEnd[0]!.toFixed(2)}`);
        writeFileSync(join(work, "embedder-results.partial.json"), JSON.stringify(rounds, null, 2));
      }
    }
    for (const all of rounds) {
      const best = all.reduce((a, b) => (b.chunksPerS > a.chunksPerS ? b : a));
      runs.push({ ...best, rounds: all.map((x) => x.chunksPerS), peakRssMb: Math.max(...all.map((x) => x.peakRssMb)) });
    }
    copyFileSync(join(dir, "config.json"), join(work, `${key}.config.json`));
  }

  let glove: EmbedderBenchResults["glove"];
  if (!argv.includes("--no-glove")) {
    const g = runChild(["--kind", "glove", "--texts", textsFile, "--queries-file", queriesFile]);
    glove = { chunksPerS: sample.length / ((g.embedMs as number) / 1000), loadMs: g.loadMs as number, queryMs: (g.query as { mean: number }).mean };
    log(`GloVe: ${glove.chunksPerS.toFixed(0)} chunks/s`);
  }

  const rel = (p: string): string => relative(resolve(root, ".."), p);
  const extra = argv;
  const results: EmbedderBenchResults = {
    started,
    finished: new Date().toISOString(),
    cpuModel: m0.cpuModel,
    cores: m0.cores,
    node: m0.node,
    loadAverageStart: m0.loadAverage,
    loadAverageEnd: loadavg(),
    command: ["node tools/bench/dist/embedder-bench.js", ...extra.filter((a, i) => !(a === "--work" || extra[i - 1] === "--work"))].join(" "),
    vocabulary: { sourceFiles: vocabSources.map(([sub, ext]) => `${sub}/*${ext}`), sourceChars: vocabTexts.reduce((a, x) => a + x.length, 0), size: vocabulary.length, suffixPieces: SUFFIX_PIECES, buildMs: vocabMs },
    sample: { source: "ObliQA", totalChunks: obliqa.length, totalTokens: truncatedTokens(obliqaStats.lengths, MAX_TOKENS), measured: sample.length, stats: sampleStats.stats },
    otherSets: [
      { source: "ObliQA (all)", stats: obliqaStats.stats },
      { source: "GDPR", stats: gdprStats.stats },
    ],
    models: modelInfos,
    runs,
    ...(glove ? { glove } : {}),
    queries: { source: "ObliQA dev questions", n: questions.length, meanTokens: queryStats.mean },
  };
  const resultsFile = join(work, "embedder-results.json");
  if (argv.includes("--append") && existsSync(resultsFile)) {
    // Adds this run's models to an earlier run's (e.g. bge-small after MiniLM), keeping the earlier start.
    const before = JSON.parse(readFileSync(resultsFile, "utf8")) as EmbedderBenchResults;
    results.started = before.started;
    results.loadAverageStart = before.loadAverageStart;
    results.command = `${before.command}; ${results.command}`;
    results.models = [...before.models.filter((m) => !results.models.some((n) => n.name === m.name)), ...results.models];
    results.runs = [...before.runs, ...results.runs];
    results.glove = results.glove ?? before.glove;
  }
  writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  log(`results in ${rel(join(work, "embedder-results.json"))}`);
  if (!argv.includes("--no-doc")) {
    const doc = existsSync(outFile) ? readFileSync(outFile, "utf8") : "# hierdoc benchmarks\n";
    writeFileSync(outFile, spliceEmbedderSection(doc, renderEmbedderSection(results)));
    log(`wrote the section into ${outFile}`);
  }
}

if (argv.includes("--child")) {
  child().catch((e: unknown) => {
    process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  });
} else if (argv.includes("--render-only")) {
  const work = resolve(opt("work", "/tmp/hierdoc-embedder-bench"));
  const outFile = resolve(root, opt("out", "docs/benchmarks.md"));
  const results = JSON.parse(readFileSync(join(work, "embedder-results.json"), "utf8")) as EmbedderBenchResults;
  writeFileSync(outFile, spliceEmbedderSection(readFileSync(outFile, "utf8"), renderEmbedderSection(results)));
} else {
  main().catch((e: unknown) => {
    process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  });
}
