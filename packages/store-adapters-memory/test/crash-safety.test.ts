import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { cosine, makeVector, seededRandom } from "@hierdoc/core/testing";
import { MANIFEST_FILE, MemoryStore } from "@hierdoc/store-adapters-memory";

const writer = resolve(process.cwd(), "packages/store-adapters-memory/test/fixtures/crash-writer.mjs");
const ITERATIONS = 10;
/** Stop starting new iterations after this long (a loaded CI machine still runs at least MIN_ITERATIONS). */
const BUDGET_MS = 8000;
const MIN_ITERATIONS = 4;
let work: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "hierdoc-crash-"));
  const res = spawnSync(process.execPath, [writer, "compile", join(work, "build")], { encoding: "utf8" });
  if (res.status !== 0) throw new Error(`compiling the crash writer failed: ${res.stderr}`);
}, 60_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await rm(work, { recursive: true, force: true });
});

/** Starts the writer, SIGKILLs it `delayMs` after it is ready (or after its `after`-th flush); returns the last generation it reported durable. */
function runAndKill(dir: string, delayMs: number, after: "ready" | number = "ready"): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [writer, "run", join(work, "build"), dir], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let lastGeneration = 0;
    let flushes = 0;
    let buffer = "";
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        const m = /^flushed (\d+)$/.exec(line);
        if (m) flushes++;
        const first = after === "ready" ? line === "ready" : m !== null && flushes === after;
        if (m) lastGeneration = Number(m[1]);
        if (first) setTimeout(() => child.kill("SIGKILL"), delayMs);
      }
    });
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") done(lastGeneration);
      else fail(new Error(`writer exited with ${code}: ${stderr}`));
    });
  });
}

/** Opens `dir` and checks it is one complete snapshot; returns its generation. */
async function expectConsistent(dir: string): Promise<number> {
  const store = new MemoryStore({ dir });
  await store.open({ embedderId: "crash/embedder@1", dimensions: 32 });
  const ids: string[] = [];
  for await (const r of store.scan()) ids.push(r.id);
  const withVectors = await store.getWithVectors(ids);
  expect(new Set(ids).size).toBe(ids.length);
  expect(withVectors).toHaveLength(ids.length);
  for (const { record, vector } of withVectors) {
    if (cosine(vector, makeVector(record.content, 32)) < 0.9999) throw new Error(`record ${record.id} does not carry its own vector`);
  }
  await store.close();
  return ids.length;
}

describe("MemoryStore crash safety (child process SIGKILLed during upsert + flush loops)", () => {
  it(`reopens to a complete snapshot after each of ${ITERATIONS} kills`, async () => {
    const dir = join(work, "index");
    const rnd = seededRandom(Date.now());
    let totalFlushes = 0;
    const started = Date.now();
    let iteration = 0;
    let annSnapshots = 0;
    for (; iteration < ITERATIONS; iteration++) {
      if (iteration >= MIN_ITERATIONS && Date.now() - started > BUDGET_MS) break;
      // The first run counts from its first durable flush, so every run has a snapshot to protect; until a
      // snapshot with a graph was seen, runs count from their second flush (the first past 500 records, so
      // with a graph), so a loaded machine that kills every run early still exercises graph snapshots.
      const durable = await runAndKill(dir, 40 + Math.floor(rnd() * 260), iteration === 0 ? 1 : annSnapshots === 0 ? 2 : "ready");
      const store = new MemoryStore({ dir, ann: { threshold: 500, threads: 1 } });
      await store.open({ embedderId: "crash/embedder@1", dimensions: 32 });
      // Killed before its first flush finished (a loaded machine): no snapshot yet, and an empty store.
      const manifest = existsSync(join(dir, MANIFEST_FILE))
        ? JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8"))
        : { generation: 0, count: 0 };
      expect(manifest.generation).toBeGreaterThanOrEqual(durable);
      expect(await store.count()).toBe(manifest.count);
      const ids: string[] = [];
      for await (const r of store.scan()) ids.push(r.id);
      expect(new Set(ids).size).toBe(manifest.count);
      const withVectors = await store.getWithVectors(ids);
      expect(withVectors).toHaveLength(manifest.count);
      for (const { record, vector } of withVectors) {
        if (cosine(vector, makeVector(record.content, 32)) < 0.9999) throw new Error(`record ${record.id} does not carry its own vector`);
      }
      const names = existsSync(dir) ? await readdir(dir) : [];
      expect(names.filter((n) => n.endsWith(".tmp"))).toEqual([]);
      if (manifest.files?.ann) {
        // The saved HNSW graph is complete (its checksum matches) and serves the records of this snapshot.
        annSnapshots++;
        const bytes = await readFile(join(dir, manifest.files.ann.name));
        expect(createHash("sha256").update(bytes).digest("hex")).toBe(manifest.files.ann.sha256);
        const probe = withVectors[0];
        expect((await store.vectorSearch({ vector: probe.vector, topK: 1 }))[0].id).toBe(probe.record.id);
      }
      await store.close();
      totalFlushes = manifest.generation;
    }
    expect(totalFlushes).toBeGreaterThan(0);
    expect(annSnapshots).toBeGreaterThan(0);
    expect(iteration).toBeGreaterThanOrEqual(MIN_ITERATIONS);
  }, 60_000);

  it.each([1, 2])("a reader opening the folder while %i writer(s) flush always loads a complete snapshot", async (writers) => {
    const dir = join(work, `shared-${writers}`);
    let flushes = 0;
    const started = Array.from({ length: writers }, () => {
      const child = spawn(process.execPath, [writer, "run", join(work, "build"), dir], { stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      return { child, ready: new Promise<void>((ready, fail) => {
        let mine = 0;
        child.stdout.on("data", (d: Buffer) => {
          for (const line of d.toString().split("\n")) {
            if (!line.startsWith("flushed")) continue;
            flushes++;
            if (mine++ === 0) ready();
          }
        });
        child.on("exit", (code, signal) => (signal === "SIGKILL" ? undefined : fail(new Error(`writer exited early with ${code}`))));
      }) };
    });
    await Promise.all(started.map((s) => s.ready));
    try {
      let opens = 0;
      const until = Date.now() + 2500;
      while (Date.now() < until || opens < 5) {
        expect(await expectConsistent(dir)).toBeGreaterThan(0);
        opens++;
      }
      expect(flushes).toBeGreaterThan(writers);
    } finally {
      for (const { child } of started) child.kill("SIGKILL");
    }
    expect(await expectConsistent(dir)).toBeGreaterThan(0);
  }, 60_000);
});
