import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import type { ChunkRecord } from "@hierdoc/core";
import { expectHierdocError, makeRecord, makeStoreRecord, makeStoreRecords, makeVector, cosine } from "@hierdoc/core/testing";
import { MANIFEST_FILE, MemoryStore, TopK } from "@hierdoc/store-adapters-memory";

const open = { embedderId: "test/embedder@1", dimensions: 16 };
const pid = process.pid;
const rec = (gen: number): string => `records-${gen}-${pid}.jsonl`;
const vec = (gen: number): string => `vectors-${gen}-${pid}.f32`;
const rows = (gen: number): string => `rows-${gen}-${pid}.bin`;
const cols = (gen: number): string => `columns-${gen}-${pid}.json`;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hierdoc-memory-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function filledStore(n = 5): Promise<MemoryStore> {
  const store = new MemoryStore({ dir });
  await store.open(open);
  await store.upsert(makeStoreRecords(n));
  await store.flush();
  return store;
}

describe("MemoryStore snapshots", () => {
  it("writes a manifest, a records segment (JSONL) with its vectors, and the rows and columns files (named by generation and pid)", async () => {
    const store = await filledStore(5);
    expect((await readdir(dir)).sort()).toEqual([cols(1), MANIFEST_FILE, rec(1), rows(1), vec(1)]);
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8"));
    expect(manifest).toMatchObject({ format: "hierdoc-memory-store", version: 3, embedderId: open.embedderId, dimensions: 16, count: 5, generation: 1 });
    expect(manifest.segments).toMatchObject([{ records: { name: rec(1) }, vectors: { name: vec(1) }, count: 5 }]);
    expect((await readFile(join(dir, vec(1)))).length).toBe(5 * 16 * 4);
    expect((await readFile(join(dir, rows(1)))).length).toBe(5 * 28);
    expect(JSON.parse(await readFile(join(dir, cols(1)), "utf8")).ids).toEqual(makeStoreRecords(5).map((r) => r.record.id));
    expect((await readFile(join(dir, rec(1)), "utf8")).trim().split("\n")).toHaveLength(5);

    await store.flush();
    expect(JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8")).generation).toBe(1);
    // A delete rewrites only the rows and columns files: the segment stays.
    await store.deleteByIds([makeStoreRecord(0).record.id]);
    await store.flush();
    expect((await readdir(dir)).sort()).toEqual([cols(2), MANIFEST_FILE, rec(1), rows(2), vec(1)]);
    // New records go to a new segment holding only them.
    await store.upsert([makeStoreRecord(7), makeStoreRecord(8)]);
    await store.flush();
    expect((await readFile(join(dir, rec(3)), "utf8")).trim().split("\n").map((l) => JSON.parse(l).id)).toEqual([makeStoreRecord(7).record.id, makeStoreRecord(8).record.id]);
    expect(JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8")).segments.map((s: { count: number }) => s.count)).toEqual([5, 2]);
    await store.close();
    const again = new MemoryStore({ dir });
    await again.open(open);
    const expected = [...makeStoreRecords(5).slice(1), makeStoreRecord(7), makeStoreRecord(8)].map((r) => r.record);
    expect(await again.get(expected.map((r) => r.id))).toEqual(expected);
    expect(await again.count()).toBe(6);
    await again.close();
  });

  it("close() flushes pending writes", async () => {
    const store = new MemoryStore({ dir });
    await store.open(open);
    await store.upsert(makeStoreRecords(3));
    await store.close();
    const again = new MemoryStore({ dir });
    await again.open(open);
    expect(await again.count()).toBe(3);
  });

  it("cleans temp and unreferenced data files of dead writers on open, keeping the snapshot and live writers' files", async () => {
    await (await filledStore(4)).close();
    await writeFile(join(dir, "records-2-999999999.jsonl.999999999.tmp"), "half");
    await writeFile(join(dir, "manifest.json.999999999.tmp"), "{");
    await writeFile(join(dir, "vectors-0-999999999.f32"), "old");
    await writeFile(join(dir, "records-7-1.jsonl"), "a live writer (pid 1) may still reference this");
    await writeFile(join(dir, "notes.txt"), "not ours");
    const store = new MemoryStore({ dir });
    await store.open(open);
    expect(await store.count()).toBe(4);
    expect((await readdir(dir)).sort()).toEqual([cols(1), MANIFEST_FILE, "notes.txt", rec(1), "records-7-1.jsonl", rows(1), vec(1)].sort());
  });

  it.each([
    [vec(1), (b: Buffer) => b.subarray(0, b.length - 4), vec(1)],
    [rec(1), (b: Buffer) => Buffer.concat([b.subarray(0, 10), Buffer.from("X"), b.subarray(11)]), rec(1)],
    [MANIFEST_FILE, (b: Buffer) => b.subarray(0, 20), MANIFEST_FILE],
  ])("reports a damaged %s as E_INDEX_CORRUPT naming the file", async (file, damage, named) => {
    await (await filledStore(3)).close();
    await writeFile(join(dir, file), damage(await readFile(join(dir, file))));
    const err = await expectHierdocError(new MemoryStore({ dir }).open(open), { code: "E_INDEX_CORRUPT", adapter: "memory", operation: "open" });
    expect(err.message).toContain(named);
  });

  it("reports a missing data file as E_INDEX_CORRUPT", async () => {
    await (await filledStore(3)).close();
    await rm(join(dir, rec(1)));
    const err = await expectHierdocError(new MemoryStore({ dir }).open(open), { code: "E_INDEX_CORRUPT", adapter: "memory" });
    expect(err.message).toContain(rec(1));
  });

  it("names both embedder ids on a mismatch", async () => {
    await (await filledStore(2)).close();
    const err = await expectHierdocError(new MemoryStore({ dir }).open({ embedderId: "glove-100d", dimensions: 16 }), {
      code: "E_EMBEDDER_MISMATCH",
      adapter: "memory",
      operation: "open",
    });
    expect(err.message).toContain("glove-100d");
    expect(err.message).toContain("test/embedder@1");
  });
});

/** Writes a snapshot the way version 1 of the store did before 2026-12-02: every line carries indexedText. */
async function writeOldFormatSnapshot(records: ChunkRecord[], dims: number, lines = records.map((r) => JSON.stringify(r))): Promise<void> {
  const sha = (b: Buffer): string => createHash("sha256").update(b).digest("hex");
  const recordBytes = Buffer.from(lines.join("\n") + "\n", "utf8");
  const vectors = new Float32Array(records.length * dims);
  records.forEach((r, i) => vectors.set(makeVector(r.id, dims), i * dims));
  const vectorBytes = Buffer.from(vectors.buffer);
  const manifest = {
    format: "hierdoc-memory-store",
    version: 1,
    embedderId: open.embedderId,
    dimensions: dims,
    count: records.length,
    generation: 3,
    writtenAt: "2026-12-01T00:00:00.000Z",
    files: {
      records: { name: "records-3-1.jsonl", bytes: recordBytes.length, sha256: sha(recordBytes) },
      vectors: { name: "vectors-3-1.f32", bytes: vectorBytes.length, sha256: sha(vectorBytes) },
    },
  };
  await writeFile(join(dir, "records-3-1.jsonl"), recordBytes);
  await writeFile(join(dir, "vectors-3-1.f32"), vectorBytes);
  await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + "\n");
}

describe("MemoryStore record encoding", () => {
  const records = [
    makeRecord(0),
    makeRecord(1, { context: "" }),
    makeRecord(2, { indexedText: "a custom indexed text, not context + content" }),
    makeRecord(3, { content: "Ünïcode — “quotes” and\nnewlines\n\n" }),
  ];

  it("opens a snapshot written by the previous version (indexedText in every line) with identical records and vectors", async () => {
    await writeOldFormatSnapshot(records, 16);
    const store = new MemoryStore({ dir });
    await store.open(open);
    expect(await store.count()).toBe(4);
    expect(await store.get(records.map((r) => r.id))).toEqual(records);
    const scanned: ChunkRecord[] = [];
    for await (const r of store.scan()) scanned.push(r);
    expect(scanned).toEqual(records);
    const [hit] = await store.vectorSearch({ vector: makeVector(records[3].id, 16), topK: 1 });
    expect(hit.id).toBe(records[3].id);
    // Rewritten in the current format, it reopens to the same records.
    await store.upsert([{ record: makeRecord(9), vector: makeVector(9, 16) }]);
    await store.close();
    const converted = JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8"));
    expect(converted).toMatchObject({ version: 3, generation: 4, count: 5 });
    // Converted without rewriting the old records file: it is the first segment.
    expect(converted.segments[0]).toMatchObject({ records: { name: "records-3-1.jsonl" }, vectors: { name: "vectors-3-1.f32" }, count: 4 });
    const again = new MemoryStore({ dir });
    await again.open(open);
    expect(await again.get([...records.map((r) => r.id), makeRecord(9).id])).toEqual([...records, makeRecord(9)]);
    await again.close();
  });

  it("rejects a manifest of a format version it does not know as E_INDEX_CORRUPT", async () => {
    await writeOldFormatSnapshot(records, 16);
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8"));
    await writeFile(join(dir, MANIFEST_FILE), JSON.stringify({ ...manifest, version: 4 }));
    const err = await expectHierdocError(new MemoryStore({ dir }).open(open), { code: "E_INDEX_CORRUPT", adapter: "memory" });
    expect(err.message).toContain("unsupported format version 4");
  });

  it("reports a line that is not JSON (with a matching checksum) as E_INDEX_CORRUPT naming the line and file", async () => {
    const lines = records.map((r) => JSON.stringify(r));
    lines[2] = lines[2].slice(0, 40);
    await writeOldFormatSnapshot(records, 16, lines);
    const err = await expectHierdocError(new MemoryStore({ dir }).open(open), { code: "E_INDEX_CORRUPT", adapter: "memory", operation: "open" });
    expect(err.message).toContain("records-3-1.jsonl: line 3 is not valid JSON");
  });

  it("round-trips records longer than the read block (several MB) between small ones", async () => {
    const big = makeRecord(7, { content: "Ω long text ".repeat(700_000), context: "" });
    const all = [records[0], big, records[3], makeRecord(8, { content: "x".repeat(3_000_000) })];
    const store = new MemoryStore({ dir });
    await store.open(open);
    await store.upsert(all.map((record) => ({ record, vector: makeVector(record.id, 16) })));
    await store.close();
    const again = new MemoryStore({ dir });
    await again.open(open);
    expect(await again.get(all.map((r) => r.id))).toEqual(all);
    await again.close();
  });

  it("stores indexedText only when it is not the default context + blank line + content", async () => {
    const store = new MemoryStore({ dir });
    await store.open(open);
    await store.upsert(records.map((record) => ({ record, vector: makeVector(record.id, 16) })));
    await store.close();
    const lines = (await readFile(join(dir, rec(1)), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.indexedText)).toEqual([undefined, undefined, records[2].indexedText, undefined]);
    expect(lines.map((l) => l.content)).toEqual(records.map((r) => r.content));
  });

  it("copies records on upsert and returns fresh objects, so callers' mutations do not reach the store", async () => {
    const store = new MemoryStore();
    await store.open(open);
    const record = makeRecord(5);
    await store.upsert([{ record, vector: makeVector(5, 16) }]);
    record.content = "changed by the caller";
    const [first] = await store.get([record.id]);
    expect(first.content).toBe(makeRecord(5).content);
    first.definitions.length = 0;
    const [second] = await store.get([record.id]);
    expect(second).toEqual(makeRecord(5));
  });

  it("rejects a record that cannot be stored as JSON with E_INVALID_ARGUMENT, leaving the store unchanged", async () => {
    const store = new MemoryStore();
    await store.open(open);
    const cyclic = makeRecord(6) as ChunkRecord & { self?: unknown };
    cyclic.self = cyclic;
    await expectHierdocError(store.upsert([makeStoreRecord(1), { record: cyclic, vector: makeVector(6, 16) }]), { code: "E_INVALID_ARGUMENT", adapter: "memory" });
    expect(await store.count()).toBe(0);
  });
});

describe("MemoryStore behaviour", () => {
  it("fails clearly before open()", async () => {
    await expectHierdocError(new MemoryStore().count(), { code: "E_STORE", adapter: "memory", operation: "count" });
  });

  it("normalises vectors on insert", async () => {
    const store = new MemoryStore();
    await store.open({ embedderId: "x", dimensions: 4 });
    const rec = makeStoreRecord(1, { vector: new Float32Array([3, 0, 4, 0]) });
    await store.upsert([rec]);
    const [stored] = await store.getWithVectors([rec.record.id]);
    expect(Array.from(stored.vector)).toEqual([0.6000000238418579, 0, 0.800000011920929, 0]);
    const [hit] = await store.vectorSearch({ vector: new Float32Array([6, 0, 8, 0]), topK: 1 });
    expect(hit.score).toBeCloseTo(1, 6);
  });

  it("rejects NaN vectors and records without ids, leaving the store unchanged", async () => {
    const store = new MemoryStore();
    await store.open({ embedderId: "x", dimensions: 2 });
    const good = makeStoreRecord(1, { vector: new Float32Array([1, 0]) });
    await expectHierdocError(store.upsert([good, makeStoreRecord(2, { vector: new Float32Array([NaN, 1]) })]), { code: "E_INVALID_ARGUMENT" });
    await expectHierdocError(store.upsert([{ record: { ...good.record, id: "" }, vector: good.vector }]), { code: "E_INVALID_ARGUMENT" });
    expect(await store.count()).toBe(0);
  });

  it("matches a brute-force reference under random upserts, deletes and filtered searches", async () => {
    const dims = 5;
    const op = fc.oneof(
      fc.record({ kind: fc.constant("upsert" as const), idx: fc.integer({ min: 0, max: 30 }), src: fc.integer({ min: 0, max: 2 }), seed: fc.nat() }),
      fc.record({ kind: fc.constant("delete" as const), idx: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ kind: fc.constant("deleteSource" as const), src: fc.integer({ min: 0, max: 2 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), fc.nat(), fc.integer({ min: 1, max: 10 }), async (ops, qseed, k) => {
        const store = new MemoryStore();
        await store.open({ embedderId: "x", dimensions: dims });
        const model = new Map<string, { src: string; vector: Float32Array }>();
        for (const o of ops) {
          if (o.kind === "upsert") {
            const r = makeStoreRecord(o.idx, { vector: makeVector(o.seed, dims), record: { id: `c${o.idx}`, sourcePath: `s${o.src}` } });
            await store.upsert([r]);
            model.set(r.record.id, { src: `s${o.src}`, vector: r.vector });
          } else if (o.kind === "delete") {
            await store.deleteByIds([`c${o.idx}`]);
            model.delete(`c${o.idx}`);
          } else {
            await store.deleteBySource(`s${o.src}`);
            for (const [id, v] of model) if (v.src === `s${o.src}`) model.delete(id);
          }
        }
        expect(await store.count()).toBe(model.size);
        const q = makeVector(`q${qseed}`, dims);
        const expected = [...model.entries()]
          .filter(([, v]) => v.src !== "s1")
          .map(([id, v]) => ({ id, score: cosine(q, v.vector) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, k);
        const got = await store.vectorSearch({ vector: q, topK: k, filter: { sourcePaths: ["s0", "s2"] } });
        expect(got.map((h) => h.id)).toEqual(expected.map((e) => e.id));
        got.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i].score, 5));
        const everything = [...model.entries()]
          .map(([id, v]) => ({ id, score: cosine(q, v.vector) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, k);
        const unfiltered = await store.vectorSearch({ vector: q, topK: k });
        expect(unfiltered.map((h) => h.id)).toEqual(everything.map((e) => e.id));
        unfiltered.forEach((h, i) => expect(h.score).toBeCloseTo(everything[i].score, 5));
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});

describe("MemoryStore persistence under random edits", () => {
  it("reopens to exactly the last flushed state after random upserts, replacements, deletes and flushes", async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("upsert" as const), idx: fc.integer({ min: 0, max: 15 }), tag: fc.nat(99) }),
      fc.record({ kind: fc.constant("delete" as const), idx: fc.integer({ min: 0, max: 15 }) }),
      fc.record({ kind: fc.constant("flush" as const) }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const runDir = join(dir, `run-${run++}`);
        const store = new MemoryStore({ dir: runDir });
        await store.open({ embedderId: "x", dimensions: 4 });
        const live = new Map<string, string>();
        let flushed = new Map<string, string>();
        for (const o of ops) {
          if (o.kind === "upsert") {
            const content = `v${o.tag}`;
            await store.upsert([makeStoreRecord(o.idx, { vector: makeVector(content, 4), record: { id: `c${o.idx}`, content } })]);
            live.set(`c${o.idx}`, content);
          } else if (o.kind === "delete") {
            await store.deleteByIds([`c${o.idx}`]);
            live.delete(`c${o.idx}`);
          } else {
            await store.flush();
            flushed = new Map(live);
          }
        }
        const reopened = new MemoryStore({ dir: runDir });
        await reopened.open({ embedderId: "x", dimensions: 4 });
        const got = await reopened.getWithVectors([...Array(16).keys()].map((i) => `c${i}`));
        expect(Object.fromEntries(got.map((r) => [r.record.id, r.record.content]))).toEqual(Object.fromEntries(flushed));
        for (const r of got) expect(cosine(r.vector, makeVector(r.record.content, 4))).toBeCloseTo(1, 5);
      }),
      { numRuns: 40, seed: 11 },
    );
  }, 60_000);
});

describe("TopK", () => {
  it("keeps the k best, best first, ties broken by lower index", () => {
    const top = new TopK(3);
    [0.1, 0.9, 0.5, 0.9, 0.3, 0.7].forEach((s, i) => top.push(i, s));
    expect(top.sorted()).toEqual([
      { index: 1, score: 0.9 },
      { index: 3, score: 0.9 },
      { index: 5, score: 0.7 },
    ]);
  });
});
