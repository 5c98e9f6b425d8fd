import { describe, expect, it } from "@jest/globals";
import { lineChartSvg } from "../src/svg-plot.js";
import { markdownTable, fmt, verdict } from "../src/markdown.js";
import { median, percentile, summarize } from "../src/stats.js";
import { ingestThroughput, renderReport, latencySvg, type BenchResults } from "../src/report.js";

describe("percentile", () => {
  it("interpolates between closest ranks like NumPy's default", () => {
    const xs = [15, 20, 35, 40, 50];
    expect(percentile(xs, 0)).toBe(15);
    expect(percentile(xs, 100)).toBe(50);
    expect(percentile(xs, 50)).toBe(35);
    expect(percentile(xs, 40)).toBeCloseTo(29, 10); // numpy.percentile([15,20,35,40,50], 40) = 29.0
    expect(percentile(xs, 95)).toBeCloseTo(48, 10);
    expect(percentile([3, 1, 2], 50)).toBe(2);
  });
  it("does not reorder its input and rejects bad arguments", () => {
    const xs = [3, 1, 2];
    percentile(xs, 90);
    expect(xs).toEqual([3, 1, 2]);
    expect(() => percentile([], 50)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
  it("summarises a series (1..100: p50 50.5, p95 95.05, p99 99.01)", () => {
    const s = summarize(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(s.n).toBe(100);
    expect(s.mean).toBeCloseTo(50.5, 10);
    expect(s.p50).toBeCloseTo(50.5, 10);
    expect(s.p95).toBeCloseTo(95.05, 10);
    expect(s.p99).toBeCloseTo(99.01, 10);
    expect(s.max).toBe(100);
    expect(median([7])).toBe(7);
  });
});

describe("markdownTable", () => {
  it("writes a header, an alignment rule and escaped rows", () => {
    const t = markdownTable(["system", "p95 ms"], [["a|b", 1.5], ["line\nbreak", "2.00"]]);
    expect(t.split("\n")).toEqual(["| system | p95 ms |", "|:---|---:|", "| a\\|b | 1.5 |", "| line break | 2.00 |", ""]);
  });
  it("honours explicit alignment and rejects ragged rows", () => {
    expect(markdownTable(["x"], [[1]], ["left"])).toContain("|:---|");
    expect(() => markdownTable(["a", "b"], [["only one"]])).toThrow(RangeError);
  });
  it("formats numbers and verdicts", () => {
    expect(fmt(1.23456, 2)).toBe("1.23");
    expect(fmt(Number.NaN)).toBe("n/a");
    expect(fmt(undefined)).toBe("n/a");
    expect(verdict(true, "5 ms", "≤ 20 ms")).toBe("**met** (5 ms; target ≤ 20 ms)");
    expect(verdict(false, "50 ms", "≤ 20 ms")).toMatch(/^\*\*not met\*\*/);
    expect(verdict(null, "x", "y")).toMatch(/^not measured/);
  });
});

describe("lineChartSvg", () => {
  const series = [
    { name: "hierdoc hybrid", points: [[10_000, 5], [100_000, 40]] as Array<[number, number]> },
    { name: "Orama <hybrid>", points: [[10_000, 300], [100_000, 3000]] as Array<[number, number]> },
  ];
  it("draws one polyline and legend entry per series, points in order, escaped names", () => {
    const svg = lineChartSvg(series, { title: "t", xLabel: "chunks", yLabel: "ms" });
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.trim().endsWith("</svg>")).toBe(true);
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg.match(/<circle/g)).toHaveLength(4);
    expect(svg).toContain("Orama &lt;hybrid&gt;");
    expect(svg).not.toContain("<hybrid>");
    // Higher latency is drawn higher up (smaller y) on the same x.
    const ys = [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[2])]);
    const [h10, h100, o10] = ys;
    expect(h100[0]).toBeGreaterThan(h10[0]);
    expect(o10[1]).toBeLessThan(h10[1]);
    expect(h100[1]).toBeLessThan(h10[1]);
  });
  it("rejects an empty plot and non-positive values on a log axis", () => {
    expect(() => lineChartSvg([], { title: "t", xLabel: "x", yLabel: "y" })).toThrow(RangeError);
    expect(() => lineChartSvg([{ name: "a", points: [[0, 1]] }], { title: "t", xLabel: "x", yLabel: "y" })).toThrow(RangeError);
    expect(lineChartSvg([{ name: "a", points: [[0, 1], [1, 0]] }], { title: "t", xLabel: "x", yLabel: "y", logX: false, logY: false })).toContain("<polyline");
  });
});

describe("report", () => {
  const lat = { n: 10, mean: 4, p50: 3, p95: 8, p99: 9, max: 10 };
  const metrics = { k: 10, queries: 2788, missing: 0, recall: 0.8, precision: 0.1, map: 0.6, mrr: 0.7, ndcg: 0.7, chunkRecall: 0.9, wordsPerQuery: 100 };
  const results: BenchResults = {
    quick: false, started: "s", finished: "f",
    machine: { cpuModel: "cpu", cores: 2, ramGiB: 8, freeRamGiB: 4, node: "v20", platform: "linux x64", loadAverage: [1, 2, 3] },
    loadAtEnd: [1, 1, 1], commands: ["node x"],
    ingests: { all: { files: [{ outcome: "added", bytes: 6000 }], total_chunks: 3, tokens: 9, bytes: 6000, timings_ms: { parse: 500, embed: 250, total: 1000 }, wallMs: 2000, command: "c", convertedChars: 6000 } },
    sharedDisplay: "files",
    quality: [{ corpus: "ObliQA dev", system: "hierdoc", variant: "hybrid (defaults)", metrics, searchMs: 2788, run: [] }],
    peerRows: [{ corpus: "ObliQA dev", system: "LangChain MemoryVectorStore", variant: "vector", metrics: { ...metrics, recall: 0.4 }, searchMs: 1, run: [] }],
    subsetRows: [{ row: { corpus: "ObliQA dev", system: "hierdoc", variant: "hybrid (defaults)", metrics, searchMs: 1, run: [] }, metrics }],
    peerQueries: 200, qualityQueries: Infinity,
    latency: [
      { system: "hierdoc", mode: "hybrid", chunks: 10_000, embedderLoadMs: 1, openMs: 2, rssBaseMb: 100, rssAfterEmbedderMb: 150, peakRssMb: 300, latency: lat },
      { system: "hierdoc", mode: "hybrid", chunks: 100_000, embedderLoadMs: 1, openMs: 2, rssBaseMb: 100, rssAfterEmbedderMb: 150, peakRssMb: 1300, latency: { ...lat, p95: 150 } },
    ],
    peerLatency: [{ system: "LangChain MemoryVectorStore", chunks: 100_000, buildMs: 5, rssBaseMb: 1, rssAfterEmbedderMb: 2, peakRssMb: 3, latency: { vector: { ...lat, p95: 600 } } }],
    cliBatch: [{ size: 10_000, queries: 100, wallMs: 5000 }], builds: [], cold: [900, 1100, 1000], coldCommand: "hierdoc search q", coldVersion: [400, 600],
    components: {
      glove: { loadMs: 200, id: "glove", dims: 100, embedChunks: 10, embedMs: 1, chunksPerS: 10000, mbPerS: 5, queryEmbedMs: 0.1 },
      bm25: { chunks: 100_000, buildMs: 12_000, query: lat, saveMs: 1, loadMs: 500, reloadedHits: 10, addMs: 1, removeMs: 1 },
      chunker: { files: 1, chars: 1e6, bestMs: 100, mbPerS: 10, chunks: 5 },
      peakRssMb: 1,
    },
    params: { chunkerRounds: 2 }, workDisplay: "/tmp/w",
  };
  it("computes pages/s from converted characters (page = 3,000 characters)", () => {
    const t = ingestThroughput(results.ingests.all);
    expect(t.pages).toBe(2);
    expect(t.pagesPerS).toBe(2);
    expect(t.pagesPerSWall).toBe(1);
    expect(t.mbPerS).toBeCloseTo(0.006, 10);
  });
  it("states each target with the measured value and whether it is met", () => {
    const md = renderReport(results, "x.svg");
    expect(md).toContain("| ObliQA dev hybrid Recall@10 ≥ 0.85 (#9) | **not met** (0.8000 on 2788 queries; target ≥ 0.85) |");
    expect(md).toContain("| search p95 @10k in-process (#9) | **met** (8.00 ms; target ≤ 20 ms) |");
    expect(md).toMatch(/search p95 @100k in-process \(#9\) \| \*\*not met\*\* \(150\.00 ms/);
    expect(md).toMatch(/faster peer @100k.*\*\*met\*\*.*4\.00×/);
    expect(md).toMatch(/peak RSS @100k.*\*\*not met\*\* \(peak 1300 MB − embedder 50 MB = 1250 MB/);
    expect(md).toMatch(/cold start.*\*\*met\*\* \(median 1000 ms of 3/);
    expect(md).toContain("`hierdoc --version` alone takes 500 ms, so loading the CLI's modules is 50 % of the cold start.");
    expect(md).toMatch(/BM25 build 100k ≤ 10 s \(#5\) \| \*\*not met\*\* \(12\.00 s/);
    expect(md).toContain("![p95 search latency against corpus size](x.svg)");
    expect(md).toContain("load average at start (1/5/15 min) | 1.00 / 2.00 / 3.00");
    expect(latencySvg(results).match(/<polyline/g)).toHaveLength(2);
  });
});
