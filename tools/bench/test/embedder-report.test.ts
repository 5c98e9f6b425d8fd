import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  EMBEDDER_SECTION_BEGIN,
  EMBEDDER_SECTION_END,
  extractEmbedderSection,
  renderEmbedderSection,
  spliceEmbedderSection,
  type EmbedRun,
  type EmbedderBenchResults,
  type TokenStats,
} from "../src/embedder-report.js";
import { keepEmbedderSection } from "../src/report.js";

const stats: TokenStats = { texts: 100, mean: 120, p50: 100, p95: 400, max: 512, truncatedShare: 0.01, meanCl100k: 110, piecesPerWord: 1.1, unknownShare: 0 };
const run = (batch: number, chunksPerS: number, maxLength = 512): EmbedRun => ({
  model: "all-MiniLM-L6-v2",
  dtype: "fp32",
  batch,
  maxLength,
  chunks: 100,
  tokens: 12_000,
  paddedTokens: 15_000,
  loadMs: 900,
  embedMs: (100 / chunksPerS) * 1000,
  chunksPerS,
  tokensPerS: 12_000 / (100 / chunksPerS),
  rssAfterLoadMb: 300,
  peakRssMb: 700,
  query: { n: 50, mean: 20, p50: 18, p95: 40, p99: 45, max: 50 },
  loadAverageStart: [3.5, 3, 2],
  loadAverageEnd: [4.25, 3, 2],
});
const results: EmbedderBenchResults = {
  started: "2026-12-02T16:00:00.000Z",
  finished: "2026-12-02T16:30:00.000Z",
  cpuModel: "AMD EPYC",
  cores: 2,
  node: "v20.20.2",
  loadAverageStart: [3.5, 3, 2],
  loadAverageEnd: [4.25, 3, 2],
  command: "node tools/bench/dist/embedder-bench.js --sample 100",
  vocabulary: { sourceFiles: ["uscode/md/*.md"], sourceChars: 5e6, size: 30522, suffixPieces: 5800, buildMs: 400 },
  sample: { source: "ObliQA", totalChunks: 10_000, totalTokens: 1_200_000, measured: 100, stats },
  otherSets: [{ source: "GDPR", stats }],
  models: [{ name: "all-MiniLM-L6-v2", layers: 6, hidden: 384, heads: 12, intermediate: 1536, weights: 22_565_376, onnxMb: 90.3, writeMs: 3800 }],
  runs: [run(1, 4), { ...run(16, 10), rounds: [7.25, 10, 9.5] }, run(16, 20, 256)],
  glove: { chunksPerS: 3000, loadMs: 50, queryMs: 0.02 },
  queries: { source: "ObliQA dev questions", n: 50, meanTokens: 30 },
  notes: ["checked by hand: X"],
};

describe("embedder benchmark section", () => {
  it("says the weights are random, shows every run, and projects time from the fastest full-length run", () => {
    const md = renderEmbedderSection(results);
    expect(md.startsWith(EMBEDDER_SECTION_BEGIN)).toBe(true);
    expect(md.trimEnd().endsWith(EMBEDDER_SECTION_END)).toBe(true);
    expect(md).toContain("**The weights are random.**");
    expect(md).toContain("retrieval quality cannot be measured");
    expect(md.match(/^\| all-MiniLM-L6-v2 \| fp32 \|/gm)).toHaveLength(3);
    // today's default (batch 16, document order, 512 tokens): 10 chunks/s → 10 000 chunks in 1000 s ≈ 16.67 min; GloVe 300× faster
    expect(md).toContain("as `embedDocuments` runs today (batch 16, document order): 10.00 chunks/s → all 10000 ObliQA chunks in about 16.67 min");
    expect(md).toContain("300× faster");
    expect(md).not.toMatch(/runs today \(batch 1,/);
    expect(md).toContain("| 25 % |"); // padding overhead 15 000 / 12 000 − 1
    expect(md).toContain("| 10.00 | 7.3, 10.0, 9.5 |"); // the fastest round, then every round
    expect(md).toContain("3.50 → 4.25");
    expect(md).toContain("truncated at 256 tokens");
    expect(md).toContain("\n- checked by hand: X\n");
    expect(md).toContain("batch 16: 20.00 chunks/s against 10.00 at 512");
  });

  it("splices the section before the notes, replaces it on the next run, and leaves the rest alone", () => {
    const doc = "# hierdoc benchmarks\n\n## 6. Components\n\ntable\n\n## Notes and limits\n\n- note\n";
    const first = spliceEmbedderSection(doc, renderEmbedderSection(results));
    expect(first.indexOf(EMBEDDER_SECTION_BEGIN)).toBeGreaterThan(first.indexOf("## 6. Components"));
    expect(first.indexOf(EMBEDDER_SECTION_END)).toBeLessThan(first.indexOf("## Notes and limits"));
    const again = spliceEmbedderSection(first, renderEmbedderSection({ ...results, runs: [run(8, 12)] }));
    expect(again.split(EMBEDDER_SECTION_BEGIN)).toHaveLength(2);
    expect(again).toContain("runs today (batch 8, document order): 12.00 chunks/s");
    expect(again).not.toContain("10.00 chunks/s");
    expect(again.replace(extractEmbedderSection(again)!, "")).toBe(first.replace(extractEmbedderSection(first)!, ""));
    expect(spliceEmbedderSection("# x\n", "S\n")).toBe("# x\n\nS\n");
  });

  it("survives a full report rewrite: keepEmbedderSection carries it into the new file", () => {
    const dir = mkdtempSync(join(tmpdir(), "hierdoc-bench-md-"));
    try {
      const file = join(dir, "benchmarks.md");
      const section = renderEmbedderSection(results);
      writeFileSync(file, spliceEmbedderSection("# old\n\n## Notes and limits\n", section));
      const rewritten = keepEmbedderSection(file, "# new report\n\n## 6. Components\n\n## Notes and limits\n\n- n\n");
      expect(rewritten).toContain("# new report");
      expect(extractEmbedderSection(rewritten)).toBe(extractEmbedderSection(readFileSync(file, "utf8")));
      expect(keepEmbedderSection(join(dir, "absent.md"), "# new\n")).toBe("# new\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
