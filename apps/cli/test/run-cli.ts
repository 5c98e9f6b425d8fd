import { afterAll } from "@jest/globals";
import { spawn, type ChildProcess } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** The built CLI entry (`npm test` builds before running tests). */
export const BIN = resolve(here, "../bin/hierdoc.js");
export const REPO = resolve(here, "../../..");
export const SAMPLE = resolve(REPO, "examples/sample-corpus");
export const CORPORA = resolve(REPO, "../shared/corpora");

const running = new Set<ChildProcess>();

/**
 * Tracks a child process the test started, so a test that times out or fails never leaves it running:
 * every test file that imports this module kills what is still running in its `afterAll`.
 */
export function track<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

afterAll(async () => {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
        }),
    ),
  );
});

/** Result of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `hierdoc ARGS` as a subprocess (`nodeArgs` go to node before the script); kills it (and fails) after `timeoutMs`. */
export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number; nodeArgs?: string[] } = {}): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = track(
      spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
        cwd: options.cwd ?? REPO,
        env: { ...process.env, ...options.env, NODE_OPTIONS: "" },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`hierdoc ${args.join(" ")} timed out; stderr: ${stderr.slice(-2000)}`));
    }, options.timeoutMs ?? 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, stdout, stderr });
    });
  });
}
