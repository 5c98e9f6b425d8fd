import { describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RANKER_SECTION_BEGIN, RANKER_SECTION_END, extractRankerSection, renderRankerSection, spliceRankerSection, type RankerBenchResults } from "../src/ranker-report.js";
import { keepEmbedderSection } from "../src/report.js";

const lat = (p95: number) => ({ n: 10, mean: p95 / 2, p50: p95 / 2, p95, p99: p95, max: p95 });
const results = (learnedMap: number, learnedP95: number, rank1: number): RankerBenchResults => ({
  started: "2026-12-03T09:00:00Z",
  finished: "2026-12-03T09:20:00Z",
  machine: { cpuModel: "cpu", cores: 2, ramGiB: 24, freeRamGiB: 16, node: "v20", platform: "linux", loadAverage: [1, 1, 1] },
  loadAtEnd: [2, 2, 2],
  kind: "trees",
  cv: { folds: 5, k: 10, candidates: 50, queries: 2788, fused: { recall: 0.766, map: 0.6019 }, lexical: { recall: 0.7818, map: 0.629 }, learned: { recall: 0.789, map: learnedMap }, seconds: 600 },
  shippedSame: true,
  policyqa: { queries: 3809, fused: { recall: 0.5, map: 0.3 }, lexical: { recall: 0.5, map: 0.31 }, learned: { recall: 0.51, map: 0.32 }, lexicalMs: lat(3), learnedMs: lat(2), modelMs: lat(0.1) },
  latency: { queries: 500, fused: { recall: 0.7, map: 0.6 }, lexical: { recall: 0.7, map: 0.6 }, learned: { recall: 0.7, map: 0.6 }, lexicalMs: lat(8), learnedMs: lat(learnedP95), modelMs: lat(0.2), learnedCpuMs: lat(learnedP95 / 2) },
  exact: [{ name: "CFR 27", queries: 100, rank1 }],
  commands: ["node apps/cli/bin/hierdoc.js train-ranker …"],
});

describe("ranker report section", () => {
  it("states each target's verdict from the numbers", () => {
    const miss = renderRankerSection(results(0.6389, 7.5, 99));
    expect(miss).toContain("| ObliQA dev cross-validated MAP@10 ≥ 0.68 | 0.6389 | **not met** |");
    expect(miss).toContain("| added rerank p95 ≤ 5 ms at 50 candidates, over no rerank stage (features + model) | 7.50 ms | **not met** |");
    expect(miss).toContain("| added rerank p95 ≤ 5 ms at 50 candidates, over the lexical stage (the model) | 0.20 ms | **met** |");
    expect(miss).toContain("| added rerank p95 ≤ 5 ms at 50 candidates, over no rerank stage (features + model), CPU time | 3.75 ms | **met** |");
    expect(renderRankerSection(results(0.6389, 12, 99))).toContain("over no rerank stage (features + model), CPU time | 6.00 ms | **not met** |");
    expect(miss).toContain("| exact lookups (US Code, CFR; 3 forms) 100% rank 1 | 99/100 | **not met** |");
    const met = renderRankerSection(results(0.7, 1.2, 100));
    expect(met).toContain("| ObliQA dev cross-validated MAP@10 ≥ 0.68 | 0.7000 | **met** |");
    expect(met).toContain("| exact lookups (US Code, CFR; 3 forms) 100% rank 1 | 100/100 | **met** |");
  });

  it("replaces its own section, inserts before Notes and limits, and survives a rewrite of the main report", () => {
    const first = renderRankerSection(results(0.6, 2, 100));
    const doc = spliceRankerSection("# Benchmarks\n\n## 1. Quality\n\n## Notes and limits\n\n- x\n", first);
    expect(doc.indexOf(RANKER_SECTION_BEGIN)).toBeLessThan(doc.indexOf("## Notes and limits"));
    const second = renderRankerSection(results(0.65, 2, 100));
    const again = spliceRankerSection(doc, second);
    expect(again.split(RANKER_SECTION_BEGIN)).toHaveLength(2);
    expect(extractRankerSection(again)).toBe(second);
    const dir = mkdtempSync(join(tmpdir(), "hierdoc-ranker-report-"));
    try {
      const file = join(dir, "benchmarks.md");
      writeFileSync(file, again);
      const rewritten = keepEmbedderSection(file, "# Benchmarks (new run)\n\n## Notes and limits\n");
      expect(rewritten).toContain("# Benchmarks (new run)");
      expect(rewritten).toContain("0.6500");
      expect(rewritten.indexOf(RANKER_SECTION_END)).toBeLessThan(rewritten.indexOf("## Notes and limits"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a full report rewrite", () => {
  it("keeps the scale section that scale-bench wrote, before the notes", async () => {
    const { SCALE_SECTION_BEGIN, SCALE_SECTION_END } = await import("../src/scale-report.js");
    const scale = `${SCALE_SECTION_BEGIN}\n## 9. Scale\n\nrecall@10 0.999\n${SCALE_SECTION_END}\n`;
    const dir = mkdtempSync(join(tmpdir(), "hierdoc-scale-keep-"));
    try {
      const file = join(dir, "benchmarks.md");
      writeFileSync(file, `# Benchmarks (old run)\n\n${scale}\n## Notes and limits\n`);
      const rewritten = keepEmbedderSection(file, "# Benchmarks (new run)\n\n## Notes and limits\n");
      expect(rewritten).toContain("# Benchmarks (new run)");
      expect(rewritten).not.toContain("old run");
      expect(rewritten).toContain("recall@10 0.999");
      expect(rewritten.indexOf(SCALE_SECTION_END)).toBeLessThan(rewritten.indexOf("## Notes and limits"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the hand re-measurements section", () => {
  it("is kept by a full report rewrite (after the scale section) and by a scale section re-render", async () => {
    const { SCALE_SECTION_BEGIN, SCALE_SECTION_END, spliceScaleSection } = await import("../src/scale-report.js");
    const { HAND_SECTION_BEGIN, HAND_SECTION_END } = await import("../src/hand-section.js");
    const scale = `${SCALE_SECTION_BEGIN}\n## 9. Scale\n\nrecall@10 0.999\n${SCALE_SECTION_END}\n`;
    const hand = `${HAND_SECTION_BEGIN}\n## Re-measured by hand\n\np95 11.8 ms on 2026-12-07\n${HAND_SECTION_END}\n`;
    const dir = mkdtempSync(join(tmpdir(), "hierdoc-hand-keep-"));
    try {
      const file = join(dir, "benchmarks.md");
      writeFileSync(file, `# Benchmarks (old run)\n\n## 4. Latency\n\nold rows\n\n${scale}\n${hand}\n## Notes and limits\n`);
      const rewritten = keepEmbedderSection(file, "# Benchmarks (new run)\n\n## 4. Latency\n\nnew rows\n\n## Notes and limits\n");
      expect(rewritten).not.toContain("old rows");
      expect(rewritten).toContain("p95 11.8 ms on 2026-12-07");
      const at = (s: string) => rewritten.indexOf(s);
      expect(at(SCALE_SECTION_END)).toBeLessThan(at(HAND_SECTION_BEGIN));
      expect(at(HAND_SECTION_END)).toBeLessThan(at("## Notes and limits"));
      // scale-bench --render-only replaces only its own section.
      const rerendered = spliceScaleSection(rewritten, `${SCALE_SECTION_BEGIN}\n## 9. Scale\n\nrecall@10 0.998\n${SCALE_SECTION_END}\n`);
      expect(rerendered).toContain("recall@10 0.998");
      expect(rerendered).not.toContain("recall@10 0.999");
      expect(rerendered).toContain("p95 11.8 ms on 2026-12-07");
      // Rewritten once more, the section is there exactly once.
      writeFileSync(file, rerendered);
      const again = keepEmbedderSection(file, "# Benchmarks (third run)\n\n## Notes and limits\n");
      expect(again.split(HAND_SECTION_BEGIN)).toHaveLength(2);
      expect(again).toContain("p95 11.8 ms on 2026-12-07");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
