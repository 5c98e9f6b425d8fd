import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, REPO, runCli, SAMPLE } from "./run-cli.js";

describe("hierdoc serve (built binary, real HTTP on loopback)", () => {
  const tmp = mkdtempSync(join(tmpdir(), "hierdoc-serve-"));
  const index = join(tmp, "index");
  let child: ChildProcess | undefined;
  let url = "";

  beforeAll(async () => {
    expect((await runCli(["ingest", SAMPLE, "--index", index, "--quiet"], { timeoutMs: 300_000 })).code).toBe(0);
    child = spawn(process.execPath, [BIN, "serve", "--index", index, "--port", "0"], {
      cwd: REPO,
      env: { ...process.env, NODE_OPTIONS: "", HIERDOC_SERVER_TOKEN: "" },
      stdio: ["ignore", "ignore", "pipe"],
      detached: true,
    });
    url = await new Promise<string>((resolve, reject) => {
      let err = "";
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 60_000);
      child!.stderr!.on("data", (d) => {
        err += d;
        const m = /hierdoc serving (http:\/\/[^\s]+)/.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child!.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited with ${code}: ${err}`));
      });
    });
  }, 300_000);

  afterAll(() => {
    if (child?.pid) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    rmSync(tmp, { recursive: true, force: true });
  });

  it("answers /health and POST /search with the CLI's result JSON", async () => {
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    const res = await fetch(`${url}/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "Section 7", top_k: 2 }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: Array<{ section_id: string; parent_chain: string[] }> };
    expect(body.results[0].section_id).toMatch(/^Section 7/);
    expect(Array.isArray(body.results[0].parent_chain)).toBe(true);
  });

  it("refuses ingest without a token and rejects a top_k above 100", async () => {
    const ingest = await fetch(`${url}/ingest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ paths: ["x.md"] }) });
    expect(ingest.status).toBe(401);
    const big = await fetch(`${url}/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "pump", top_k: 500 }) });
    expect(big.status).toBe(400);
  });

  it("stops on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
    process.kill(child!.pid!, "SIGTERM");
    expect(await exited).toBe(0);
  });
});
