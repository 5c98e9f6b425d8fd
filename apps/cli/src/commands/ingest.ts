import { ConverterLimitsConfigSchema, HierdocError, isHierdocError, type ConverterLimitsConfig } from "@hierdoc/core";
import { addContextUsage, isLlmContextGenerator, type ContextUsage } from "@hierdoc/contextualizer";
import { ingestJson } from "@hierdoc/runtime";
import { describeSkipped, summarizeSkipped, type IngestReport } from "@hierdoc/tool";
import { join } from "node:path";
import { ExitCode } from "../exit-codes.js";
import { errorJson } from "../format.js";
import { err, ms, out } from "../io.js";
import { createProgress } from "../progress.js";
import { indexDirOf, openTool, resolveConfig, type IndexOptions } from "../runtime.js";

/** Options of `hierdoc ingest`. */
export interface IngestCommandOptions extends IndexOptions {
  json?: boolean;
  force?: boolean;
  quiet?: boolean;
  /** Globs of extra text files folders and globs take (repeatable `--include`). */
  include?: string[];
  /** Globs of files folders and globs leave out (repeatable `--exclude`). */
  exclude?: string[];
  workers?: string;
  maxFileMb?: string;
  maxPages?: string;
  maxZipInflatedMb?: string;
  maxXmlEntities?: string;
  timeoutSeconds?: string;
  maxMemoryMb?: string;
}

/** `--max-file-mb` … flags → `limits` keys, validated with the config schema (a bad value is a usage error naming the flag). */
const LIMIT_FLAGS = {
  maxFileMb: ["max_file_mb", "--max-file-mb"],
  maxPages: ["max_pages", "--max-pages"],
  maxZipInflatedMb: ["max_zip_inflated_mb", "--max-zip-inflated-mb"],
  maxXmlEntities: ["max_xml_entities", "--max-xml-entities"],
  timeoutSeconds: ["timeout_seconds", "--timeout-seconds"],
  maxMemoryMb: ["max_memory_mb", "--max-memory-mb"],
} as const;

function limitsFromFlags(opts: IngestCommandOptions, base: ConverterLimitsConfig): ConverterLimitsConfig {
  const limits: Record<string, unknown> = { ...base };
  for (const [key, [name, flag]] of Object.entries(LIMIT_FLAGS)) {
    const raw = opts[key as keyof typeof LIMIT_FLAGS];
    if (raw !== undefined) limits[name] = numberFlag(flag, raw);
  }
  const parsed = ConverterLimitsConfigSchema.safeParse(limits);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = Object.values(LIMIT_FLAGS).find(([name]) => name === issue.path[0])?.[1] ?? String(issue.path[0]);
    throw new HierdocError("E_INVALID_ARGUMENT", `${flag}: ${issue.message}`);
  }
  return parsed.data;
}

function numberFlag(flag: string, raw: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n)) throw new HierdocError("E_INVALID_ARGUMENT", `${flag} needs a number (got "${raw}")`);
  return n;
}

function workersFlag(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = numberFlag("--workers", raw);
  if (!Number.isInteger(n) || n < 0 || n > 64) throw new HierdocError("E_INVALID_ARGUMENT", `--workers must be an integer from 0 to 64 (got ${raw})`);
  return n;
}

/**
 * `hierdoc ingest PATH...`: incremental ingest; prints a summary with the files left out and why; exit 3
 * when some files failed, 5 when folders or globs held files but none was ingested (all skipped).
 */
export async function ingestCommand(paths: string[], opts: IngestCommandOptions): Promise<number> {
  const config = resolveConfig(opts, paths);
  const sources = paths.length > 0 ? paths : Array.isArray(config.source) ? config.source : [config.source];
  const limits = limitsFromFlags(opts, config.limits);
  const workers = workersFlag(opts.workers);
  const t0 = performance.now();
  const tool = await openTool(opts, {
    mustExist: false,
    sources,
    onWarning: (m) => err(`warning: ${m}`),
    onProgress: opts.quiet ? undefined : (m) => err(m),
  });
  const progress = createProgress({ quiet: Boolean(opts.quiet) });
  const stop = stopOnInterrupt();
  let report: IngestReport;
  try {
    report = await tool.ingest(sources, {
      onProgress: (e) => progress.update(e),
      force: opts.force,
      signal: stop.signal,
      include: opts.include,
      exclude: opts.exclude,
      limits,
      workers,
    });
  } catch (error) {
    if (isHierdocError(error, "E_CANCELLED")) {
      await tool.close();
      error.message = "ingest interrupted: files finished before the interrupt are saved; run the same command again to continue";
    }
    throw error;
  } finally {
    progress.stop();
    stop.dispose();
  }
  let usage: ContextUsage | undefined;
  if (isLlmContextGenerator(tool.contextGenerator)) {
    usage = tool.contextGenerator.usage();
    await addContextUsage(join(indexDirOf(opts), "contexts"), usage);
  }
  await tool.close();
  const elapsed = performance.now() - t0;
  const failed = report.files.filter((f) => f.outcome === "failed");
  for (const f of failed) err(`error: ${f.error?.message ?? f.sourcePath}`);
  if (opts.json) {
    await out(
      JSON.stringify({
        index: indexDirOf(opts),
        files: report.files.map((f) => ({
          source_path: f.sourcePath,
          outcome: f.outcome,
          chunks: f.chunks,
          tokens: f.tokens,
          bytes: f.bytes,
          ...(f.error ? { error: errorJson(f.error) } : {}),
        })),
        skipped: ingestJson(report).skipped,
        chunks_written: report.chunksWritten,
        chunks_deleted: report.chunksDeleted,
        total_chunks: report.totalChunks,
        tokens: report.tokens,
        bytes: report.bytes,
        context_failures: report.contextFailures,
        ...(usage ? { llm_usage: usage } : {}),
        timings_ms: Object.fromEntries(Object.entries({ ...report.timingsMs, open: tool.openMs, total: elapsed }).map(([k, v]) => [k, Math.round(v)])),
      }) + "\n",
    );
  } else {
    await out(summary(report, elapsed, indexDirOf(opts)) + (usage ? usageLine(usage) : ""));
  }
  if (failed.length > 0) return ExitCode.partial;
  if (nothingTaken(report)) {
    err(
      `error: nothing was ingested: every one of the ${report.skipped.length} file(s) found was skipped (see "skipped" above). ` +
        "Name files explicitly, or add --include GLOB for text files of other extensions.",
    );
    return ExitCode.nothingIngested;
  }
  return ExitCode.ok;
}

/** True when folders or globs held files but not one of them was taken (added, updated, unchanged or failed). */
function nothingTaken(r: IngestReport): boolean {
  return r.skipped.length > 0 && !r.files.some((f) => f.outcome !== "removed");
}

function summary(r: IngestReport, elapsedMs: number, indexDir: string): string {
  const count = (o: string) => r.files.filter((f) => f.outcome === o).length;
  const lines = [
    `ingested into ${indexDir}: ${count("added")} added, ${count("updated")} updated, ${count("unchanged")} unchanged, ${count("removed")} removed, ${count("failed")} failed`,
    `chunks: ${r.chunksWritten} written, ${r.chunksDeleted} deleted, ${r.totalChunks} in the index; ${r.tokens} tokens, ${(r.bytes / 1e6).toFixed(2)} MB`,
    `time: ${ms(elapsedMs)} total — ${Object.entries(r.timingsMs)
      .filter(([, v]) => v >= 0.5)
      .map(([k, v]) => `${k} ${ms(v)}`)
      .join(", ")}`,
  ];
  lines.splice(1, 0, ...describeSkipped(summarizeSkipped(r.skipped)));
  if (r.contextFailures > 0) lines.push(`contexts: ${r.contextFailures} chunk(s) indexed without context; they are retried on the next ingest`);
  return lines.join("\n") + "\n";
}

function usageLine(u: ContextUsage): string {
  const lines = u.models.map(
    (m) =>
      `llm ${m.model}: ${m.requests} calls (${m.cachedContexts} contexts from cache, ${m.failures} failed, ${m.retries} retries); tokens in ${m.inputTokens}, cache write ${m.cacheCreationInputTokens}, cache read ${m.cacheReadInputTokens}, out ${m.outputTokens}${m.costUsd == null ? "" : `; ≈ $${m.costUsd.toFixed(4)}`}`,
  );
  return lines.join("\n") + (lines.length ? "\n" : "");
}

/**
 * First Ctrl-C (SIGINT) or SIGTERM: stop after the current batch, keeping finished files; a second Ctrl-C
 * quits at once (exit 130) — the index stays consistent, the current file is redone next time.
 */
function stopOnInterrupt(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(ExitCode.cancelled);
    err("stopping after the current batch; files finished so far are kept (Ctrl-C again to quit now)");
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
