#!/usr/bin/env node
import { parseArgs } from "node:util";
import { evaluateRun, formatMetricsTable, formatPerQueryJsonl, loadQrels, readRunJsonl, toScorerJson, type Qrels } from "@hierdoc/eval";
import { isHierdocError } from "@hierdoc/core";
import { loadObliqaQrels, loadPolicyqa, writePolicyDocuments, writeText } from "./files.js";
import { queriesJsonl } from "./python-json.js";

const USAGE = `usage:
  hierdoc-qrels obliqa --corpus DIR --out QRELS.json [--questions FILE] [--queries OUT.jsonl]
  hierdoc-qrels policyqa --input dev.json --docs-dir DIR --out QRELS.json [--queries OUT.jsonl] [--mode text|span]
  hierdoc-qrels queries QRELS.json OUT.jsonl
  hierdoc-qrels score QRELS.json RUN.jsonl [--k 10] [--per-query OUT.jsonl] [--json | --scorer-json]`;

async function writeQrels(qrels: Qrels, out: string, queries?: string): Promise<void> {
  await writeText(out, JSON.stringify(qrels) + "\n");
  if (queries) await writeText(queries, queriesJsonl(qrels.queries));
  process.stderr.write(`${qrels.queries.length} queries, ${qrels.documents.length} documents, ${qrels.passages.length} passages -> ${out}\n`);
}

async function main(argv: string[]): Promise<void> {
  const { values: o, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      corpus: { type: "string" }, questions: { type: "string" }, input: { type: "string" }, "docs-dir": { type: "string" },
      out: { type: "string" }, queries: { type: "string" }, mode: { type: "string" }, k: { type: "string" },
      "per-query": { type: "string" }, json: { type: "boolean" }, "scorer-json": { type: "boolean" }, help: { type: "boolean" },
    },
  });
  const [command, a, b] = positionals;
  if (o.help || !command) {
    process.stdout.write(USAGE + "\n");
    return;
  }
  if (command === "obliqa" && o.corpus && o.out) {
    await writeQrels(await loadObliqaQrels(o.corpus, o.questions), o.out, o.queries);
  } else if (command === "policyqa" && o.input && o["docs-dir"] && o.out) {
    if (o.mode !== undefined && o.mode !== "text" && o.mode !== "span") throw new Error("--mode must be text or span");
    const conversion = await loadPolicyqa(o.input, { mode: o.mode as "text" | "span" | undefined });
    const paths = await writePolicyDocuments(conversion, o["docs-dir"]);
    process.stderr.write(`${paths.length} policy documents -> ${o["docs-dir"]}\n`);
    await writeQrels(conversion.qrels, o.out, o.queries);
  } else if (command === "queries" && a && b) {
    await writeText(b, queriesJsonl((await loadQrels(a)).queries));
  } else if (command === "score" && a && b) {
    const report = evaluateRun(await loadQrels(a), await readRunJsonl(b), { k: o.k ? Number(o.k) : 10 });
    if (o["per-query"]) await writeText(o["per-query"], formatPerQueryJsonl(report.perQuery));
    if (o["scorer-json"]) process.stdout.write(JSON.stringify(toScorerJson(report.metrics)) + "\n");
    else if (o.json) process.stdout.write(JSON.stringify(report.metrics) + "\n");
    else process.stdout.write(formatMetricsTable(report.metrics) + "\n");
  } else {
    process.stderr.write(USAGE + "\n");
    process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const message = isHierdocError(err) ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
  process.stderr.write(`hierdoc-qrels: ${message}\n`);
  process.exitCode = 1;
});
