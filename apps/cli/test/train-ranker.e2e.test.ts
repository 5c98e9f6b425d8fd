import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SAMPLE, runCli } from "./run-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "hierdoc-train-ranker-"));
const index = join(tmp, "index");
const model = join(tmp, "ranker.json");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** An agent.yaml over the sample corpus with the given rerank block. */
function agentYaml(name: string, rerank: string): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(file, `tools:\n  - name: sample\n    type: hierarchical_document\n    source: ${JSON.stringify(SAMPLE)}\n    rerank: ${rerank}\n`);
  return file;
}

interface Hit {
  id: string;
  rank: number;
  content: string;
}

async function search(config: string, query: string): Promise<Hit[]> {
  const res = await runCli(["search", query, "--index", index, "--config", config, "--tool", "sample", "--top-k", "10", "--json"]);
  expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: "" });
  const body = JSON.parse(res.stdout) as { results?: Hit[] } | Hit[];
  return Array.isArray(body) ? body : (body.results ?? []);
}

const QUERIES = [
  "penalty for late filing",
  "who may access personal data held by the harbour authority",
  "pump maintenance schedule and inspection",
  "rules for garden plot holders",
  "how long may records be retained",
  "duties of the data controller",
  "emergency shutdown of the pump station",
  "fees and charges payable",
];

describe("hierdoc train-ranker (built binary, sample corpus, real GloVe embedder)", () => {
  const fused = agentYaml("fused", "{ provider: none }");
  const learned = agentYaml("learned", `{ provider: learned, model_path: ${JSON.stringify(model)} }`);
  // Gold, per question: the longest passage among its fused top 10. The rule is one the features can express
  // (chunk length) and the fused order ignores, so a model trained on it must lift those passages.
  const gold = new Map<string, { id: string; fusedRank: number }>();

  beforeAll(async () => {
    const res = await runCli(["ingest", "--config", fused, "--tool", "sample", "--index", index, "--quiet"], { timeoutMs: 300_000 });
    expect({ code: res.code, stderr: res.stderr, manifest: existsSync(join(index, "hierdoc.json")) }).toEqual({ code: 0, stderr: "", manifest: true });
    for (const q of QUERIES) {
      const hits = await search(fused, q);
      const longest = [...hits].sort((a, b) => b.content.length - a.content.length || a.rank - b.rank)[0];
      gold.set(q, { id: longest.id, fusedRank: longest.rank });
    }
    const qrels = {
      format: "hierdoc-qrels",
      version: 1,
      name: "sample longest passages",
      queries: QUERIES.map((q, i) => ({ id: `q${i}`, query: q, gold: [{ chunk: gold.get(q)!.id }] })),
    };
    writeFileSync(join(tmp, "qrels.json"), JSON.stringify(qrels));
  }, 600_000);

  it("trains, reports cross-validated metrics before/after, and writes a model the learned reranker uses", async () => {
    // The gold passages are not all at rank 1 already: otherwise the test could not fail.
    expect([...gold.values()].filter((g) => g.fusedRank > 1).length).toBeGreaterThanOrEqual(3);
    const res = await runCli(
      ["train-ranker", "--qrels", join(tmp, "qrels.json"), "--index", index, "--out", model, "--folds", "2", "--candidates", "10", "--kind", "linear", "--json"],
      { timeoutMs: 300_000 },
    );
    expect({ code: res.code, stderr: res.stderr }).toMatchObject({ code: 0, stderr: expect.stringContaining("8 queries") });
    const report = JSON.parse(res.stdout) as { folds: number; fused: { mrr: number }; learned: { mrr: number } };
    expect(report.folds).toBe(2);
    // Held-out questions (2 folds): the learned order finds the longest passage earlier than fusion.
    expect(report.learned.mrr).toBeGreaterThan(report.fused.mrr);
    const written = JSON.parse(readFileSync(model, "utf8")) as { format: string; kind: string; features: string[]; weights: number[] };
    expect(written).toMatchObject({ format: "hierdoc-ranker", version: 1, kind: "linear" });
    expect(written.weights[written.features.indexOf("length")]).toBeGreaterThan(0);

    // Through `rerank: {provider: learned, model_path}`: no gold passage falls, most of those below rank 1 rise.
    const moves: Array<[string, number, number]> = [];
    for (const q of QUERIES) {
      const g = gold.get(q)!;
      moves.push([q, g.fusedRank, (await search(learned, q)).find((h) => h.id === g.id)?.rank ?? 99]);
    }
    for (const [q, before, after] of moves) expect({ q, after: after <= before }).toEqual({ q, after: true });
    const below = moves.filter(([, before]) => before > 1);
    expect(below.filter(([, before, after]) => after < before).length).toBeGreaterThanOrEqual(Math.ceil(below.length / 2));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(moves.map((m) => m[2]))).toBeLessThan(mean(moves.map((m) => m[1])) - 0.5);
  }, 600_000);

  it("fails with E_CONFIG naming the file when model_path is not a ranker model", async () => {
    const badModel = join(tmp, "bad.json");
    writeFileSync(badModel, JSON.stringify({ format: "hierdoc-ranker", version: 1, kind: "linear", features: ["coverage", "nope"], mean: [0, 0], scale: [1, 1], weights: [1, 1] }));
    const bad = agentYaml("bad", `{ provider: learned, model_path: ${JSON.stringify(badModel)} }`);
    const res = await runCli(["search", "fees", "--index", index, "--config", bad, "--tool", "sample"]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("bad.json");
    expect(res.stderr).toContain("features[1]");
    expect(res.stderr).toContain("E_CONFIG");
  }, 120_000);

  it("--cache writes the candidates line by line and a second run reads them instead of the index", async () => {
    const cache = join(tmp, "cands.jsonl");
    const args = (idx: string) => ["train-ranker", "--qrels", join(tmp, "qrels.json"), "--index", idx, "--out", join(tmp, "cached.json"), "--folds", "2", "--candidates", "10", "--kind", "linear", "--cache", cache, "--json"];
    const first = await runCli(args(index), { timeoutMs: 300_000 });
    expect(first.code).toBe(0);
    const lines = readFileSync(cache, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { format?: string; candidates: unknown });
    expect(lines[0]).toMatchObject({ format: "hierdoc-ranker-candidates", queries: QUERIES.length, candidates: 10 });
    expect(lines.length).toBe(1 + QUERIES.length);
    // No index at all: only the cache can supply the candidates, and the report is the same.
    const second = await runCli(args(join(tmp, "no-such-index")), { timeoutMs: 300_000 });
    expect({ code: second.code }).toEqual({ code: 0 });
    const strip = (s: string) => {
      const { seconds: _s, ...rest } = JSON.parse(s) as Record<string, unknown>;
      return rest;
    };
    expect(strip(second.stdout)).toEqual(strip(first.stdout));
  }, 600_000);

  it("rejects a missing --out with a usage error", async () => {
    const res = await runCli(["train-ranker", "--qrels", join(tmp, "qrels.json"), "--index", index]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("--out");
  });
});
