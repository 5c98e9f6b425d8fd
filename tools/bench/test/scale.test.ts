import { describe, expect, it } from "@jest/globals";
import type { StoreRecord } from "@hierdoc/core";
import { cosineSimilarity as cosine } from "@hierdoc/embeddings";
import { extractScaleSection, renderScaleSection, scaleTargets, spliceScaleSection, SCALE_SECTION_BEGIN, SCALE_SECTION_END, type ScaleResults } from "../src/scale-report.js";
import { exactTop, recallAt } from "../src/scale-recall.js";
import { COPY_SHAPES, gaussian, projection, scaleRecord, unit } from "../src/scale-vectors.js";

const lat = (p95: number) => ({ n: 300, mean: p95 / 2, p50: p95 / 2, p95, p99: p95 * 1.5, max: p95 * 2 });
const results = (hybridP95: number, openMs: number, rss: number, recall: number): ScaleResults => ({
  date: "2026-12-03",
  machine: "test cpu × 2",
  commands: ["node tools/bench/dist/scale-worker.js build …"],
  quality: { chunks: 11096, threshold: 5000, loadAverage: 3, metrics: { "exact-hybrid": { recall: 0.78, map: 0.63, queries: 2788 }, "ann-hybrid": { recall: 0.7795, map: 0.6299, queries: 2788 }, "exact-semantic": { recall: 0.436, map: 0.2746, queries: 2788 }, "ann-semantic": { recall: 0.433, map: 0.2732, queries: 2788 } } },
  runs: [
    { size: 1_000_000, dims: 100, latency: { dims: 100, chunks: 1_000_000, annOnDisk: true, openMs, latency: { hybrid: lat(hybridP95), keyword: lat(20), semantic: lat(3) }, servingPeakRssMb: rss, recallAt10: recall, recallQueries: 200, loadAverage: [5, 6] } },
    { size: 100_000, dims: 1536, error: "skipped (--skip 100000x1536)" },
  ],
});

describe("scale report", () => {
  it("gives each issue-16 target a verdict from the numbers (met, not met, not measured)", () => {
    const v = (r: ScaleResults) => Object.fromEntries(scaleTargets(r).map(([t, , verdict]) => [t.split(" ").slice(0, 4).join(" "), verdict]));
    const good = v(results(40, 3000, 2500, 0.99));
    expect(good["1M × 100-d hybrid"]).toBe("met");
    expect(good["1M × 100-d open"]).toBe("met");
    expect(good["100k × 100-d hybrid"]).toBe("not measured");
    expect(good["ObliQA hybrid R@10 /"]).toBe("met");
    expect(good["ObliQA semantic R@10 /"]).toBe("**not met**");
    const bad = v(results(80, 9000, 4000, 0.9));
    expect(bad["1M × 100-d hybrid"]).toBe("**not met**");
    expect(bad["1M × 100-d peak"]).toBe("**not met**");
    expect(bad["1M × 100-d ANN"]).toBe("not measured");
    const recallVerdicts = scaleTargets(results(80, 9000, 4000, 0.9)).filter(([t]) => t.startsWith("1M × 100-d ANN"));
    expect(recallVerdicts.map(([t, m, verdict]) => [t.includes("tight"), m, verdict])).toEqual([
      [true, "0.9000", "**not met**"],
      [false, "—", "not measured"],
    ]);
  });

  it("takes latency targets from the spread pool when it was measured, and renders sweeps and per-stage timings", () => {
    const r = results(80, 9000, 4000, 0.9);
    const spread = { ...r.runs[0], shape: "spread", latency: { ...r.runs[0].latency!, latency: { ...r.runs[0].latency!.latency, hybrid: lat(45) }, recallAt10: 0.99, hybridStagesMs: { semantic: lat(4), rerank: lat(9) } } };
    r.runs.push(spread);
    r.sweeps = [{ size: 1_000_000, dims: 100, shape: "tight", queries: 100, peakRssMb: 3000, loadAverage: [4, 5], rows: [{ candidates: 512, efSearch: 256, recallAt10: 0.93, wallMs: lat(6), cpuMs: lat(5), openMs: 40_000 }] }];
    const t = Object.fromEntries(scaleTargets(r).map(([name, m, verdict]) => [name, [m, verdict]]));
    expect(t["1M × 100-d hybrid p95 ≤ 50 ms (default reranker) (spread copies)"]).toEqual(["45.0 ms", "met"]);
    expect(t["1M × 100-d ANN recall@10 vs exact ≥ 0.98 (spread copies)"]).toEqual(["0.9900", "met"]);
    // A pool measured only by the sweep takes its recall from the row at the store's defaults.
    r.sweeps.push({ ...r.sweeps[0], size: 100_000, shape: "spread", rows: [{ ...r.sweeps[0].rows[0], candidates: 0, efSearch: 256, recallAt10: 0.985 }] });
    r.runs.push({ size: 100_000, dims: 100, shape: "spread", error: "store only" });
    expect(Object.fromEntries(scaleTargets(r).map(([name, m]) => [name, m]))["100k × 100-d ANN recall@10 vs exact ≥ 0.98 (spread copies)"]).toBe("0.9850");
    const md = renderScaleSection(r);
    expect(md).toContain("| 1,000,000 | 100 | tight | 512 | 256 | 0.9300 | 3.00 / 6.00 | 2.50 / 5.00 | 100 | 4.0, 5.0 |");
    expect(md).toMatch(/\| 1,000,000 \| 100 \| spread \| HNSW \| 2\.00 \/ 4\.00 \| 4\.50 \/ 9\.00 \|/);
  });

  it("gives the 1M × 1,536-d targets a verdict and labels the build's graph type and CPU time", () => {
    const r = results(40, 3000, 2500, 0.99);
    const t = (x: ScaleResults) => Object.fromEntries(scaleTargets(x).map(([name, m, verdict]) => [name.replace(/ \(.*$/, ""), [m, verdict]]));
    expect(t(r)["1M × 1,536-d hybrid p95 ≤ 100 ms"]).toEqual(["— ms", "not measured"]);
    const build = { size: 1_000_000, dims: 1536, shape: "spread", baseChunks: 11096, chunks: 1_000_000, upsertMs: 3e6, storeWriteMs: 3.1e6, derivedBuildMs: 2e5, buildMs: 3.3e6, diskBytes: 1e10, storeBytes: 9e9, peakRssMb: 9000, loadAverage: [8], storeCpuMs: 1.5e6, derivedCpuMs: 1e5, ann: { quantization: "i8" } };
    r.runs.push({ size: 1_000_000, dims: 1536, shape: "spread", build, latency: { ...r.runs[0].latency!, dims: 1536, latency: { ...r.runs[0].latency!.latency, hybrid: lat(80) }, recallAt10: 0.97 } });
    expect(t(r)["1M × 1,536-d hybrid p95 ≤ 100 ms"]).toEqual(["80.0 ms", "met"]);
    expect(t(r)["1M × 1,536-d ANN recall@10 vs exact ≥ 0.98"]).toEqual(["0.9700", "**not met**"]);
    expect(renderScaleSection(r)).toMatch(/\| 1,000,000 \| 1536 \| spread \| HNSW i8 graph \| 3300 \(CPU 1600\) \|/);
  });

  it("renders a marked section with the results and failures, and splices it into a document once", () => {
    const section = renderScaleSection(results(40, 3000, 2500, 0.99));
    expect(section.startsWith(SCALE_SECTION_BEGIN)).toBe(true);
    expect(section.trim().endsWith(SCALE_SECTION_END)).toBe(true);
    expect(section).toContain("| 1,000,000 | 100 |");
    expect(section).toContain("skipped (--skip 100000x1536)");
    const doc = "# B\n\n## 1. x\n\ntext\n\n## Notes and limits\n\nn\n";
    const once = spliceScaleSection(doc, section);
    expect(once.indexOf(SCALE_SECTION_BEGIN)).toBeLessThan(once.indexOf("## Notes and limits"));
    const twice = spliceScaleSection(once, renderScaleSection(results(80, 3000, 2500, 0.99)));
    expect(twice.split(SCALE_SECTION_BEGIN)).toHaveLength(2);
    expect(extractScaleSection(twice)).toContain("80.0");
  });
});

describe("scale vectors", () => {
  const base: StoreRecord[] = [0, 1, 2].map((i) => ({
    record: { id: `r${i}`, sourcePath: `d${i}.md`, content: "c", context: "", indexedText: "c", start: 0, end: 1, sectionId: "1", parentChain: [], chunkType: "paragraph", tokens: 1 } as unknown as StoreRecord["record"],
    vector: unit(Float32Array.from({ length: 100 }, (_, j) => Math.sin(i * 100 + j))),
  }));
  const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, j) => s + x * b[j], 0);

  it("copy 0 is the real record; later copies get new ids and paths and a distinct vector close to the original", () => {
    const same = (v: Float32Array) => v;
    expect(scaleRecord(base, 1, same).record.id).toBe("r1");
    const copy = scaleRecord(base, 4, same);
    expect(copy.record.id).toBe("r1#r1");
    expect(copy.record.sourcePath).toBe("r1/d1.md");
    const c = cos(copy.vector, base[1].vector);
    expect(c).toBeGreaterThan(0.94);
    expect(c).toBeLessThan(0.995);
    expect(scaleRecord(base, 4, same).vector).toEqual(copy.vector);
  });

  it("the random projection to 1,536-d keeps cosines of the 100-d vectors (within 0.1) and gives unit vectors", () => {
    const p = projection(100, 1536);
    const a = scaleRecord(base, 3, (v) => v).vector;
    const b = base[0].vector;
    const pa = p(a);
    expect(pa).toHaveLength(1536);
    expect(cos(pa, pa)).toBeCloseTo(1, 5);
    expect(Math.abs(cos(pa, p(b)) - cos(a, b))).toBeLessThan(0.1);
  });

  it("the projection is the seeded Gaussian matrix times the vector, normalised (every input component counts, 4 per pass or not)", () => {
    // 7 inputs: one pass of four components and three left over.
    const [from, to] = [7, 5];
    const g = gaussian(1536);
    const m = Array.from({ length: from * to }, () => g());
    const v = Float32Array.from({ length: from }, (_, i) => (i === 2 ? 0 : Math.cos(i + 1)));
    const plain = Array.from({ length: to }, (_, j) => v.reduce((s, x, i) => s + x * m[i * to + j], 0));
    const norm = Math.hypot(...plain);
    const got = projection(from, to)(v);
    plain.forEach((x, j) => expect(got[j]).toBeCloseTo(x / norm, 6));
    // Calls do not leak into each other (the sums are reused between calls).
    expect(Array.from(projection(from, to)(v))).toEqual(Array.from(got));
    const p = projection(from, to);
    p(Float32Array.from({ length: from }, () => 1));
    expect(Array.from(p(v))).toEqual(Array.from(got));
  });

  it("the spread shape moves copies further from their record than the tight one (cosine 0.8–0.95), towards other records", () => {
    const g = gaussian(7);
    const many: StoreRecord[] = Array.from({ length: 200 }, (_, i) => ({ ...base[0], record: { ...base[0].record, id: `m${i}` }, vector: unit(Float32Array.from({ length: 100 }, () => g())) }));
    const mean = (shape: (typeof COPY_SHAPES)[string]) => {
      let s = 0;
      for (let j = 0; j < 400; j++) s += cosine(scaleRecord(many, 200 + j, (v) => v, shape).vector, many[j % 200].vector);
      return s / 400;
    };
    const tight = mean(COPY_SHAPES.tight);
    const spread = mean(COPY_SHAPES.spread);
    expect(tight).toBeGreaterThan(0.95);
    expect(spread).toBeGreaterThan(0.8);
    expect(spread).toBeLessThan(0.95);
    // The mixed-in record is another real one: a spread copy is closer to some other record than a tight copy is.
    const nearestOther = (shape: (typeof COPY_SHAPES)[string]) => {
      const v = scaleRecord(many, 205, (x) => x, shape).vector;
      return Math.max(...many.filter((_, i) => i !== 5).map((r) => cosine(v, r.vector)));
    };
    expect(nearestOther(COPY_SHAPES.spread)).toBeGreaterThan(nearestOther(COPY_SHAPES.tight) + 0.1);
  });
});

describe("scale recall", () => {
  it("exactTop ranks rows by dot product with the query; recallAt counts the exact rows found in each answer", () => {
    const rows = [[1, 0], [0.6, 0.8], [0, 1], [-1, 0], [0.8, 0.6]];
    const vectors = Float32Array.from(rows.flat());
    expect(exactTop(vectors, rows.length, Float32Array.from([1, 0]), 3)).toEqual([0, 4, 1]);
    expect(exactTop(vectors, rows.length, Float32Array.from([0, 1]), 2)).toEqual([2, 1]);
    const ids = ["a", "b", "c", "d", "e"];
    expect(recallAt([[0, 4, 1], [2, 1]], [["a", "e", "x"], ["c", "b"]], ids)).toBeCloseTo(4 / 5, 10);
    expect(recallAt([[0]], [[]], ids)).toBe(0);
  });
});
