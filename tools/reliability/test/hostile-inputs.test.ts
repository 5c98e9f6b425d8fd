import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mb, runCli, stopAllClis, writeHostileFixtures, sizesFromEnv, type CliRun, type Fixture } from "../src/index.js";

// One `hierdoc ingest` of the whole hostile folder (the real CLI, GloVe, memory store). The 50 MB line,
// 10,000 headings and 1,000-deep nesting are the sizes; HIERDOC_HOSTILE_LONG_LINE_MB,
// HIERDOC_HOSTILE_HEADINGS and HIERDOC_HOSTILE_DEPTH change them.
// Guards only (generous); the measured numbers are printed and recorded in the README.
const MAX_WALL_MS = Number(process.env.HIERDOC_HOSTILE_MAX_MS ?? 150_000);
const MAX_RSS_BYTES = 3 * 2 ** 30;

interface FileJson {
  source_path: string;
  outcome: string;
  chunks: number;
  error?: { code: string; message: string };
}

let dir: string;
let docs: string;
let index: string;
let fixtures: Fixture[];
let run: CliRun;
let files: FileJson[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hierdoc-hostile-"));
  docs = join(dir, "docs");
  index = join(dir, "index");
  fixtures = await writeHostileFixtures(docs, sizesFromEnv());
  run = await runCli(["ingest", docs, "--index", index, "--json", "--quiet"], { timeoutMs: MAX_WALL_MS + 30_000 });
  files = run.stdout.trim() ? (JSON.parse(run.stdout).files as FileJson[]) : [];
  console.log(
    `hostile ingest of ${fixtures.length} fixtures: exit ${run.code}, ${(run.wallMs / 1000).toFixed(1)} s wall, peak RSS ${mb(run.peakRssBytes)}`,
  );
}, MAX_WALL_MS + 60_000);

afterAll(async () => {
  await stopAllClis(); // a CLI still running after a failed or timed-out test
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("hierdoc ingest of a hostile folder", () => {
  it("finishes with exit code 3 (some files failed) and valid JSON on stdout", () => {
    expect(run.signal).toBeNull();
    expect(run.code).toBe(3);
    expect(files.length).toBe(fixtures.length);
  });

  it("stays within generous time and memory guards", () => {
    expect(run.wallMs).toBeLessThan(MAX_WALL_MS);
    if (run.peakRssBytes > 0) expect(run.peakRssBytes).toBeLessThan(MAX_RSS_BYTES);
  });

  it("prints exactly one error line per bad file, naming it, and no other errors", () => {
    const errorLines = run.stderr.split("\n").filter((l) => l.startsWith("error:"));
    const bad = fixtures.filter((f) => f.expect === "error");
    expect(errorLines.length).toBe(bad.length);
    for (const f of bad) {
      const path = join(docs, f.name);
      expect(errorLines.filter((l) => l.includes(`${path}:`))).toHaveLength(1);
    }
    expect(run.stderr).not.toMatch(/\n\s+at |TypeError|RangeError|Maximum call stack/);
  });

  it.each(["error", "ok"] as const)("gives every %s fixture its expected outcome", (kind) => {
    for (const f of fixtures.filter((x) => x.expect === kind)) {
      const entry = files.find((x) => x.source_path === join(docs, f.name));
      expect({ name: f.name, outcome: entry?.outcome }).toEqual({ name: f.name, outcome: kind === "ok" ? "added" : "failed" });
      if (kind === "ok") expect(entry!.chunks).toBeGreaterThan(0);
      else expect({ name: f.name, code: f.codes!.includes(entry!.error!.code) ? "expected" : entry!.error!.code }).toEqual({ name: f.name, code: "expected" });
    }
  });

  it("keeps the good files searchable, each chunk equal to its converted source slice", async () => {
    const ok = fixtures.filter((f) => f.expect === "ok");
    const queries = join(dir, "queries.jsonl");
    await writeFile(queries, ok.map((f) => JSON.stringify({ id: f.name, query: f.marker })).join("\n") + "\n");
    const search = await runCli(["search", "--queries", queries, "--index", index, "--mode", "keyword", "--top-k", "3", "--json"], { timeoutMs: 60_000 });
    expect(search.code).toBe(0);
    const lines = search.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: string; results: Array<{ source_path: string; content: string; start: number; end: number }> });
    expect(lines.map((l) => l.id)).toEqual(ok.map((f) => f.name));
    for (const line of lines) {
      const top = line.results[0];
      expect({ query: line.id, source: top?.source_path }).toEqual({ query: line.id, source: join(docs, line.id) });
      expect(top.content).toContain(ok.find((f) => f.name === line.id)!.marker!);
      const raw = await readFile(top.source_path);
      const text = decodeForCheck(raw).replace(/\r\n?/g, "\n");
      expect(text.slice(top.start, top.end)).toBe(top.content);
    }
  }, 90_000);
});

function decodeForCheck(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}
