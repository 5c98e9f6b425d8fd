import { spawnSync } from "node:child_process";
import { openSync, closeSync } from "node:fs";

/** The outcome of one timed child process. */
export interface Timed {
  /** The command as a shell-readable string (for the report). */
  command: string;
  wallMs: number;
  stdout: string;
  status: number | null;
}

const quote = (a: string): string => (/^[\w./:=@,+-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

/**
 * Runs `node ARGS…` (or another program) synchronously from `cwd`, timing the wall clock from spawn to exit.
 * stdout goes to `stdoutFile` when given (not kept in memory), else it is returned.
 * @throws Error when the process exits non-zero (its stderr tail in the message) and `allowFail` is false.
 */
export function timed(program: string, args: string[], cwd: string, options: { stdoutFile?: string; allowFail?: boolean; display?: string } = {}): Timed {
  const fd = options.stdoutFile ? openSync(options.stdoutFile, "w") : undefined;
  const t0 = performance.now();
  const r = spawnSync(program, args, { cwd, encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", fd ?? "pipe", "pipe"], env: process.env });
  const wallMs = performance.now() - t0;
  if (fd !== undefined) closeSync(fd);
  const command = options.display ?? [program, ...args].map(quote).join(" ") + (options.stdoutFile ? ` > ${options.stdoutFile}` : "");
  if (r.status !== 0 && !options.allowFail) {
    throw new Error(`${command} exited ${r.status}: ${(r.stderr ?? "").slice(-2000)}`);
  }
  return { command, wallMs, stdout: r.stdout ?? "", status: r.status };
}

/** Parses the last non-empty stdout line of a worker as JSON. */
export function lastJson<T>(t: Timed): T {
  const lines = t.stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1]) as T;
}
