import { afterAll, describe, expect, it } from "@jest/globals";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ConvertPool } from "@hierdoc/tool";

// Runs the built pool (packages/tool/dist) in a child process: what is checked is whether that process stays alive
// until close() resolves, which a Jest worker (always busy) cannot show.
const here = dirname(fileURLToPath(import.meta.url));
const dist = pathToFileURL(resolve(here, "../dist/index.js")).href;
const tmp = mkdtempSync(join(tmpdir(), "hierdoc-pool-close-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs `node script` with `env`; kills it after 15 s. */
function runNode(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script], { env: { ...process.env, ...env, NODE_OPTIONS: "" }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

describe("ConvertPool.close keeps the process alive until its workers are stopped", () => {
  it("a worker whose 'ready' message arrives after close() began does not let the process exit before close() resolves", async () => {
    // The worker says it is ready, marks that in a file, then blocks in a read of a FIFO (a system call that
    // terminate() cannot interrupt), so its 'ready' message is handled after terminate() was called: the order seen
    // under load when an ingest finished on one worker while the second was still starting. An unref'd timer opens the
    // FIFO's other end after 0.5 s: it fires only if the pool keeps the process alive while the worker stops.
    const worker = join(tmp, "late-worker.mjs");
    const fifo = join(tmp, "fifo");
    execFileSync("mkfifo", [fifo]);
    writeFileSync(
      worker,
      `import { parentPort } from "node:worker_threads";\nimport { readFileSync, writeFileSync } from "node:fs";\n` +
        `parentPort.postMessage({ ready: true });\nwriteFileSync(process.env.READY_MARK, "1");\nreadFileSync(process.env.FIFO);\n`,
    );
    const main = join(tmp, "main.mjs");
    writeFileSync(
      main,
      `import { existsSync, writeFileSync } from "node:fs";\nimport { ConvertPool } from ${JSON.stringify(dist)};\n` +
        `const limits = { max_file_mb: 64, max_pages: 10000, max_zip_inflated_mb: 256, max_xml_entities: 256, timeout_seconds: 120, max_memory_mb: 256 };\n` +
        `const pool = new ConvertPool({ size: 1, limits, maxChunkTokens: 800, script: ${JSON.stringify(pathToFileURL(worker).href)} });\n` +
        `pool.run("a.md", new Uint8Array(8)).catch((e) => console.log("run:", e.code));\n` +
        // Block this thread until the worker has posted 'ready': the message is queued, not yet handled.
        `const until = Date.now() + 20000;\nwhile (!existsSync(process.env.READY_MARK) && Date.now() < until);\n` +
        `setTimeout(() => { try { writeFileSync(process.env.FIFO, "go"); } catch {} }, 500).unref();\n` +
        `await pool.close();\nconsole.log("closed", pool.running);\n`,
    );
    // Before the fix the 'ready' handler unref'd the stopping worker: the process hung on the blocked thread
    // (here) or, in the CLI, exited 0 in the middle of an ingest.
    const res = await runNode(main, { READY_MARK: join(tmp, "ready"), FIFO: fifo });
    expect({ code: res.code, stdout: res.stdout, stderr: res.stderr }).toEqual({ code: 0, stdout: "run: E_CANCELLED\nclosed 0\n", stderr: "" });
  }, 40_000);
});

describe("ConvertPool when its workers die", () => {
  const limits = { max_file_mb: 64, max_pages: 10000, max_zip_inflated_mb: 256, max_xml_entities: 256, timeout_seconds: 120, max_memory_mb: 256 };
  const script = (name: string, body: string): URL => {
    const path = join(tmp, name);
    writeFileSync(path, body);
    return pathToFileURL(path);
  };
  const failure = async (p: Promise<unknown>) => p.then(() => undefined, (err: { code?: string; message?: string; details?: Record<string, unknown> }) => err);

  it("a worker that cannot start fails every queued file with E_INTERNAL naming the file and the reason (never a silent skip)", async () => {
    const pool = new ConvertPool({ size: 2, limits, maxChunkTokens: 800, script: script("broken-worker.mjs", `throw new Error("converters missing");\n`) });
    try {
      const errors = await Promise.all(["a.md", "b.md", "c.md"].map((p) => failure(pool.run(p, new Uint8Array(4)))));
      for (const [i, p] of ["a.md", "b.md", "c.md"].entries()) {
        expect(errors[i]).toMatchObject({ code: "E_INTERNAL", details: { file: p } });
        expect(errors[i]!.message).toMatch(new RegExp(`^${p.replace(".", "\\.")}: the ingest worker could not start: .*converters missing`));
      }
    } finally {
      await pool.close();
    }
  }, 30_000);

  it("a worker that exits in the middle of a file fails that file with E_INTERNAL; the next file gets a new worker", async () => {
    // Exits on a file named die.md, converts nothing else (answers with an empty result).
    const body =
      `import { parentPort } from "node:worker_threads";\n` +
      `parentPort.on("message", (t) => { if (t.path === "die.md") process.exit(3); parentPort.postMessage({ id: t.id, ok: true, value: { path: t.path } }); });\n` +
      `parentPort.postMessage({ ready: true });\n`;
    const pool = new ConvertPool({ size: 1, limits, maxChunkTokens: 800, script: script("dying-worker.mjs", body) });
    try {
      const died = await failure(pool.run("die.md", new Uint8Array(4)));
      expect(died).toMatchObject({ code: "E_INTERNAL", message: "die.md: the ingest worker failed: the worker exited with code 3", details: { file: "die.md" } });
      expect(await pool.run("next.md", new Uint8Array(4))).toEqual({ path: "next.md" });
      expect(pool.running).toBe(1);
    } finally {
      await pool.close();
    }
  }, 30_000);
});
