// hierdoc's own work per query, on top of whatever engine answers the dense / BM25 / hybrid query (issue 16):
//   node tools/bench/dist/client-cost-bench.js [--work DIR] [--queries N] [--warmup N]
// Over the ObliQA dev documents (built by `hierdoc ingest` into $WORK/idx-obliqa: memory store, GloVe, BM25, exact
// index — the same index ranker-bench uses), each ObliQA dev question is timed stage by stage in this process:
//   embed     GloVe `embedQuery` (an API embedder's cost is the provider's network round trip instead)
//   exact     the exact-id leg (`--mode exact`: section ids and titles; stays on the client with any store)
//   fusion    convex fusion of the legs + exact lift (the router's own timer; a native-hybrid engine fuses itself)
//   rerank    the rerank stage on 50 fused candidates: lexical and learned compute (records already fetched;
//             the two alternate which goes first, since the second finds the first's stems of the same chunks cached)
//   attach    records → results with definitions, cross-references and section paths (`attach`, memory-store get included)
//   json      the CLI's JSON contract (`responseJson`) serialised
// and, for reference, the in-process engine legs (memory store brute-force dense, BM25) and the whole hybrid search.
// Prints p50 / p95 / mean per stage as a markdown table and writes $WORK/client-cost.json.
import { existsSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { RerankCandidate, Reranker } from "@hierdoc/core";
import { loadQrels } from "@hierdoc/eval";
import { LearnedReranker, LexicalReranker, candidateFromResult } from "@hierdoc/rerank";
import { openIndex, responseJson } from "@hierdoc/runtime";
import { timed } from "./exec.js";
import { fmt, markdownTable } from "./markdown.js";
import { machineInfo } from "./machine.js";
import { summarize, type LatencySummary } from "./stats.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../../..");
const corpora = resolve(root, "../shared/corpora");
const argv = process.argv.slice(2);
const arg = (name: string, dflt: string): string => (argv.indexOf(name) >= 0 ? argv[argv.indexOf(name) + 1] : dflt);
const work = resolve(arg("--work", "/tmp/hierdoc-bench"));
const limit = Number(arg("--queries", "300"));
const warmup = Number(arg("--warmup", "20"));
const q = (f: string): string => join(work, f);
const log = (m: string): void => {
  process.stderr.write(`[client-cost ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
};

/** Stage name → what it covers, in table order. */
const STAGES: Array<[string, string]> = [
  ["embed", "query embedding (GloVe, in process)"],
  ["exact", "exact-id leg (ids, titles)"],
  ["fusion", "fusion + exact lift (fallback route only)"],
  ["rerank_lexical", "rerank, lexical, 50 candidates"],
  ["rerank_learned", "rerank, learned, 50 candidates"],
  ["attach", "attach definitions / cross-references / paths"],
  ["json", "JSON contract, serialised"],
  ["engine_semantic", "engine: dense leg (memory store, exact scan)"],
  ["engine_keyword", "engine: BM25 leg (in-process)"],
  ["hybrid_total", "whole hybrid search, configured reranker"],
];

/** Builds what is missing (qrels, the ObliQA index), then times the stages. */
async function main(): Promise<void> {
  const started = new Date();
  const machine = machineInfo();
  if (!existsSync(q("obliqa.queries.jsonl"))) {
    log("ObliQA qrels");
    timed("node", [join(root, "tools/qrels/dist/cli.js"), "obliqa", "--corpus", join(corpora, "obliqa"), "--out", q("obliqa.qrels.json"), "--queries", q("obliqa.queries.jsonl")], root);
  }
  if (!existsSync(q("idx-obliqa/hierdoc.json"))) {
    log("ObliQA index (hierdoc ingest)");
    timed("node", [join(root, "apps/cli/bin/hierdoc.js"), "ingest", join(corpora, "obliqa/StandardizedRegulatoryDocumentsTXT"), "--index", q("idx-obliqa"), "--quiet"], root);
  }
  const qrels = await loadQrels(q("obliqa.qrels.json"));
  const tool = await openIndex({ index: q("idx-obliqa") }, { mustExist: true, env: (n) => process.env[n] });
  const chunks = (await tool.stats()).chunks;
  const rerankers: Record<string, Reranker> = { rerank_lexical: new LexicalReranker(), rerank_learned: new LearnedReranker() };
  const times: Record<string, number[]> = Object.fromEntries(STAGES.map(([s]) => [s, []]));
  const queries = qrels.queries.slice(0, warmup + limit);
  log(`${chunks} chunks; ${warmup} warm-up + ${queries.length - warmup} timed queries`);
  try {
    for (const [i, { query }] of queries.entries()) {
      const keep = i >= warmup;
      const add = (stage: string, ms: number | undefined): void => {
        if (keep && ms !== undefined) times[stage].push(ms);
      };
      let t = performance.now();
      await tool.embedder.embedQuery(query);
      add("embed", performance.now() - t);
      add("exact", (await tool.search(query, { mode: "exact", topK: 50 })).timingsMs.exact);
      add("engine_semantic", (await tool.search(query, { mode: "semantic", topK: 50 })).timingsMs.semantic);
      add("engine_keyword", (await tool.search(query, { mode: "keyword", topK: 50 })).timingsMs.keyword);
      // The fused top 50 without the stage: the candidates every reranker sees.
      const fused = await tool.search(query, { mode: "hybrid", topK: 50, rerank: false });
      add("fusion", fused.timingsMs.fusion);
      const cands: RerankCandidate[] = fused.results.map((r, rank) => candidateFromResult(r, rank + 1));
      // Alternating order: the second reranker of a query would find the first one's per-chunk stems cached.
      const order = Object.entries(rerankers);
      for (const [stage, rr] of i % 2 === 0 ? order : order.reverse()) {
        t = performance.now();
        await rr.rerank(query, cands, 10);
        add(stage, performance.now() - t);
      }
      t = performance.now();
      const res = await tool.search(query, { mode: "hybrid", topK: 10 });
      add("hybrid_total", performance.now() - t);
      add("attach", res.timingsMs.attach);
      t = performance.now();
      JSON.stringify(responseJson(query, "hybrid", res));
      add("json", performance.now() - t);
    }
  } finally {
    await tool.close();
  }
  const stats: Record<string, LatencySummary> = Object.fromEntries(STAGES.map(([s]) => [s, summarize(times[s])]));
  const command = `node tools/bench/dist/client-cost-bench.js --work ${work} --queries ${limit} --warmup ${warmup}`;
  const out = { started: started.toISOString(), finished: new Date().toISOString(), machine, loadAtEnd: loadavg(), chunks, timed: queries.length - warmup, command, stats };
  writeFileSync(q("client-cost.json"), JSON.stringify(out, null, 2));
  const rows = STAGES.map(([s, what]) => [what, String(stats[s].n), fmt(stats[s].p50, 3), fmt(stats[s].p95, 3), fmt(stats[s].mean, 3)]);
  process.stdout.write(
    [
      `\`${command}\` — ${out.started.slice(0, 16).replace("T", " ")} UTC, ${machine.cores} × ${machine.cpuModel}, Node ${machine.node}, load average ${machine.loadAverage.map((x) => x.toFixed(2)).join(" / ")} at start, ${out.loadAtEnd.map((x) => x.toFixed(2)).join(" / ")} at end; ObliQA dev documents, ${chunks} chunks, ${out.timed} ObliQA dev questions (after ${warmup} warm-up).`,
      "",
      markdownTable(["stage", "n", "p50 ms", "p95 ms", "mean ms"], rows, ["left", "right", "right", "right", "right"]),
      "",
    ].join("\n"),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
