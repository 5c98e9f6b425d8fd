import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** Repository root. */
export const REPO = resolve(here, "../../..");
/** The built CLI entry (`npm test` builds before running tests). */
export const BIN = resolve(REPO, "apps/cli/bin/hierdoc.js");
/** The sample corpus shipped with the repository. */
export const SAMPLE = resolve(REPO, "examples/sample-corpus");
/** The shared real corpora (absent on some machines). */
export const CORPORA = resolve(REPO, "../shared/corpora");

/** Result of one CLI run, with the child's peak resident set size when it could be read. */
export interface CliRun {
  code: number;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** Peak RSS in bytes (VmHWM from /proc, sampled every 50 ms and at exit); 0 when not readable. */
  peakRssBytes: number;
}

/** Options of {@link runCli} and {@link startCli}. */
export interface CliOptions {
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Peak RSS (VmHWM) of a live process in bytes, or 0 when /proc is unavailable. */
export function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** A started CLI process and the promise of its result. */
export interface StartedCli {
  child: ChildProcess;
  done: Promise<CliRun>;
  /** Output so far (stdout + stderr). */
  output(): string;
}

/** CLI processes started by this module that have not closed yet, with their close promise. */
const live = new Map<ChildProcess, Promise<unknown>>();

/**
 * SIGKILLs every CLI process started by {@link startCli} / {@link runCli} that is still running and waits
 * until each has closed (its timers are cleared then). Call it in `afterAll`: a test that fails or times
 * out while awaiting a run would otherwise leave the child (and its kill timer) keeping Jest alive.
 */
export async function stopAllClis(): Promise<void> {
  const pending = [...live.entries()];
  for (const [child] of pending) child.kill("SIGKILL");
  await Promise.all(pending.map(([, closed]) => closed));
}

/** Starts `hierdoc ARGS` as a subprocess (no NODE_OPTIONS inherited from Jest); kills it after `timeoutMs`. */
export function startCli(args: string[], options: CliOptions = {}): StartedCli {
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? REPO,
    env: { ...process.env, ...options.env, NODE_OPTIONS: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let peak = 0;
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const sample = () => {
    if (child.pid) peak = Math.max(peak, peakRss(child.pid));
  };
  const sampler = setInterval(sample, 50);
  const done = new Promise<CliRun>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`hierdoc ${args.join(" ")} timed out after ${options.timeoutMs ?? 120_000} ms; stderr: ${stderr.slice(-2000)}`));
    }, options.timeoutMs ?? 120_000);
    child.on("error", reject);
    child.on("exit", sample);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      clearInterval(sampler);
      resolvePromise({ code: code ?? -1, signal, stdout, stderr, wallMs: performance.now() - t0, peakRssBytes: peak });
    });
  });
  // Tracked until it closes (after a timeout `done` rejects first; the child and its sampler live until 'close').
  live.set(
    child,
    new Promise<void>((resolveClosed) => {
      child.once("close", () => resolveClosed());
      child.once("error", () => resolveClosed());
    }).finally(() => live.delete(child)),
  );
  return { child, done, output: () => stdout + stderr };
}

/** Runs `hierdoc ARGS` to completion. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return startCli(args, options).done;
}

/** Megabytes, one decimal. */
export function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}
