import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, REPO, runCli, track } from "./run-cli.js";

/** Runs `hierdoc ingest` and sends SIGINT once stderr shows `after` files done; resolves with the exit. */
function ingestAndInterrupt(args: string[], after: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, [BIN, "ingest", ...args], { cwd: REPO, env: { ...process.env, NODE_OPTIONS: "" }, stdio: ["ignore", "pipe", "pipe"] }));
    let stderr = "";
    let sent = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`ingest did not stop; stderr: ${stderr.slice(-2000)}`));
    }, 120_000);
    child.stderr.on("data", (d) => {
      stderr += d;
      const done = (stderr.match(/\] done /g) ?? []).length;
      if (!sent && done >= after) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe("hierdoc ingest interrupted with Ctrl-C (SIGINT)", () => {
  const tmp = mkdtempSync(join(tmpdir(), "hierdoc-sigint-"));
  const docs = join(tmp, "docs");
  const index = join(tmp, "index");
  const FILES = 30;
  beforeAll(() => {
    mkdirSync(docs);
    for (let f = 0; f < FILES; f++) {
      const body = Array.from({ length: 250 }, (_, i) => `## Section ${i + 1}\n\nPump ${f}-${i} must be inspected every ${i + 2} days by the operator of station ${f}.\n`).join("\n");
      writeFileSync(join(docs, `manual-${String(f).padStart(2, "0")}.md`), body);
    }
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("stops early with exit 130, keeps the finished files, and the next run continues", async () => {
    const first = await ingestAndInterrupt([docs, "--index", index], 2);
    expect(first.stderr).toContain("stopping after the current batch");
    expect(first.stderr).toContain("ingest interrupted: files finished before the interrupt are saved");
    expect(first.code).toBe(130);

    const stats = JSON.parse((await runCli(["stats", "--index", index, "--json"])).stdout);
    expect(stats.files).toBeGreaterThanOrEqual(2);
    expect(stats.files).toBeLessThan(FILES);

    const again = await runCli(["ingest", docs, "--index", index, "--json"]);
    expect(again.code).toBe(0);
    const outcomes = JSON.parse(again.stdout).files.map((f: { outcome: string }) => f.outcome);
    expect(outcomes.filter((o: string) => o === "unchanged")).toHaveLength(stats.files);
    expect(outcomes.filter((o: string) => o === "added")).toHaveLength(FILES - stats.files);
    const warnings = again.stderr.split("\n").filter((l) => l.startsWith("warning:"));
    expect(warnings).toEqual([]);
  });
});
