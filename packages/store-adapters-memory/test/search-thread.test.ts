import { execFile } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import { makeStoreRecord, makeVector } from "@hierdoc/core/testing";
import type { ScoredId, StoreRecord } from "@hierdoc/core";
import { MemoryStore, SearchThread, SearchThreadUnavailable, wantsSearchThread, type MemoryAnnConfig } from "@hierdoc/store-adapters-memory";

// The thread runs the package's built worker script (dist/search-thread-worker.js): build the package first.
const D = 24;
const N = 1500;
const open = { embedderId: "test/embedder@1", dimensions: D };
const on: MemoryAnnConfig = { threshold: 300, threads: 1, search_thread: true };
const off: MemoryAnnConfig = { ...on, search_thread: false };
const SOURCES = Array.from({ length: 10 }, (_, i) => `docs/s${i}.md`);
const queries = Array.from({ length: 30 }, (_, i) => makeVector(`query-${i}`, D));
let dir: string;
const opened: MemoryStore[] = [];

function records(n: number, from = 0): StoreRecord[] {
  return Array.from({ length: n }, (_, i) => makeStoreRecord(from + i, { dimensions: D, record: { id: `c${from + i}`, sourcePath: SOURCES[(from + i) % SOURCES.length] } }));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hierdoc-memory-thread-"));
  const writer = new MemoryStore({ dir, ann: off });
  await writer.open(open);
  for (let i = 0; i < N; i += 500) await writer.upsert(records(500, i));
  await writer.close();
});

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function openStore(config: MemoryAnnConfig): Promise<MemoryStore> {
  const store = new MemoryStore({ dir, ann: config });
  opened.push(store);
  await store.open(open);
  expect(store.openInfo.graph).toBe("viewed");
  return store;
}

async function answers(store: MemoryStore, topK = 10, filter?: { sourcePaths: string[] }): Promise<ScoredId[][]> {
  const out: ScoredId[][] = [];
  for (const vector of queries) out.push(await store.vectorSearch({ vector, topK, filter }));
  return out;
}

function exited(thread: SearchThread): Promise<number> {
  return new Promise((resolve) => thread.worker.once("exit", resolve));
}

describe("MemoryStore search thread (ann.search_thread)", () => {
  it("answers unfiltered searches on the thread with the same ids, order and scores as the store's own thread", async () => {
    const threaded = await openStore(on);
    const thread = threaded.searchThread as SearchThread;
    expect(await thread.started).toBe(true);
    const local = await openStore(off);
    expect(local.searchThread).toBeUndefined();
    for (const topK of [1, 10, 50]) {
      const a = await answers(threaded, topK);
      expect(a).toEqual(await answers(local, topK));
      expect(a.every((hits) => hits.length === topK)).toBe(true);
    }
    expect(thread.answered).toBe(3 * queries.length);
  });

  it("filtered searches stay on the store's thread (same answers)", async () => {
    const threaded = await openStore(on);
    const thread = threaded.searchThread as SearchThread;
    await thread.started;
    const local = await openStore(off);
    const filter = { sourcePaths: SOURCES.slice(0, 6) };
    expect(await answers(threaded, 10, filter)).toEqual(await answers(local, 10, filter));
    expect(thread.answered).toBe(0);
  });

  it("the first write stops the thread and later searches see the write", async () => {
    const copy = `${dir}-copy`;
    await cp(dir, copy, { recursive: true });
    const store = new MemoryStore({ dir: copy, ann: on });
    opened.push(store);
    await store.open(open);
    const thread = store.searchThread as SearchThread;
    await thread.started;
    const gone = exited(thread);
    const added = records(1, N)[0];
    await store.upsert([added]);
    expect(store.searchThread).toBeUndefined();
    expect(thread.usable).toBe(false);
    await gone;
    const [top] = await store.vectorSearch({ vector: added.vector, topK: 1 });
    expect(top.id).toBe(added.record.id);
    expect(thread.answered).toBe(0);
    await store.close();
    await rm(copy, { recursive: true, force: true });
  });

  it("answers many searches in flight at once, each with its own answer", async () => {
    const threaded = await openStore(on);
    const thread = threaded.searchThread as SearchThread;
    await thread.started;
    const local = await openStore(off);
    const concurrent = await Promise.all(queries.map((vector) => threaded.vectorSearch({ vector, topK: 10 })));
    expect(concurrent).toEqual(await answers(local));
    expect(thread.answered).toBe(queries.length);
  });

  it("a search in flight when a write comes is answered from the store as written (the thread's answer is discarded)", async () => {
    const copy = `${dir}-inflight`;
    await cp(dir, copy, { recursive: true });
    const store = new MemoryStore({ dir: copy, ann: on });
    opened.push(store);
    await store.open(open);
    const thread = store.searchThread as SearchThread;
    await thread.started;
    const added = records(1, N + 1)[0];
    const inFlight = store.vectorSearch({ vector: added.vector, topK: 3 });
    await store.upsert([added]);
    const hits = await inFlight;
    expect(hits[0]).toEqual({ id: added.record.id, score: expect.closeTo(1, 6) });
    expect(thread.answered).toBe(0);
    await store.close();
    await rm(copy, { recursive: true, force: true });
  });

  it("close stops the thread", async () => {
    const store = await openStore(on);
    const thread = store.searchThread as SearchThread;
    await thread.started;
    const gone = exited(thread);
    await store.close();
    await gone;
    expect(thread.usable).toBe(false);
  });

  it("a thread that dies (an uncaught error, with a search in flight) leaves searches on the store's thread with the same answers", async () => {
    const store = await openStore(on);
    const thread = store.searchThread as SearchThread;
    await thread.started;
    const local = await openStore(off);
    const expected = await answers(local);
    // A message the thread does not understand throws there, uncaught: the thread dies before the search after it.
    thread.worker.postMessage({ bogus: true });
    const inFlight = store.vectorSearch({ vector: queries[0], topK: 10 });
    expect(await inFlight).toEqual(expected[0]);
    expect(store.searchThread).toBeUndefined();
    expect(thread.failure).toMatch(/neither a search nor stop/);
    expect(await answers(store)).toEqual(expected);
  });

  it("closing or writing while searches are in flight ends the thread between searches (terminating it inside a native search aborts the process)", async () => {
    const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
    const script = `
      const { MemoryStore } = await import(${JSON.stringify(dist)});
      let answered = 0;
      for (let i = 0; i < 12; i++) {
        const store = new MemoryStore({ dir: ${JSON.stringify(dir)}, ann: { threshold: 300, search_thread: true, candidates: 256 } });
        await store.open({ embedderId: "test/embedder@1", dimensions: ${D} });
        if (!(await store.searchThread.started)) throw new Error("no thread: " + store.searchThread.failure);
        const vector = new Float32Array(${D}).fill(0.5);
        const inFlight = [1, 2, 3].map(() => store.vectorSearch({ vector, topK: 50 }));
        await store.close();
        for (const hits of await Promise.all(inFlight)) answered += hits.length;
      }
      console.log(JSON.stringify({ answered }));
    `;
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ["--input-type=module", "-e", script], { timeout: 60_000, killSignal: "SIGKILL" }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
    expect(out.stderr).not.toMatch(/Napi::Error|Aborted/);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ answered: 12 * 3 * 50 });
  });

  it("a thread that cannot open its files fails once, with the reason, and rejects searches as unavailable", async () => {
    const reasons: string[] = [];
    const store = await openStore(off);
    const thread = SearchThread.start(
      { graphPath: join(dir, "missing.usearch"), indexOptions: { dimensions: D }, ann: { threshold: 300, m: 16, ef_search: 256, ef_construction: 128, candidates: 0, quantization: "f32", threads: 1, search_thread: true }, rows: N, dir, manifest: { count: N, dimensions: D, segments: [] } as never, places: { seg: new Uint32Array(N), vindex: new Uint32Array(N) } },
      (reason) => reasons.push(reason),
    ) as SearchThread;
    expect(await thread.started).toBe(false);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/missing\.usearch/);
    await expect(thread.search(queries[0], 10, 20)).rejects.toBeInstanceOf(SearchThreadUnavailable);
    expect(await store.count()).toBe(N);
  });

  it('"auto" starts no thread below 50 000 records or on one core; a bad setting is a typed error naming the key', async () => {
    const store = await openStore({ ...on, search_thread: "auto" });
    expect(store.searchThread).toBeUndefined();
    expect([wantsSearchThread("auto", 50_000, 2), wantsSearchThread("auto", 49_999, 2), wantsSearchThread("auto", 1e6, 1), wantsSearchThread(true, 10, 1), wantsSearchThread(false, 1e6, 8)]).toEqual([true, false, false, true, false]);
    expect(() => new MemoryStore({ ann: { search_thread: "yes" as never } })).toThrow(expect.objectContaining({ code: "E_INVALID_ARGUMENT", details: expect.objectContaining({ key: "ann.search_thread" }) }));
  });

  it("an idle thread does not keep the process alive (a process that searched and never closed the store exits)", async () => {
    const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
    const script = `
      const { MemoryStore } = await import(${JSON.stringify(dist)});
      const store = new MemoryStore({ dir: ${JSON.stringify(dir)}, ann: { threshold: 300, search_thread: true } });
      await store.open({ embedderId: "test/embedder@1", dimensions: ${D} });
      const thread = store.searchThread;
      if (!(await thread.started)) throw new Error("no thread: " + thread.failure);
      const hits = await store.vectorSearch({ vector: new Float32Array(${D}).fill(0.5), topK: 3 });
      console.log(JSON.stringify({ hits: hits.length, answered: store.searchThread.answered }));
    `;
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ["--input-type=module", "-e", script], { timeout: 20_000, killSignal: "SIGKILL" }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
    });
    expect(JSON.parse(out)).toEqual({ hits: 3, answered: 1 });
  });
});
