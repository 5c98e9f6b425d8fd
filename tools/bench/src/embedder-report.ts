// Renders the local ONNX embedder benchmark (tools/bench/src/embedder-bench.ts) as a marked section of
// docs/benchmarks.md, and keeps that section when `npm run bench` rewrites the rest of the file.
import { fmt, markdownTable } from "./markdown.js";
import type { LatencySummary } from "./stats.js";
import { extractMarkedSection, spliceMarkedSection } from "./marked-section.js";

/** Start and end markers of the section; everything between them belongs to the embedder benchmark. */
export const EMBEDDER_SECTION_BEGIN = "<!-- embedder-bench:begin (written by tools/bench/dist/embedder-bench.js) -->";
export const EMBEDDER_SECTION_END = "<!-- embedder-bench:end -->";

/** Token statistics of a set of texts under the benchmark's WordPiece tokenizer (with [CLS]/[SEP]). */
export interface TokenStats {
  texts: number;
  mean: number;
  p50: number;
  p95: number;
  max: number;
  /** Share of texts longer than the model's 512-token limit (truncated by the tokenizer). */
  truncatedShare: number;
  /** Mean cl100k tokens (the chunker's unit) of the same texts. */
  meanCl100k: number;
  /** WordPiece tokens per basic token (word or punctuation mark). */
  piecesPerWord: number;
  /** Share of basic tokens that became [UNK]. */
  unknownShare: number;
}

/** One measured configuration (a fresh process). */
export interface EmbedRun {
  model: string;
  dtype: string;
  batch: number;
  maxLength: number;
  chunks: number;
  /** Model tokens fed to the model after truncation (without padding). */
  tokens: number;
  /** chunks/s of every round of this configuration (the row's other numbers are the fastest round's). */
  rounds?: number[];
  /** The chunks were sorted by length before batching (document order otherwise). */
  lengthSorted?: boolean;
  /** Positions computed: each batch padded to its longest text. */
  paddedTokens: number;
  loadMs: number;
  embedMs: number;
  /** CPU time (user + system, all threads) of the embedding phase. */
  embedCpuMs?: number;
  chunksPerS: number;
  tokensPerS: number;
  rssAfterLoadMb: number;
  peakRssMb: number;
  query?: LatencySummary;
  loadAverageStart: number[];
  loadAverageEnd: number[];
}

/** A model folder the run wrote. */
export interface ModelInfo {
  name: string;
  layers: number;
  hidden: number;
  heads: number;
  intermediate: number;
  weights: number;
  onnxMb: number;
  /** Size of the dynamic-int8 `model_quantized.onnx`, when the run wrote one. */
  quantizedMb?: number;
  writeMs: number;
}

/** Everything the section reports. */
export interface EmbedderBenchResults {
  started: string;
  finished: string;
  cpuModel: string;
  cores: number;
  node: string;
  loadAverageStart: number[];
  loadAverageEnd: number[];
  command: string;
  vocabulary: { sourceFiles: string[]; sourceChars: number; size: number; suffixPieces: number; buildMs: number };
  sample: { source: string; totalChunks: number; totalTokens: number; measured: number; stats: TokenStats };
  otherSets: Array<{ source: string; stats: TokenStats }>;
  models: ModelInfo[];
  runs: EmbedRun[];
  glove?: { chunksPerS: number; loadMs: number; queryMs: number };
  queries: { source: string; n: number; meanTokens: number };
  /** Hand-written observations added to the results file after the run (rendered as the last bullets). */
  notes?: string[];
}

const la = (l: number[]): string => l.map((x) => x.toFixed(2)).join(" / ");
const hours = (seconds: number): string => (seconds >= 3600 ? `${fmt(seconds / 3600)} h` : `${fmt(seconds / 60)} min`);

/** The markdown section, markers included. */
export function renderEmbedderSection(r: EmbedderBenchResults): string {
  const out: string[] = [EMBEDDER_SECTION_BEGIN, "", "## 7. Local ONNX embedder (transformers.js), MiniLM-L6 shape, random weights", ""];
  out.push(
    `Written by \`${r.command}\` — run started ${r.started}, finished ${r.finished}; ${r.cpuModel} × ${r.cores} logical cores, Node ${r.node}; ` +
      `load average (1/5/15 min) at start ${la(r.loadAverageStart)}, at end ${la(r.loadAverageEnd)}. This section is kept when \`npm run bench\` rewrites the rest of the file.`,
    "",
    "**The weights are random.** No pretrained model can be downloaded on this machine, so the benchmark writes a model folder with the exact architecture " +
      "of the named model (standard opset-17 ONNX graph: embeddings, LayerNormalization, multi-head attention with the additive mask, exact-erf GELU FFN; " +
      "weights N(0, 0.02²) from a fixed seed) and loads it through `TransformersEmbedder.load({ modelPath })` (transformers.js 4.3.2 on onnxruntime-node, fp32, mean pooling). " +
      "Compute cost does not depend on weight values, so throughput, latency and memory are those of the real architecture on this machine; " +
      "**retrieval quality cannot be measured** with these weights and nothing here says anything about it. ONNX Runtime's session optimiser fuses this graph's GELU " +
      "(into `Gelu`) and the scaled query·key product (`FusedMatMul`) but not the attention block into its `Attention` kernel; a real export that was optimised " +
      "offline for that kernel could be somewhat faster than these rows.",
    "",
  );
  out.push(
    markdownTable(
      ["model shape", "layers × hidden (heads, FFN)", "weights", "onnx/model.onnx", "model_quantized.onnx", "written in"],
      r.models.map((m) => [
        m.name,
        `${m.layers} × ${m.hidden} (${m.heads}, ${m.intermediate})`,
        `${fmt(m.weights / 1e6)} M (+ ${fmt((m.hidden * m.hidden + m.hidden) / 1e6)} M unused pooler in the published model)`,
        `${fmt(m.onnxMb)} MB`,
        m.quantizedMb !== undefined ? `${fmt(m.quantizedMb)} MB` : "—",
        `${fmt(m.writeMs / 1000)} s`,
      ]),
      ["left", "left", "right", "right", "right", "right"],
    ),
    "",
  );
  const s = r.sample.stats;
  out.push(
    `Tokenizer: a WordPiece vocabulary of ${r.vocabulary.size} entries (special tokens, characters, ${r.vocabulary.suffixPieces} frequent word endings as \`##\` pieces, then the most frequent words) ` +
      `built in ${fmt(r.vocabulary.buildMs / 1000)} s from ${fmt(r.vocabulary.sourceChars / 1e6)} M characters of ${r.vocabulary.sourceFiles.join(", ")} — not from the measured text, so unseen words split into pieces as they would under a general-purpose vocabulary. ` +
      "The token counts below are the ones this tokenizer produces; a real bert-base-uncased vocabulary will differ somewhat.",
    "",
  );
  const statRow = (source: string, t: TokenStats): string[] => [
    source,
    String(t.texts),
    fmt(t.mean),
    `${t.p50} / ${t.p95} / ${t.max}`,
    `${fmt(100 * t.truncatedShare)} %`,
    fmt(t.meanCl100k),
    fmt(t.piecesPerWord),
    `${fmt(100 * t.unknownShare)} %`,
  ];
  out.push(
    markdownTable(
      ["chunks (`parseDocument`, default 800 cl100k max)", "texts", "mean model tokens", "p50 / p95 / max", "> 512 (truncated)", "mean cl100k tokens", "pieces per word", "[UNK]"],
      [statRow(`${r.sample.source} (measured sample)`, s), ...r.otherSets.map((o) => statRow(o.source, o.stats))],
      ["left", "right", "right", "right", "right", "right", "right", "right"],
    ),
    "",
  );
  out.push(
    `Measured: ${r.sample.measured} of the ${r.sample.totalChunks} ${r.sample.source} chunks (every ${fmt(r.sample.totalChunks / r.sample.measured)}th, in document order, as \`embedDocuments\` receives them: ` +
      "batches are padded to their longest text). Each configuration ran in a fresh process per round, rounds interleaving the configurations; a row shows its fastest round " +
      "(the least disturbed by other jobs; chunks/s of all rounds alongside) and the highest peak RSS of its rounds. Load = `TransformersEmbedder.load` (session creation and a one-text probe); " +
      `chunks per CPU-s = chunks over the process's user + system CPU time while embedding (all ONNX Runtime threads; less sensitive to other jobs than wall-clock, though spinning threads inflate it under contention, so it is a lower bound per core); ` +
      `peak RSS = that process's \`maxRSS\`; query latency = \`embedQuery\` of ${r.queries.n} ${r.queries.source} (mean ${fmt(r.queries.meanTokens)} tokens), one at a time after the documents.`,
    "",
  );
  out.push(
    markdownTable(
      ["model", "dtype", "batch", "max tokens", "load", "chunks/s", "all rounds", "chunks per CPU-s", "tokens/s", "padding overhead", "query p50 / p95", "RSS after load", "peak RSS", "load avg (1 min) start → end"],
      r.runs.map((x) => [
        x.model,
        x.dtype,
        x.lengthSorted ? `${x.batch} (length-sorted)` : String(x.batch),
        String(x.maxLength),
        `${fmt(x.loadMs, 0)} ms`,
        fmt(x.chunksPerS),
        x.rounds && x.rounds.length > 1 ? x.rounds.map((v) => fmt(v, 1)).join(", ") : "—",
        x.embedCpuMs ? fmt(x.chunks / (x.embedCpuMs / 1000)) : "—",
        fmt(x.tokensPerS, 0),
        `${fmt(100 * (x.paddedTokens / x.tokens - 1), 0)} %`,
        x.query ? `${fmt(x.query.p50, 1)} / ${fmt(x.query.p95, 1)} ms` : "—",
        `${fmt(x.rssAfterLoadMb, 0)} MB`,
        `${fmt(x.peakRssMb, 0)} MB`,
        `${x.loadAverageStart[0]!.toFixed(2)} → ${x.loadAverageEnd[0]!.toFixed(2)}`,
      ]),
      ["left", "left", "right", "right", "right", "right", "right", "right", "right", "right", "right", "right", "right", "right"],
    ),
    "",
  );
  out.push("What it implies:", "");
  const perCpuS = (x: EmbedRun): number | undefined => (x.embedCpuMs ? x.chunks / (x.embedCpuMs / 1000) : undefined);
  const full = (x: EmbedRun): boolean => x.maxLength >= 512 && x.dtype === "fp32";
  for (const model of [...new Set(r.runs.map((x) => x.model))]) {
    const mine = r.runs.filter((x) => x.model === model);
    // What `provider: transformers` does today: batchSize 16 (its default), texts in input order.
    const today = mine.find((x) => full(x) && !x.lengthSorted && x.batch === 16) ?? mine.find((x) => full(x) && !x.lengthSorted);
    const sorted = mine.find((x) => full(x) && x.lengthSorted);
    const all = r.sample.totalChunks;
    const line = (x: EmbedRun): string =>
      `${fmt(x.chunksPerS)} chunks/s → all ${all} ${r.sample.source} chunks in about ${hours(all / x.chunksPerS)}, 13,000 passages of that size in ${hours(13000 / x.chunksPerS)}` +
      (perCpuS(x) ? `; by CPU time (${fmt(perCpuS(x))} chunks per CPU-s), ≈ ${fmt(r.cores * perCpuS(x)!)} chunks/s with all ${r.cores} cores free and busy` : "");
    if (today) {
      out.push(
        `- ${model}, as \`embedDocuments\` runs today (batch ${today.batch}, document order): ${line(today)}.` +
          (r.glove ? ` GloVe-SIF on the same chunks: ${fmt(r.glove.chunksPerS, 0)} chunks/s, ${fmt(r.glove.chunksPerS / today.chunksPerS, 0)}× faster.` : ""),
      );
    }
    if (sorted) {
      out.push(
        `- ${model}, the same chunks sorted by length before batching (batch ${sorted.batch}): ${line(sorted)}. ` +
          (today
            ? `transformers.js pads every batch to its longest text, and ObliQA chunk lengths vary widely (p50 ${r.sample.stats.p50}, p95 ${r.sample.stats.p95} tokens): in document order ${fmt(100 * (today.paddedTokens / today.tokens - 1), 0)} % of the computed positions are padding, sorted ${fmt(100 * (sorted.paddedTokens / sorted.tokens - 1), 0)} %. ` +
              "Sorting by length inside the embedder (and restoring the order) is the cheapest speed-up available."
            : ""),
      );
    }
    const short = mine.find((x) => x.dtype === "fp32" && x.maxLength < 512 && !x.lengthSorted);
    const same = short && mine.find((x) => full(x) && !x.lengthSorted && x.batch === short.batch);
    if (short && same) {
      out.push(
        `- ${model} truncated at ${short.maxLength} tokens (sentence-transformers' \`max_seq_length\` for MiniLM; hierdoc's embedder truncates at the tokenizer's \`model_max_length\`, 512 in the generated folder; check a real folder's tokenizer_config.json), batch ${short.batch}: ` +
          `${fmt(short.chunksPerS)} chunks/s against ${fmt(same.chunksPerS)} at 512` +
          (perCpuS(short) && perCpuS(same) ? ` (per CPU-s ${fmt(perCpuS(short))} against ${fmt(perCpuS(same))})` : "") +
          ` — only ${fmt(100 * r.sample.stats.truncatedShare, 1)} % of the chunks exceed 512 tokens, but in document order one long chunk sets the padded length of its whole batch.`,
      );
    }
    for (const x of mine.filter((y) => y.dtype === "q8")) {
      const fp = mine.find((y) => y.dtype === "fp32" && !y.lengthSorted && y.batch === x.batch && y.maxLength === x.maxLength);
      if (fp) {
        out.push(
          `- ${model} q8 (dynamic int8 projections, the \`model_quantized.onnx\` layout), batch ${x.batch}: ${fmt(x.chunksPerS)} chunks/s against fp32's ${fmt(fp.chunksPerS)} (${fmt(x.chunksPerS / fp.chunksPerS)}×)` +
            (perCpuS(x) && perCpuS(fp) ? `, per CPU-s ${fmt(perCpuS(x))} against ${fmt(perCpuS(fp))} (${fmt(perCpuS(x)! / perCpuS(fp)!)}×)` : "") +
            "; int8 weights change the vectors slightly, so quality must be checked on the real quantized model.",
        );
      }
    }
    const queries = mine.filter((x) => x.query && x.dtype === "fp32").map((x) => x.query!);
    if (queries.length) {
      const p50s = queries.map((q) => q.p50);
      out.push(
        `- ${model} query embedding (one ObliQA question, fp32): p50 ${fmt(Math.min(...p50s), 1)}–${fmt(Math.max(...p50s), 1)} ms across the runs above (p95 up to ${fmt(Math.max(...queries.map((q) => q.p95)), 1)} ms), varying with the load` +
          (r.glove ? `; GloVe: ${fmt(r.glove.queryMs, 3)} ms` : "") +
          ". It adds to every search (§4's in-process hierdoc search p95 is a few milliseconds), so with a transformer embedder the query embedding dominates search latency.",
      );
    }
  }
  const m = r.runs.reduce((a, x) => Math.max(a, x.peakRssMb), 0);
  const spread = Math.max(1, ...r.runs.map((x) => (x.rounds && x.rounds.length > 1 ? Math.max(...x.rounds) / Math.min(...x.rounds) : 1)));
  const byBatch = [...new Set(r.runs.filter((x) => x.dtype === "fp32" && !x.lengthSorted && x.maxLength >= 512 && x.model === r.runs[0]?.model).map((x) => x.batch))].sort((a, b) => a - b);
  const rssOf = (b: number): number => r.runs.find((x) => x.dtype === "fp32" && !x.lengthSorted && x.maxLength >= 512 && x.model === r.runs[0]?.model && x.batch === b)!.peakRssMb;
  out.push(
    `- Memory: up to ${fmt(m, 0)} MB peak RSS per process in these runs. It grows with the batch, whose activations (attention scores are batch × heads × length², padded) dwarf the weights` +
      (byBatch.length > 1 ? ` — ${r.runs[0]!.model} peak RSS at batch ${byBatch.map((b) => `${b}: ${fmt(rssOf(b), 0)} MB`).join(", ")}` : "") +
      "; ingestion with a transformer embedder should keep batches small or sorted by length.",
  );
  out.push(
    `- The machine is shared (${r.cores} cores; other jobs ran throughout, 1-minute load average ${fmt(Math.min(...r.runs.flatMap((x) => [...x.loadAverageStart.slice(0, 1), ...x.loadAverageEnd.slice(0, 1)])), 1)}–${fmt(Math.max(...r.runs.flatMap((x) => [...x.loadAverageStart.slice(0, 1), ...x.loadAverageEnd.slice(0, 1)])), 1)} during the fastest rounds): ` +
      `wall-clock rounds of one configuration differ by up to ${fmt(spread, 1)}× (the all-rounds column), so wall-clock ratios between rows measured at different load mislead. ` +
      "CPU time per chunk varies less but is not immune (the host's other tenants share the cores' caches and execution units), so differences under about 2× between rows are not established by one run. " +
      "On an idle machine expect the wall-clock numbers to be at or above the fastest round.",
    ...(r.notes ?? []).map((n) => `- ${n}`),
    "",
  );
  out.push(EMBEDDER_SECTION_END);
  return out.join("\n").replace(/\n{3,}/g, "\n\n") + "\n";
}

/**
 * Puts `section` (with its markers) into `doc`: replaces an existing marked section, else inserts it
 * before `## Notes and limits` (or at the end).
 */
export function spliceEmbedderSection(doc: string, section: string): string {
  return spliceMarkedSection(doc, { begin: EMBEDDER_SECTION_BEGIN, end: EMBEDDER_SECTION_END }, section);
}

/** The marked section of `doc`, markers included, or undefined. */
export function extractEmbedderSection(doc: string): string | undefined {
  return extractMarkedSection(doc, { begin: EMBEDDER_SECTION_BEGIN, end: EMBEDDER_SECTION_END });
}
