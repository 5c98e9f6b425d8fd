import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, REPO, runCli, track } from "./run-cli.js";

/**
 * Runs `hierdoc ingest` and SIGKILLs it (by pid) as soon as `marker` (written by the first checkpoint)
 * is on disk; resolves with how it ended. A run that ends by itself first fails the test.
 */
function ingestAndKillAtFirstCheckpoint(args: string[], marker: string): Promise<{ signal: NodeJS.Signals | null; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, [BIN, "ingest", ...args], { cwd: REPO, env: { ...process.env, NODE_OPTIONS: "" }, stdio: ["ignore", "ignore", "pipe"] }));
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const poll = setInterval(() => {
      if (existsSync(marker)) {
        clearInterval(poll);
        process.kill(child.pid as number, "SIGKILL");
      }
    }, 5);
    const timer = setTimeout(() => {
      clearInterval(poll);
      child.kill("SIGKILL");
      reject(new Error(`no checkpoint within 120 s; stderr: ${stderr.slice(-2000)}`));
    }, 120_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe("hierdoc ingest killed with SIGKILL after a checkpoint", () => {
  const tmp = mkdtempSync(join(tmpdir(), "hierdoc-sigkill-"));
  const docs = join(tmp, "docs");
  const index = join(tmp, "index");
  const config = join(tmp, "agent.yaml");
  const FILES = 40;
  beforeAll(() => {
    mkdirSync(docs);
    for (let f = 0; f < FILES; f++) {
      const body = Array.from({ length: 200 }, (_, i) => `## Section ${i + 1}\n\nPump ${f}-${i} must be inspected every ${i + 2} days by the operator of station ${f}.\n`).join("\n");
      writeFileSync(join(docs, `manual-${String(f).padStart(2, "0")}.md`), body);
    }
    // One worker thread, a checkpoint every 2 files: the kill lands long before the 40 files are done.
    writeFileSync(config, `tools:\n  - name: docs\n    type: hierarchical_document\n    source: ${docs}\n    embedding: { provider: hash }\n    ingest: { workers: 1, checkpoint: { files: 2, seconds: 3600 } }\n`);
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("keeps the checkpointed files searchable, and a re-run adds only the rest", async () => {
    // The index manifest is written once the first checkpoint's flush is durable.
    const first = await ingestAndKillAtFirstCheckpoint([docs, "--config", config, "--index", index], join(index, "hierdoc.json"));
    expect(first.signal).toBe("SIGKILL");
    const durable = JSON.parse(readFileSync(join(index, "store", "manifest.json"), "utf8")) as { count: number };
    expect(durable.count).toBeGreaterThan(0);

    const stats = JSON.parse((await runCli(["stats", "--config", config, "--index", index, "--json"])).stdout) as { files: number; chunks: number };
    expect(stats.files).toBeGreaterThanOrEqual(2);
    expect(stats.files).toBeLessThan(FILES);
    expect(stats.chunks).toBe(durable.count);
    // The first file is in the first checkpoint: its text is found through the keyword and exact legs.
    const found = await runCli(["search", "Pump 0-17 must be inspected", "--config", config, "--index", index, "--json", "--top-k", "3"]);
    expect(found.code).toBe(0);
    expect(JSON.parse(found.stdout).results[0].source_path).toContain("manual-00.md");

    const again = await runCli(["ingest", docs, "--config", config, "--index", index, "--json"], { timeoutMs: 180_000 });
    expect(again.code).toBe(0);
    const outcomes = (JSON.parse(again.stdout).files as Array<{ outcome: string }>).map((f) => f.outcome);
    expect(outcomes.filter((o) => o === "unchanged")).toHaveLength(stats.files);
    expect(outcomes.filter((o) => o === "added")).toHaveLength(FILES - stats.files);
    const after = JSON.parse((await runCli(["stats", "--config", config, "--index", index, "--json"])).stdout) as { files: number };
    expect(after.files).toBe(FILES);
  }, 300_000);
});
