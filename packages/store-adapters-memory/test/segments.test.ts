import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { crc32 } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type { ChunkRecord } from "@hierdoc/core";
import { cosine, expectHierdocError, makeRecord, makeStoreRecord, makeStoreRecords, makeVector } from "@hierdoc/core/testing";
import { MANIFEST_FILE, MemoryStore, snapshotRowVectors } from "@hierdoc/store-adapters-memory";

const open = { embedderId: "test/embedder@1", dimensions: 16 };
const fixture = resolve(process.cwd(), "packages/store-adapters-memory/test/fixtures/v2-index");
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hierdoc-segments-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const manifest = async (): Promise<{ version: number; generation: number; count: number; segments: Array<{ records: { name: string }; count: number }>; files: Record<string, { name: string }> }> =>
  JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8"));

async function all(store: MemoryStore): Promise<ChunkRecord[]> {
  const out: ChunkRecord[] = [];
  for await (const r of store.scan()) out.push(r);
  return out;
}

/** The records the v2 fixture holds: written by the version-2 store (before 2026-12-03) with 30 records, record 7 deleted (record 29 moved into its row). */
function fixtureRecords(): ChunkRecord[] {
  const records = Array.from({ length: 30 }, (_, i) => makeRecord(i, { sourcePath: `docs/${i % 3}.md`, ...(i === 4 ? { indexedText: "a custom indexed text" } : {}) }));
  records[7] = records.pop() as ChunkRecord;
  return records;
}

describe("MemoryStore version-2 folders", () => {
  it("open a folder written by the version-2 store without writing to it; the first flush converts it to version 3 keeping its records file", async () => {
    await cp(fixture, dir, { recursive: true });
    const before = (await readdir(dir)).sort();
    const oldRecords = await readFile(join(dir, before.find((n) => n.startsWith("records-")) as string));
    const store = new MemoryStore({ dir, ann: { threshold: 20, threads: 1 } });
    await store.open(open);
    const expected = fixtureRecords();
    expect(await store.count()).toBe(29);
    expect(await all(store)).toEqual(expected);
    expect(await store.get([expected[7].id, expected[4].id])).toEqual([expected[7], expected[4]]);
    const [hit] = await store.vectorSearch({ vector: makeVector(expected[12].id, 16), topK: 1 });
    expect(hit.id).toBe(expected[12].id);
    await store.close();
    // Reading is not writing: a read-only process leaves the folder as it was.
    expect((await readdir(dir)).sort()).toEqual(before);
    expect((await manifest()).version).toBe(2);

    const writer = new MemoryStore({ dir, ann: { threshold: 20, threads: 1 } });
    await writer.open(open);
    await writer.flush();
    const converted = await manifest();
    expect(converted).toMatchObject({ version: 3, generation: 2, count: 29 });
    expect(converted.segments.map((s) => s.records.name)).toEqual([before.find((n) => n.startsWith("records-"))]);
    expect(await readFile(join(dir, converted.segments[0].records.name))).toEqual(oldRecords);
    await writer.upsert([{ record: makeRecord(40), vector: makeVector(makeRecord(40).id, 16) }]);
    await writer.close();
    const again = new MemoryStore({ dir, ann: { threshold: 20, threads: 1 } });
    await again.open(open);
    expect(await all(again)).toEqual([...expected, makeRecord(40)]);
    await again.close();
  });
});

describe("MemoryStore records on disk", () => {
  async function damagedRecord(verifyBytesAtOpen: number): Promise<{ store: MemoryStore; file: string }> {
    const store = new MemoryStore({ dir });
    await store.open(open);
    await store.upsert(makeStoreRecords(6));
    await store.close();
    const m = await manifest();
    const file = m.segments[0].records.name;
    const text = await readFile(join(dir, file), "utf8");
    // Same length, one character changed inside record 2's content.
    const at = text.indexOf("Rule number 2");
    await writeFile(join(dir, file), text.slice(0, at) + "Rule numbeR 2" + text.slice(at + 13));
    return { store: new MemoryStore({ dir, verifyBytesAtOpen }), file };
  }

  it("past verifyBytesAtOpen, open reads no record and a damaged line fails when read, as E_INDEX_CORRUPT naming the file and record", async () => {
    const { store, file } = await damagedRecord(0);
    await store.open(open);
    const ids = makeStoreRecords(6).map((r) => r.record.id);
    expect((await store.get([ids[0], ids[5]])).map((r) => r.id)).toEqual([ids[0], ids[5]]);
    const err = await expectHierdocError(store.get([ids[2]]), { code: "E_INDEX_CORRUPT", adapter: "memory", operation: "get" });
    expect(err.message).toContain(file);
    expect(err.message).toContain(ids[2]);
    await expectHierdocError(all(store), { code: "E_INDEX_CORRUPT", adapter: "memory", operation: "scan" });
    await store.close();
  });

  it("below verifyBytesAtOpen (the default for small indexes), the same damage fails at open naming the file", async () => {
    const { store, file } = await damagedRecord(64 * 1024 * 1024);
    const err = await expectHierdocError(store.open(open), { code: "E_INDEX_CORRUPT", adapter: "memory", operation: "open" });
    expect(err.message).toContain(`${file}: checksum mismatch`);
  });

  it.each(["rows", "columns"])("a damaged %s file fails at open as E_INDEX_CORRUPT naming it", async (kind) => {
    const store = new MemoryStore({ dir });
    await store.open(open);
    await store.upsert(makeStoreRecords(4));
    await store.close();
    const file = (await manifest()).files[kind].name;
    const bytes = await readFile(join(dir, file));
    bytes[3] ^= 0xff;
    await writeFile(join(dir, file), bytes);
    const err = await expectHierdocError(new MemoryStore({ dir }).open(open), { code: "E_INDEX_CORRUPT", adapter: "memory", operation: "open" });
    expect(err.message).toContain(file);
  });
});

describe("MemoryStore id lookups", () => {
  it("a columns file listing an id twice (checksum updated to match) fails at open as E_INDEX_CORRUPT naming it", async () => {
    const store = new MemoryStore({ dir });
    await store.open(open);
    await store.upsert(makeStoreRecords(3));
    await store.close();
    const m = JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8"));
    const columns = JSON.parse(await readFile(join(dir, m.files.columns.name), "utf8"));
    columns.ids[2] = columns.ids[0];
    const bytes = Buffer.from(JSON.stringify(columns), "utf8");
    await writeFile(join(dir, m.files.columns.name), bytes);
    m.files.columns = { ...m.files.columns, bytes: bytes.length, crc32: crc32(bytes) };
    await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(m));
    const err = await expectHierdocError(new MemoryStore({ dir }).open(open), { code: "E_INDEX_CORRUPT", adapter: "memory", operation: "open" });
    expect(err.message).toContain(`${m.files.columns.name}: duplicate record ids`);
  });

  it("finds every id after many adds, swap-removes and re-adds (the id table grows and is rebuilt), across reopen", async () => {
    const store = new MemoryStore({ dir, ann: false });
    await store.open(open);
    const live = new Map<string, ChunkRecord>();
    for (let round = 0; round < 6; round++) {
      const batch = makeStoreRecords(400).map(({ record, vector }) => ({ record: { ...record, id: `${record.id}#${(round * 7 + record.chunkIndex) % 900}` }, vector }));
      await store.upsert(batch);
      for (const { record } of batch) live.set(record.id, record);
      const gone = [...live.keys()].filter((_, i) => i % 3 === round % 3);
      await store.deleteByIds(gone);
      for (const id of gone) live.delete(id);
      if (round % 2 === 1) await store.flush();
    }
    expect(await store.count()).toBe(live.size);
    expect(await store.get([...live.keys()])).toEqual([...live.values()]);
    expect(await store.get(["no such id"])).toEqual([]);
    await store.close();
    const again = new MemoryStore({ dir, ann: false });
    await again.open(open);
    expect(await again.get([...live.keys()])).toEqual([...live.values()]);
    await again.close();
  });
});

describe("MemoryStore incremental flushes and compaction", () => {
  it("rewrites a segment once more than deadShare of it is dead, keeping every live record", async () => {
    const store = new MemoryStore({ dir, compaction: { deadShare: 0.5 } });
    await store.open(open);
    await store.upsert(makeStoreRecords(10));
    await store.flush();
    const first = (await manifest()).segments[0].records.name;
    // 4 of 10 replaced: 40% dead, the segment stays and a second one holds the 4 new lines.
    const changed = (i: number) => makeStoreRecord(i, { record: { sourcePath: makeStoreRecords(10)[i].record.sourcePath, content: `changed ${i}` } });
    await store.upsert([0, 1, 2, 3].map(changed));
    await store.flush();
    expect((await manifest()).segments.map((s) => [s.records.name === first, s.count])).toEqual([[true, 10], [false, 4]]);
    // 2 more: 60% of the first segment is dead, its 4 live lines move into the new segment.
    await store.upsert([4, 5].map(changed));
    await store.flush();
    const m = await manifest();
    expect(m.segments.map((s) => s.count)).toEqual([4, 6]);
    expect(m.segments.map((s) => s.records.name)).not.toContain(first);
    expect(await readdir(dir)).not.toContain(first);
    await store.close();
    const again = new MemoryStore({ dir });
    await again.open(open);
    const expected = makeStoreRecords(10).map((r, i) => (i < 6 ? changed(i).record : r.record));
    expect(await again.get(expected.map((r) => r.id))).toEqual(expected);
    await again.close();
  });

  it("keeps at most maxSegments segments by merging the smallest into the new one", async () => {
    const store = new MemoryStore({ dir, compaction: { maxSegments: 3 } });
    await store.open(open);
    const records = makeStoreRecords(12);
    for (let i = 0; i < 12; i += 2) {
      await store.upsert(records.slice(i, i + 2));
      await store.flush();
      expect((await manifest()).segments.length).toBeLessThanOrEqual(3);
    }
    expect((await manifest()).segments.reduce((n, s) => n + s.count, 0)).toBe(12);
    await store.close();
    const again = new MemoryStore({ dir });
    await again.open(open);
    expect(await all(again)).toEqual(records.map((r) => r.record));
    await again.close();
  });

  it("snapshotRowVectors gives the vectors in the rows' order (that of scan() and the graph keys), across segments, deletes and v2 folders", async () => {
    const store = new MemoryStore({ dir, compaction: { maxSegments: 3 } });
    await store.open(open);
    const records = makeStoreRecords(12);
    for (let i = 0; i < 12; i += 3) {
      await store.upsert(records.slice(i, i + 3));
      await store.deleteByIds([records[i].record.id]);
      await store.flush();
    }
    const check = async (folder: string, expectedCount: number): Promise<void> => {
      const reader = new MemoryStore({ dir: folder });
      await reader.open(open);
      const scanned = await all(reader);
      await reader.close();
      const { count, dimensions, vectors } = snapshotRowVectors(folder);
      expect([count, dimensions]).toEqual([expectedCount, 16]);
      scanned.forEach((r, row) => expect(cosine(vectors.subarray(row * 16, row * 16 + 16), makeVector(r.id, 16))).toBeGreaterThan(0.9999));
    };
    await store.close();
    await check(dir, 8);
    const v2 = join(dir, "v2");
    await cp(fixture, v2, { recursive: true });
    await check(v2, 29);
  });

  it("a reader keeps reading segments a writer has compacted away; a writer whose segment was deleted by another writes its lines again", async () => {
    const writer = new MemoryStore({ dir });
    await writer.open(open);
    await writer.upsert(makeStoreRecords(8));
    await writer.flush();
    const reader = new MemoryStore({ dir });
    await reader.open(open);
    const other = new MemoryStore({ dir });
    await other.open(open);
    const first = (await manifest()).segments[0].records.name;
    await writer.upsert(makeStoreRecords(8).map(({ record }) => ({ record: { ...record, content: `v2 ${record.chunkIndex}` }, vector: makeVector(record.id, 16) })));
    await writer.flush();
    expect(await readdir(dir)).not.toContain(first);
    // The reader opened before the compaction: its descriptors still read the deleted file.
    expect(await reader.get(makeStoreRecords(8).map((r) => r.record.id))).toEqual(makeStoreRecords(8).map((r) => r.record));
    // `other` still points into the deleted segment: its flush copies those lines into its own segment.
    await other.upsert([makeStoreRecord(20)]);
    await other.flush();
    await Promise.all([reader.close(), other.close(), writer.close()]);
    const again = new MemoryStore({ dir });
    await again.open(open);
    expect(await all(again)).toEqual([...makeStoreRecords(8), makeStoreRecord(20)].map((r) => r.record));
    await again.close();
  });
});
