import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { makeStoreRecord, makeVector } from "@hierdoc/core/testing";
import type { StoreRecord } from "@hierdoc/core";
import { MANIFEST_FILE, MemoryStore, type MemoryAnnConfig } from "@hierdoc/store-adapters-memory";

const D = 24;
const open = { embedderId: "test/embedder@1", dimensions: D };
const ann: MemoryAnnConfig = { threshold: 300, threads: 1 };
const queries = Array.from({ length: 30 }, (_, i) => makeVector(`query-${i}`, D));
const fixtures = resolve(process.cwd(), "packages/store-adapters-memory/test/fixtures");
const children: ChildProcess[] = [];
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hierdoc-memory-graph-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

function records(n: number, from = 0): StoreRecord[] {
  return Array.from({ length: n }, (_, i) => makeStoreRecord(from + i, { dimensions: D, record: { id: `c${from + i}` } }));
}

async function manifest(): Promise<{ generation: number; count: number; ann: { rows: number }; files: { ann: { name: string; bytes: number; crc32: number } } }> {
  return JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8"));
}

async function answers(store: MemoryStore): Promise<unknown[]> {
  return Promise.all(queries.map((vector) => store.vectorSearch({ vector, topK: 10 })));
}

/** Each record is the top hit for its own vector (through the graph: the store is past its threshold). */
async function expectFindsOwn(store: MemoryStore, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) {
    const top = await store.vectorSearch({ vector: makeVector(`c${i}`, D), topK: 1 });
    expect(top[0]?.id).toBe(`c${i}`);
  }
}

describe("MemoryStore graph files (view at open, kept by flushes, deferred during ingest)", () => {
  it("opens a saved graph memory-mapped with the answers of the graph that wrote it; the first write loads it and keeps searching", async () => {
    const writer = new MemoryStore({ dir, ann });
    await writer.open(open);
    await writer.upsert(records(1000));
    const before = await answers(writer);
    await writer.close();
    const viewed = new MemoryStore({ dir, ann });
    await viewed.open(open);
    expect(viewed.openInfo).toEqual({ graph: "viewed" });
    expect(await answers(viewed)).toEqual(before);
    await viewed.upsert(records(5, 1000));
    await expectFindsOwn(viewed, 995, 1005);
    await viewed.close();
  });

  it("a write after another writer replaced and removed the viewed graph file rebuilds the graph from the vectors instead of failing, and the next flush saves it", async () => {
    const writer = new MemoryStore({ dir, ann });
    await writer.open(open);
    await writer.upsert(records(1000));
    await writer.close();
    const viewed = new MemoryStore({ dir, ann });
    await viewed.open(open);
    expect(viewed.openInfo).toEqual({ graph: "viewed" });
    const mapped = (await manifest()).files.ann.name;
    await rm(join(dir, mapped));
    await viewed.upsert(records(5, 1000));
    await viewed.deleteByIds(["c3"]);
    await expectFindsOwn(viewed, 990, 1005);
    await viewed.flush();
    const after = await manifest();
    expect(after.files.ann.name).not.toBe(mapped);
    expect(after.ann.rows).toBe(1004);
    await viewed.close();
    const reopened = new MemoryStore({ dir, ann });
    await reopened.open(open);
    expect(reopened.openInfo).toEqual({ graph: "viewed" });
    await expectFindsOwn(reopened, 990, 1005);
    await reopened.close();
  });

  it("with a graph covering every row, the open leaves the vectors on disk: graph candidates are re-scored from the files (same scores as the loaded matrix) until a write, a small filter or getWithVectors loads them, CRC-checked", async () => {
    const writer = new MemoryStore({ dir, ann });
    await writer.open(open);
    await writer.upsert(records(1000));
    await writer.close();
    const lazy = new MemoryStore({ dir, ann });
    await lazy.open(open);
    const loaded = new MemoryStore({ dir, ann });
    await loaded.open(open);
    // getWithVectors needs every vector: this store loads its matrix, the other keeps reading rows from the files.
    const [one] = await loaded.getWithVectors(["c7"]);
    const raw = records(1, 7)[0].vector;
    const norm = Math.hypot(...raw);
    one.vector.forEach((x, j) => expect(x).toBeCloseTo(raw[j] / norm, 6));
    expect(await answers(lazy)).toEqual(await answers(loaded));
    await loaded.close();

    const m = await manifest();
    const vectorsFile = join(dir, (m as unknown as { segments: Array<{ vectors: { name: string } }> }).segments[0].vectors.name);
    const bytes = await readFile(vectorsFile);
    bytes[bytes.length - 3] ^= 0x5a;
    await writeFile(vectorsFile, bytes);
    const damaged = new MemoryStore({ dir, ann });
    await damaged.open(open);
    expect(damaged.openInfo).toEqual({ graph: "viewed" });
    expect(await damaged.count()).toBe(1000);
    // A small filter is answered by an exact scan: it loads the vectors and finds the damage.
    await expect(damaged.vectorSearch({ vector: queries[0], topK: 3, filter: { sourcePaths: ["docs/nowhere.md"] } })).rejects.toMatchObject({
      code: "E_INDEX_CORRUPT",
      message: expect.stringContaining(`${(m as unknown as { segments: Array<{ vectors: { name: string } }> }).segments[0].vectors.name}: checksum mismatch`),
    });
    await damaged.close();
    await lazy.close();
  });

  it("a flush that leaves the graph as saved (no change, or fewer appended rows than the growth) lists the same graph file untouched; close writes it in the same generation", async () => {
    const writer = new MemoryStore({ dir, ann });
    await writer.open(open);
    await writer.upsert(records(1000));
    await writer.flush();
    const first = await manifest();
    expect(first.ann.rows).toBe(1000);
    const file = join(dir, first.files.ann.name);
    const mtime = (await stat(file)).mtimeMs;
    await writer.upsert(records(100, 1000));
    await writer.flush();
    await writer.upsert(records(100, 1100));
    await writer.flush();
    const checkpoint = await manifest();
    expect(checkpoint.generation).toBe(first.generation + 2);
    expect(checkpoint.count).toBe(1200);
    expect(checkpoint.files.ann).toEqual(first.files.ann);
    expect(checkpoint.ann.rows).toBe(1000);
    expect((await stat(file)).mtimeMs).toBe(mtime);
    // 300 appended rows reach 25 % of the 1,000 saved: this flush writes the graph.
    await writer.upsert(records(100, 1200));
    await writer.flush();
    const grown = await manifest();
    expect(grown.files.ann.name).not.toBe(first.files.ann.name);
    expect(grown.ann.rows).toBe(1300);
    await writer.upsert(records(10, 1300));
    await writer.flush();
    const stamp = await writer.stamp();
    const lagging = await manifest();
    expect(lagging.ann.rows).toBe(1300);
    await writer.close();
    const closed = await manifest();
    expect(closed.generation).toBe(lagging.generation);
    expect(closed.count).toBe(1310);
    expect(closed.ann.rows).toBe(1310);
    expect(closed.files.ann.name).not.toBe(lagging.files.ann.name);
    expect((await readdir(dir)).filter((n) => n.startsWith("ann-"))).toEqual([closed.files.ann.name]);
    const reopened = new MemoryStore({ dir, ann });
    await reopened.open(open);
    expect(reopened.openInfo).toEqual({ graph: "viewed" });
    expect(await reopened.stamp()).toBe(stamp);
    await expectFindsOwn(reopened, 1290, 1310);
    await reopened.close();
  });

  it("an overwrite or delete of a row the saved graph covers makes the next flush write the graph", async () => {
    const writer = new MemoryStore({ dir, ann });
    await writer.open(open);
    await writer.upsert(records(1000));
    await writer.flush();
    const first = await manifest();
    await writer.deleteByIds(["c10"]);
    await writer.flush();
    const after = await manifest();
    expect(after.files.ann.name).not.toBe(first.files.ann.name);
    expect(after.ann.rows).toBe(999);
    await writer.close();
    const reopened = new MemoryStore({ dir, ann });
    await reopened.open(open);
    expect(reopened.openInfo.graph).toBe("viewed");
    expect((await reopened.vectorSearch({ vector: makeVector("c10", D), topK: 10 })).map((h) => h.id)).not.toContain("c10");
    await reopened.close();
  });

  it("an ingest killed after checkpoints that deferred the graph loses nothing: the next open adds the missing rows and says why", async () => {
    const build = join(dir, "build");
    const compiled = spawnSync(process.execPath, [join(fixtures, "crash-writer.mjs"), "compile", build], { encoding: "utf8" });
    expect(compiled.status).toBe(0);
    const store = join(dir, "store");
    const reported = await new Promise<number>((done, fail) => {
      const child = spawn(process.execPath, [join(fixtures, "ingest-writer.mjs"), build, store], { stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      let out = "";
      let err = "";
      let count = -1;
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /^done (\d+)$/m.exec(out);
        if (m && count < 0) {
          count = Number(m[1]);
          child.kill("SIGKILL");
        }
      });
      child.on("exit", (code, signal) => (signal === "SIGKILL" ? done(count) : fail(new Error(`ingest writer exited with ${code}: ${err}`))));
    });
    expect(reported).toBe(1200);
    const reopened = new MemoryStore({ dir: store, ann: { threshold: 500, threads: 1 } });
    await reopened.open({ embedderId: "ingest/embedder@1", dimensions: 32 });
    expect(await reopened.count()).toBe(1200);
    expect(reopened.openInfo.graph).toBe("extended");
    expect(reopened.openInfo.reason).toMatch(/covers 1000 of 1200 rows .*: 200 added$/);
    for (let i = 1000; i < 1200; i += 7) {
      const top = await reopened.vectorSearch({ vector: makeVector(`ingest:${i}`, 32), topK: 1 });
      expect(top[0]?.id).toBe(`c${i}`);
    }
    // A reader's close writes nothing: the folder is as the killed writer left it.
    const names = (await readdir(store)).sort();
    await reopened.close();
    expect((await readdir(store)).sort()).toEqual(names);
  }, 60_000);
});
