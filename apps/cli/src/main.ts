import { Command, CommanderError, Option } from "commander";
import { isHierdocError } from "@hierdoc/core";
import { errorJson } from "./error-json.js";
import { ExitCode, exitCodeFor } from "./exit-codes.js";
import { err } from "./io.js";
import { startTelemetry, type Telemetry } from "./telemetry.js";

const collect = (v: string, prev: string[] = []) => [...prev, v];

/**
 * Command modules, loaded when their command runs: `--help`, `--version` and usage errors load none of them,
 * and each command loads only its own dependencies (the index runtime, eval, the progress bar, the server).
 */
const commands = {
  eval: () => import("./commands/eval.js"),
  ingest: () => import("./commands/ingest.js"),
  inspect: () => import("./commands/inspect.js"),
  lookup: () => import("./commands/lookup.js"),
  search: () => import("./commands/search.js"),
  serve: () => import("./commands/serve.js"),
  trainRanker: () => import("./commands/train-ranker.js"),
};

/** Builds the `hierdoc` program; each action stores its exit code in `result.code`. */
export function buildProgram(result: { code: number }): Command {
  const program = new Command("hierdoc")
    .description("Retrieval over long, structured documents: ingest, search, sections, definitions, references.")
    .version("0.1.0")
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s), writeOut: (s) => process.stdout.write(s) });

  const indexOpt = () => new Option("--index <dir>", "index folder (default ./.hierdoc)");
  const configOpts = (cmd: Command) =>
    cmd
      .option("--config <file>", "agent.yaml with a hierarchical_document tool entry")
      .option("--tool <name>", "tool name in the agent.yaml")
      .option("--verbose", "print on stderr how the index opened (derived state, keyword index, store graph: loaded or rebuilt, and why)");
  const otelOpt = () => new Option("--otel [url]", "export OpenTelemetry traces to an OTLP/HTTP endpoint (default $OTEL_EXPORTER_OTLP_ENDPOINT or http://localhost:4318)");
  const run = (fn: (...args: never[]) => Promise<number>) =>
    async (...args: unknown[]) => {
      const opts = args.find((a) => a && typeof a === "object" && !Array.isArray(a) && !(a instanceof Command)) as { otel?: string | boolean } | undefined;
      const telemetry: Telemetry | undefined = opts?.otel ? await startTelemetry(opts.otel, (name) => process.env[name]) : undefined;
      try {
        result.code = await (fn as (...a: unknown[]) => Promise<number>)(...args);
      } finally {
        await telemetry?.shutdown().catch((e: Error) => err(`warning: could not export traces: ${e.message}`));
      }
    };

  configOpts(
    program
      .command("ingest")
      .description("ingest files, folders or globs into the index (incremental: unchanged files are skipped)")
      .argument("[paths...]", "files, folders or globs (default: the config's source)")
      .addOption(indexOpt())
      .option("--force", "re-ingest files even when unchanged")
      .option("--quiet", "no progress output")
      .option("--json", "print the summary as JSON")
      .option("--include <glob>", "also ingest text files matching the glob under folders (any extension; repeatable)", collect)
      .option("--exclude <glob>", "leave out files matching the glob under folders and globs (repeatable)", collect)
      .option("--workers <n>", "worker threads converting, parsing and (with an offline embedder) embedding files (default min(cores - 1, 4), at least 1; 0 = in the main thread, no caps)")
      .option("--max-file-mb <mb>", "largest input file (default 64)")
      .option("--max-pages <n>", "most pages read from one PDF (default 10000)")
      .option("--max-zip-inflated-mb <mb>", "largest inflated size of a DOCX/PPTX/XLSX/EPUB/ODT (default 256)")
      .option("--max-xml-entities <n>", "most entity declarations in an XML DOCTYPE (default 256)")
      .option("--timeout-seconds <s>", "longest conversion of one file before its worker is stopped (default 120)")
      .option("--max-memory-mb <mb>", "heap cap of an ingest worker (default 1024)")
      .addOption(otelOpt()),
  ).action(run(async (paths: string[], opts: object) => (await commands.ingest()).ingestCommand(paths, opts)));

  configOpts(
    program
      .command("search")
      .description("search the index (one QUERY, or --queries FILE.jsonl for many in one process)")
      .argument("[query]", "the query")
      .addOption(indexOpt())
      .option("--top-k <n>", "number of results, 1–100 (default 10)")
      .addOption(new Option("--mode <mode>", "retrieval mode").choices(["hybrid", "semantic", "keyword", "exact"]).default("hybrid"))
      .option("--queries <file>", 'JSON lines {"id": "...", "query": "..."}; writes one JSON line per query')
      .option("--source <glob>", "only results from sources matching the glob (repeatable)", collect)
      .option("--section-prefix <prefix>", "only results whose section id starts with the prefix")
      .option("--type <chunk-type>", "only results of this chunk type (definition, requirement, content, header; repeatable)", collect)
      .option("--json", "print results as JSON")
      .addOption(otelOpt()),
  ).action(run(async (query: string | undefined, opts: object) => (await commands.search()).searchCommand(query, opts)));

  program
    .command("inspect")
    .description("show how a document is understood (sections, chunks, definitions, references); indexes nothing")
    .argument("<file>", "the document")
    .option("--max-chunk-tokens <n>", "chunk size limit (default 800)")
    .option("--json", "print JSON")
    .action(run(async (file: string, opts: object) => (await commands.inspect()).inspectCommand(file, opts)));

  configOpts(program.command("section").description("print a section by id or alias (e.g. \"Article 17\", \"§ 478.11\", \"9.3.1\")").argument("<id>").addOption(indexOpt()).option("--json", "print JSON")).action(
    run(async (id: string, opts: object) => (await commands.lookup()).sectionCommand(id, opts)),
  );
  configOpts(
    program.command("define").description("look up a defined term, or list them all with --list").argument("[term]").addOption(indexOpt()).option("--list", "list every defined term").option("--json", "print JSON"),
  ).action(run(async (term: string | undefined, opts: object) => (await commands.lookup()).defineCommand(term, opts)));
  configOpts(program.command("refs").description("outgoing and incoming cross-references of a section").argument("<id>").addOption(indexOpt()).option("--json", "print JSON")).action(
    run(async (id: string, opts: object) => (await commands.lookup()).refsCommand(id, opts)),
  );
  configOpts(program.command("stats").description("what the index holds").addOption(indexOpt()).option("--json", "print JSON")).action(run(async (opts: object) => (await commands.lookup()).statsCommand(opts)));
  configOpts(
    program
      .command("eval")
      .description("score the index against qrels (passage-projected Recall@k, MAP, MRR, nDCG), all queries in one process")
      .requiredOption("--qrels <file>", "hierdoc-qrels JSON (see tools/qrels)")
      .addOption(indexOpt())
      .option("--k <n>", "cut-off and passage budget (default 10)")
      .addOption(new Option("--mode <mode>", "retrieval mode").choices(["hybrid", "semantic", "keyword", "exact"]).default("hybrid"))
      .option("--per-query <file>", "write one JSON line per query for error analysis")
      .option("--json", "print the metrics as JSON")
      .addOption(otelOpt()),
  ).action(run(async (opts: object) => (await commands.eval()).evalCommand(opts)));
  configOpts(
    program
      .command("train-ranker")
      .description("train the learned reranker on your questions and gold (qrels), reporting cross-validated metrics before/after")
      .requiredOption("--qrels <file>", "hierdoc-qrels JSON (the format `hierdoc eval` reads)")
      .requiredOption("--out <file>", "the ranker JSON to write (use it with rerank: {provider: learned, model_path: FILE})")
      .addOption(indexOpt())
      .option("--folds <k>", "cross-validation folds, by question (default 5)")
      .option("--candidates <n>", "fused candidates per query, as the rerank stage's `candidates` (default 50)")
      .addOption(new Option("--kind <kind>", "model").choices(["trees", "linear"]).default("trees"))
      .option("--trees <n>", "boosting rounds of the trees model (default 200)")
      .option("--k <n>", "metric cut-off, also the rank the trees optimise NDCG up to (default 10)")
      .option("--cache <file>", "reuse (or write) the collected candidates, for repeated runs")
      .option("--json", "print the metrics as JSON"),
  ).action(run(async (opts: object) => (await commands.trainRanker()).trainRankerCommand(opts)));
  configOpts(
    program
      .command("serve")
      .description("serve the index over HTTP (JSON API + MCP at /mcp), or over stdio with --mcp; ingest needs HIERDOC_SERVER_TOKEN; reloads within ~1 s after another process ingests into the index")
      .addOption(indexOpt())
      .option("--port <port>", "HTTP port (default 8787; 0 picks a free one)")
      .option("--host <host>", "listen address (default 127.0.0.1)")
      .option("--mcp", "serve MCP on stdin/stdout instead of HTTP")
      .option("--ingest-root <dir>", "folder POST /ingest may read from (repeatable)", collect)
      .option("--cors-origin <origin>", "allow this browser origin (repeatable; CORS is off by default)", collect),
  ).action(run(async (opts: object) => (await commands.serve()).serveCommand(opts)));
  return program;
}

/** Runs the CLI with `argv` (as process.argv) and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const result = { code: ExitCode.ok as number };
  const program = buildProgram(result);
  const json = argv.includes("--json");
  try {
    await program.parseAsync(argv);
    return result.code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return ExitCode.ok;
      return ExitCode.usage;
    }
    if (json) err(JSON.stringify({ error: errorJson(e as Error) }));
    else err(`hierdoc: ${(e as Error).message}${isHierdocError(e) ? ` [${e.code}]` : ""}`);
    if (process.env.HIERDOC_DEBUG && e instanceof Error) err(e.stack ?? "");
    return exitCodeFor(e);
  }
}
