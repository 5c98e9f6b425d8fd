import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluateRun, formatMetricsTable, formatPerQueryJsonl, loadQrels, parseQrelsText, parseRunJsonl, readRunJsonl, toRunResult } from "@hierdoc/eval";
import type { SearchResult } from "@hierdoc/core";

const PASSAGE = "A person must not carry on a regulated activity in the ADGM unless authorised.";

describe("readers and formatting", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "hierdoc-eval-io-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the same qrels from JSON and from JSONL records", async () => {
    const obj = {
      format: "hierdoc-qrels",
      documents: [{ id: "D", aliases: ["doc"] }],
      passages: [{ doc: "D", id: "p1", text: PASSAGE }],
      queries: [{ id: "q", query: "who may carry on?", gold: [{ doc: "D", passage: "p1" }] }],
    };
    writeFileSync(join(dir, "q.json"), JSON.stringify(obj, null, 2));
    const lines = [
      { type: "header", format: "hierdoc-qrels" },
      { type: "document", id: "D", aliases: ["doc"] },
      { type: "passage", doc: "D", id: "p1", text: PASSAGE },
      { id: "q", query: "who may carry on?", gold: [{ doc: "D", passage: "p1" }] },
    ];
    writeFileSync(join(dir, "q.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const fromJson = await loadQrels(join(dir, "q.json"));
    const fromJsonl = await loadQrels(join(dir, "q.jsonl"));
    expect(fromJsonl).toEqual(fromJson);
    expect(fromJson.matching).toEqual({ mode: "text", minPassageChars: 40, probeChars: 300, minChunkChars: 80 });
  });

  it("a one-line JSONL qrels (a single query, gold by text) is read as JSONL", () => {
    const q = parseQrelsText(JSON.stringify({ id: "q", query: "x", gold: [{ doc: "D", text: PASSAGE }] }));
    expect(q.queries).toHaveLength(1);
    expect(q.passages).toEqual([]);
  });

  it("reports bad qrels with the JSON path or line", () => {
    expect(() => parseQrelsText(JSON.stringify({ queries: [{ id: "q", query: "x", gold: [{ doc: "D" }] }] }))).toThrow(/queries\[0\]\.gold\[0\]/);
    expect(() => parseQrelsText(JSON.stringify({ queries: [{ id: "q", query: "x", gold: [] }] }))).toThrow(/queries\[0\]\.gold/);
    expect(() => parseQrelsText('{"id":"q","query":"x","gold":[{"chunk":"c"}]}\n{oops', "f.jsonl")).toThrow(/f\.jsonl:2/);
    const dup = { queries: [1, 2].map(() => ({ id: "q", query: "x", gold: [{ chunk: "c" }] })) };
    expect(() => parseQrelsText(JSON.stringify(dup))).toThrow(/duplicate query id/);
  });

  it("a missing file is E_INPUT_NOT_FOUND", async () => {
    await expect(loadQrels(join(dir, "nope.json"))).rejects.toMatchObject({ code: "E_INPUT_NOT_FOUND" });
    await expect(readRunJsonl(join(dir, "nope.jsonl"))).rejects.toMatchObject({ code: "E_INPUT_NOT_FOUND" });
  });

  it("parses batch-search output: blank lines, no results, null results, later lines win, bad lines", () => {
    const run = parseRunJsonl('{"id":"a","results":[{"content":"x"}]}\n\n{"id":"b"}\n{"id":"c","results":null}\n{"id":"a","results":[]}\n');
    expect([...run.entries()]).toEqual([["a", []], ["b", []], ["c", null]]);
    expect(() => parseRunJsonl('{"id":"a"}\nnot json')).toThrow(expect.objectContaining({ code: "E_PARSE", details: { line: 2 } }));
    expect(() => parseRunJsonl('{"results":[]}')).toThrow(/line 1/);
  });

  it("converts an in-process SearchResult to the RESULT fields the evaluator reads", () => {
    const sr = { id: "c1", rank: 1, score: 0.5, content: PASSAGE, sourcePath: "/d/doc.txt", start: 3, end: 80, sectionId: "1.1" } as SearchResult;
    const q = parseQrelsText(
      JSON.stringify({ documents: [{ id: "D", aliases: ["doc"] }], queries: [{ id: "q", query: "x", gold: [{ doc: "D", text: PASSAGE }] }] }),
    );
    expect(toRunResult(sr)).toMatchObject({ source_path: "/d/doc.txt", start: 3, end: 80, section_id: "1.1" });
    expect(evaluateRun(q, [{ id: "q", results: [toRunResult(sr)] }]).metrics.recall).toBe(1);
  });

  it("formats a metrics table and per-query JSONL", () => {
    const q = parseQrelsText(JSON.stringify({ queries: [{ id: "q", query: "x", gold: [{ chunk: "c" }] }, { id: "r", query: "y", gold: [{ chunk: "d" }] }] }));
    const report = evaluateRun(q, [{ id: "q", results: [{ id: "z" }, { id: "c" }] }]);
    const table = formatMetricsTable(report.metrics);
    expect(table).toMatch(/^recall@10\s+0\.5000$/m);
    expect(table).toMatch(/^mrr@10\s+0\.2500$/m);
    expect(table).toMatch(/^missing\s+1$/m);
    const lines = formatPerQueryJsonl(report.perQuery).trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.id, l.firstHitRank, l.missing])).toEqual([["q", 2, false], ["r", null, true]]);
  });
});
