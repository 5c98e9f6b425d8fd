import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { watch, type FSWatcher } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { actFile, checkIndexFolder, fileHash, mutateCorpus, prng, runCli, startCli, stopAllClis, writeCorpus, type CorpusState } from "../src/index.js";

// SIGKILLs the real `hierdoc ingest` (GloVe, memory store) at random points, many times, while the corpus
// changes between runs (updates, a removal and an addition each time), then lets an ingest finish and
// compares the index with a clean ingest of the same files into a fresh folder.
// HIERDOC_CRASH_ITERATIONS (default 15) random kills, HIERDOC_CRASH_FLUSH_KILLS (default 5) kills during
// the flush, HIERDOC_CRASH_BUDGET_MS (default 60,000) bounds the random-kill loop, HIERDOC_CRASH_SEED.
const ITERATIONS = Number(process.env.HIERDOC_CRASH_ITERATIONS ?? 15);
const FLUSH_KILLS = Number(process.env.HIERDOC_CRASH_FLUSH_KILLS ?? 5);
const BUDGET_MS = Number(process.env.HIERDOC_CRASH_BUDGET_MS ?? 60_000);
const SEED = Number(process.env.HIERDOC_CRASH_SEED ?? Date.now() % 1_000_000);
const FILES = 48;
const SECTIONS = 14;

const QUERIES = [
  "operator shall notify the competent authority",
  "annual report publication",
  "registry 7",
  "Section 3",
  "Section 12(b)",
  "security breach penalty fine",
  "data subject erasure request",
  "emission limit monitoring sample laboratory",
  "licence holder inspection premises",
  "appeal to the tribunal",
];

interface Result {
  id: string;
  score: number;
  scores: Record<string, number | null>;
  content: string;
}

let dir: string;
let docs: string;
let index: string;
let state: CorpusState;
let rand: () => number;
const log: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hierdoc-crash-"));
  docs = join(dir, "docs");
  index = join(dir, "index");
  state = await writeCorpus(docs, FILES, SECTIONS);
  rand = prng(SEED);
  log.push(`seed ${SEED}`);
});

afterAll(async () => {
  await stopAllClis(); // a CLI still running after a failed or timed-out test
  console.log(log.join("\n"));
  if (dir) await rm(dir, { recursive: true, force: true });
});

function expectedFiles(): Map<string, string> {
  return new Map([...state.keys()].map((n) => [join(docs, actFile(n)), fileHash(join(docs, actFile(n)))]));
}

async function ingest(indexDir: string, extra: string[] = []) {
  return runCli(["ingest", docs, "--index", indexDir, "--quiet", "--json", ...extra], { timeoutMs: 120_000 });
}

/** After a kill, the folder still opens and holds whole files only (files may be old or new versions). */
async function checkAfterKill(label: string): Promise<void> {
  const check = await checkIndexFolder(index).catch((err: unknown) => ({ problems: [`cannot open: ${(err as Error).message}`], chunks: 0 }));
  expect({ label, problems: check.problems }).toEqual({ label, problems: [] });
}

async function searchAll(indexDir: string): Promise<Map<string, Result[]>> {
  const q = join(dir, "queries.jsonl");
  await writeFile(q, QUERIES.map((query, i) => JSON.stringify({ id: `q${i}`, query })).join("\n") + "\n");
  const run = await runCli(["search", "--queries", q, "--index", indexDir, "--top-k", "10", "--json"], { timeoutMs: 60_000 });
  expect(run.code).toBe(0);
  return new Map(run.stdout.trim().split("\n").map((l) => {
    const o = JSON.parse(l) as { id: string; results: Result[] };
    return [o.id, o.results.map((r) => ({ id: r.id, score: r.score, scores: r.scores, content: r.content }))];
  }));
}

async function verifyAgainstCleanIngest(label: string): Promise<void> {
  const final = await ingest(index);
  expect({ label, code: final.code, stderr: final.code === 0 ? "" : final.stderr }).toEqual({ label, code: 0, stderr: "" });
  const files = expectedFiles();
  const check = await checkIndexFolder(index, { expectedFiles: files, requireKeyword: true });
  expect({ label, problems: check.problems }).toEqual({ label, problems: [] });

  const stats = JSON.parse((await runCli(["stats", "--index", index, "--json"])).stdout) as { files: number; chunks: number; keywordDocs: number };
  expect(stats.files).toBe(files.size);
  expect(stats.chunks).toBe(check.chunks);
  expect(stats.keywordDocs).toBe(stats.chunks);

  const fresh = join(dir, `fresh-${label}`);
  const clean = await ingest(fresh);
  expect(clean.code).toBe(0);
  const reference = await checkIndexFolder(fresh, { expectedFiles: files, requireKeyword: true });
  expect(reference.problems).toEqual([]);
  expect(check.chunks).toBe(reference.chunks);
  expect([...check.records.keys()].sort()).toEqual([...reference.records.keys()].sort());
  for (const [id, r] of reference.records) {
    const got = check.records.get(id)!;
    expect({ id, content: got.content, context: got.context, start: got.start, end: got.end, sectionId: got.sectionId }).toEqual({
      id, content: r.content, context: r.context, start: r.start, end: r.end, sectionId: r.sectionId,
    });
  }
  const b = await searchAll(fresh);
  expect([...b.values()].every((list) => list.length > 0)).toBe(true);
  const a = await searchAll(index);
  const diff = compareUpToExactTies(a, b);
  expect({ label, diff: diff.problems }).toEqual({ label, diff: [] });
  log.push(
    `${label}: index consistent (${check.files} files, ${check.chunks} chunks, records equal to a clean ingest); ` +
      `${QUERIES.length} queries: fused score lists identical, ${diff.identical} of ${diff.total} results identical by position, ` +
      `${diff.tiePermuted} in another order among exactly tied chunks`,
  );
  await rm(fresh, { recursive: true, force: true });
}

describe("SIGKILL during ingest", () => {
  it("survives random kills: the index stays whole after each, and a re-run equals a clean ingest", async () => {
    // Measure one uninterrupted run: process start-up vs. ingest work, to aim kills at the work.
    // The first, uninterrupted ingest creates the index that the kills then hit.
    const first = await ingest(index);
    expect(first.code).toBe(0);
    const totalMs = (JSON.parse(first.stdout) as { timings_ms: { total: number } }).timings_ms.total;
    const startupMs = Math.max(0, first.wallMs - totalMs);
    log.push(`uninterrupted ingest of ${FILES} files: ${(first.wallMs / 1000).toFixed(2)} s wall (ingest ${(totalMs / 1000).toFixed(2)} s)`);

    const t0 = performance.now();
    let killed = 0;
    let completed = 0;
    // Two kinds of kill point: after a random fraction of the last uninterrupted run's wall time (adapts
    // to machine load; may hit start-up), or a few ms after the k-th per-file progress line (always inside
    // the file loop or the flush after it). Progress lines ("[n/N] done …") go to stderr without --quiet.
    let lastWall = first.wallMs;
    const phases = { startup: 0, files: 0, afterFiles: 0 };
    for (let i = 0; i < ITERATIONS && performance.now() - t0 < BUDGET_MS; i++) {
      await mutateCorpus(docs, state, rand, SECTIONS);
      const force = rand() < 0.4 ? ["--force"] : [];
      const byProgress = rand() < 0.6;
      const k = 1 + Math.floor(rand() * state.size);
      const delay = byProgress ? rand() * 30 : Math.max(startupMs * 0.5, lastWall * (0.3 + 0.65 * rand()));
      const proc = startCli(["ingest", docs, "--index", index, ...force], { timeoutMs: 120_000 });
      let lines = 0;
      let timer: NodeJS.Timeout | undefined;
      if (byProgress) {
        proc.child.stderr!.on("data", (d: Buffer) => {
          lines += (String(d).match(/^\[\d+\/\d+\]/gm) ?? []).length;
          if (lines >= k && !timer) timer = setTimeout(() => proc.child.kill("SIGKILL"), delay);
        });
      } else timer = setTimeout(() => proc.child.kill("SIGKILL"), delay);
      const run = await proc.done;
      clearTimeout(timer);
      const progress = [...run.stderr.matchAll(/^\[(\d+)\/(\d+)\]/gm)].map((m) => [Number(m[1]), Number(m[2])]);
      const at = progress.length === 0 ? "start-up" : `file ${progress[progress.length - 1][0]}/${progress[progress.length - 1][1]}`;
      if (run.signal === "SIGKILL") {
        killed++;
        if (progress.length === 0) phases.startup++;
        else if (progress[progress.length - 1][0] === progress[progress.length - 1][1]) phases.afterFiles++;
        else phases.files++;
      } else {
        completed++;
        lastWall = run.wallMs;
        expect(run.code).toBe(0);
      }
      await checkAfterKill(`iteration ${i} (${run.signal ?? "completed"} at ${at}, ${byProgress ? `line ${k} + ${delay.toFixed(0)} ms` : `${delay.toFixed(0)} ms`}${force.length ? ", --force" : ""})`);
    }
    log.push(`kill points: ${phases.startup} during start-up, ${phases.files} between/inside files, ${phases.afterFiles} after the last file (removals, flush)`);
    log.push(`random kills: ${killed} SIGKILLed mid-run, ${completed} finished before the kill, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    expect(killed).toBeGreaterThanOrEqual(Math.min(5, ITERATIONS));
    await verifyAgainstCleanIngest("after random kills");
  }, BUDGET_MS + 120_000);

  it("survives kills while the persisted files are written (temp files present)", async () => {
    let killedInFlush = 0;
    const t0 = performance.now();
    for (let i = 0; i < FLUSH_KILLS; i++) {
      await mutateCorpus(docs, state, rand, SECTIONS);
      // Kill on the k-th temp-file event in the store or keyword folder: before the data files are renamed,
      // between data and manifest, or while the keyword index is written.
      const k = 1 + Math.floor(rand() * 4);
      let seen = 0;
      const watchers: FSWatcher[] = [];
      const seenNames: string[] = [];
      const proc = startCli(["ingest", docs, "--index", index, "--quiet", "--force"], { timeoutMs: 120_000 });
      for (const sub of ["store", "keyword"]) {
        watchers.push(
          watch(join(index, sub), (_event, name) => {
            if (!name || !String(name).endsWith(".tmp")) return;
            seenNames.push(String(name));
            if (++seen === k) proc.child.kill("SIGKILL");
          }),
        );
      }
      let run;
      try {
        run = await proc.done;
      } finally {
        for (const w of watchers) w.close();
        proc.child.kill("SIGKILL");
      }
      if (run.signal === "SIGKILL") killedInFlush++;
      const leftovers = [...(await readdir(join(index, "store"))), ...(await readdir(join(index, "keyword")))].filter((n) => n.endsWith(".tmp"));
      log.push(`flush kill ${i}: k=${k}, ${run.signal ?? `exit ${run.code}`}, temp files seen ${seenNames.length}, left behind ${leftovers.length}`);
      await checkAfterKill(`flush kill ${i} (k=${k})`);
    }
    log.push(`flush kills: ${killedInFlush} of ${FLUSH_KILLS} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    expect(killedInFlush).toBeGreaterThanOrEqual(Math.ceil(FLUSH_KILLS / 2));
    await verifyAgainstCleanIngest("after flush kills");
    const leftovers = [...(await readdir(join(index, "store"))), ...(await readdir(join(index, "keyword")))].filter((n) => n.endsWith(".tmp"));
    expect(leftovers).toEqual([]);
  }, 180_000);
});

/**
 * Compares two batch-search outputs. Fused scores by rank must be identical, and every chunk both return
 * must have identical per-leg scores (semantic, BM25, exact: these depend only on the indexed data).
 * A chunk only one side returns, or a different chunk at a rank, is accepted only when it has an exact
 * twin (identical leg scores) on the other side: fusion breaks exact ties by insertion order, which an
 * incremental history changes (README: known limitation).
 */
function compareUpToExactTies(a: Map<string, Result[]>, b: Map<string, Result[]>): { problems: string[]; identical: number; tiePermuted: number; total: number } {
  const problems: string[] = [];
  let identical = 0;
  let tiePermuted = 0;
  let total = 0;
  const key = (r: Result) => JSON.stringify(r.scores);
  for (const [q, expected] of b) {
    const got = a.get(q) ?? [];
    if (JSON.stringify(got.map((r) => r.score)) !== JSON.stringify(expected.map((r) => r.score))) problems.push(`${q}: fused scores differ`);
    const gotById = new Map(got.map((r) => [r.id, r]));
    const expectedKeys = new Set(expected.map(key));
    for (const [i, r] of expected.entries()) {
      total++;
      const g = gotById.get(r.id);
      if (g && key(g) !== key(r)) problems.push(`${q}: ${r.id} leg scores ${key(g)} ≠ ${key(r)}`);
      if (got[i]?.id === r.id) identical++;
      else if (got[i] && key(got[i]) === key(r)) tiePermuted++;
      else problems.push(`${q}: rank ${i + 1} is ${got[i]?.id ?? "missing"}, clean ingest has ${r.id} (no exact tie)`);
    }
    for (const g of got) if (!expected.some((r) => r.id === g.id) && !expectedKeys.has(key(g))) problems.push(`${q}: ${g.id} returned without a tied twin`);
  }
  return { problems, identical, tiePermuted, total };
}
