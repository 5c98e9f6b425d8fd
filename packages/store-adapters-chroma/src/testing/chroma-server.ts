import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { HierdocError } from "@hierdoc/core";

/** Options of {@link startChromaServer}. */
export interface ChromaServerOptions {
  /** Folder the server persists to. */
  path: string;
  /** TCP port; a free one when absent. */
  port?: number;
  /** How long to wait for the heartbeat, in ms. Default 30 000. */
  readyTimeoutMs?: number;
}

/** A running local Chroma server started by {@link startChromaServer}. */
export interface ChromaServer {
  url: string;
  port: number;
  path: string;
  pid: number;
  /** Milliseconds from spawn to the first successful heartbeat. */
  startMs: number;
  /** Stops the whole process group: SIGTERM, then SIGKILL after `graceMs` (default 3000). Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/** A TCP port that was free a moment ago (bind to port 0, read it, close). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function chromaCli(): string {
  const require = createRequire(import.meta.url);
  // The "require" export is dist/cjs/chromadb.cjs; the CLI sits at dist/cli.mjs.
  return join(dirname(require.resolve("chromadb")), "..", "cli.mjs");
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Starts a real local Chroma server (`chromadb`'s bundled CLI, `run --path --port`) in its own process
 * group and waits until `GET /api/v2/heartbeat` answers. For integration tests and local demos.
 * @throws HierdocError E_STORE_UNAVAILABLE when the server exits or is not ready in time (it is stopped).
 */
export async function startChromaServer(options: ChromaServerOptions): Promise<ChromaServer> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, [chromaCli(), "run", "--path", options.path, "--port", String(port)], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const pid = child.pid as number;
  let stopped = false;
  const stop = async (graceMs = 3000): Promise<void> => {
    if (stopped) return exited(child);
    stopped = true;
    const signal = (sig: NodeJS.Signals): void => {
      try {
        process.kill(-pid, sig);
      } catch {
        // the group is already gone
      }
    };
    signal("SIGTERM");
    const timer = setTimeout(() => signal("SIGKILL"), graceMs);
    await exited(child);
    clearTimeout(timer);
    signal("SIGKILL");
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const res = await fetch(`${url}/api/v2/heartbeat`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return { url, port, path: options.path, pid, startMs: performance.now() - t0, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop(500);
  throw new HierdocError("E_STORE_UNAVAILABLE", `local chroma server on port ${port} did not become ready: ${stderr.trim().slice(-500)}`, {
    details: { adapter: "chroma", operation: "startServer", port },
  });
}
