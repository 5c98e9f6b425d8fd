import { describe, expect, it } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Bm25Index, type Bm25Variant } from "@hierdoc/keyword-search";
import { sampleParagraphs } from "./sample-paragraphs.js";

const here = dirname(fileURLToPath(import.meta.url));
/** The fixtures' documents: every paragraph of the sample corpus (as the format-1 files were written from). */
const corpusDocs = sampleParagraphs;

interface Expected {
  docs: number;
  queries: Array<{ query: string; top: Array<{ id: string; score: number }>; all: number[] }>;
}

/** The operations the format-1 fixtures went through before their save. */
async function sameHistory(variant: Bm25Variant): Promise<Bm25Index> {
  const docs = corpusDocs();
  const index = new Bm25Index({ variant });
  await index.upsert(docs);
  await index.remove([docs[3].id, docs[10].id]);
  await index.upsert([{ ...docs[5], text: docs[5].text + " additional pump words" }]);
  return index;
}

function answers(index: Bm25Index, expected: Expected) {
  return expected.queries.map((q) => ({ query: q.query, top: index.searchSync(q.query, { topK: 20 }), all: index.scoreDocuments(q.query) }));
}

describe.each(["lucene", "okapi"] as const)("BM25 compact layout (%s): the previous layout's scores, exactly", (variant) => {
  const fixture = join(here, "fixtures", `bm25-v1-${variant}`);
  // Scores and rankings the previous in-memory layout (per-document arrays, tombstones) gave before writing the fixture.
  const expected = JSON.parse(readFileSync(join(fixture, "expected.json"), "utf8")) as Expected;

  it("a format-1 file loads (converted on load) and scores every query as the old index did", async () => {
    expect(corpusDocs()).toHaveLength(expected.docs);
    const loaded = await Bm25Index.load(fixture);
    expect(loaded).not.toBeNull();
    expect(loaded!.fingerprint).toBe(`fixture-${variant}`);
    expect(loaded!.loadedFormat).toBe(1);
    expect(loaded!.documentCount).toBe(expected.docs - 2);
    expect(expected.queries.filter((q) => q.top.length > 0).length).toBeGreaterThan(6);
    expect(answers(loaded!, expected)).toEqual(expected.queries);
  });

  it("a format-2 file (no block bounds: computed on load) scores every query as the old index did", async () => {
    const loaded = (await Bm25Index.load(join(here, "fixtures", `bm25-v2-${variant}`)))!;
    expect(loaded.fingerprint).toBe(`fixture-v2-${variant}`);
    expect(loaded.loadedFormat).toBe(2);
    expect(loaded.outdatedFormat).toBe(true);
    expect(answers(loaded, expected)).toEqual(expected.queries);
  });

  it("a format-3 file (document ids in the JSON header) loads, reports its format as outdated, and scores as the old index did", async () => {
    const loaded = (await Bm25Index.load(join(here, "fixtures", `bm25-v3-${variant}`)))!;
    expect(loaded.fingerprint).toBe(`fixture-v3-${variant}`);
    expect([loaded.loadedFormat, loaded.outdatedFormat]).toEqual([3, true]);
    expect(answers(loaded, expected)).toEqual(expected.queries);
    // Saved again it is format 4 (ids packed after the arrays, none in the header) with the same answers.
    const dir = mkdtempSync(join(tmpdir(), "bm25-v3-"));
    try {
      await loaded.save(dir, { fingerprint: "again" });
      const bytes = readFileSync(join(dir, "bm25.bin"));
      expect(bytes.subarray(0, 8).toString("latin1")).toBe("HDBM25\u0000\u0004");
      const header = JSON.parse(bytes.subarray(12, 12 + bytes.readUInt32LE(8)).toString("utf8"));
      expect([header.ids, header.docs, header.idBytes]).toEqual([undefined, expected.docs - 2, expect.any(Number)]);
      const reloaded = (await Bm25Index.load(dir))!;
      expect([reloaded.loadedFormat, reloaded.outdatedFormat]).toEqual([4, false]);
      expect(answers(reloaded, expected)).toEqual(expected.queries);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a new index with the same history, and its format-4 save reloaded, score identically", async () => {
    const fresh = await sameHistory(variant);
    expect(answers(fresh, expected)).toEqual(expected.queries);
    const dir = mkdtempSync(join(tmpdir(), "bm25-layout-"));
    try {
      await fresh.save(dir, { fingerprint: "v2" });
      expect(readFileSync(join(dir, "bm25.bin")).subarray(0, 8).toString("latin1")).toBe("HDBM25\u0000\u0004");
      const reloaded = (await Bm25Index.load(dir))!;
      expect(reloaded.loadedFormat).toBe(4);
      expect(reloaded.outdatedFormat).toBe(false);
      expect(answers(reloaded, expected)).toEqual(expected.queries);
      // The saved index merged its delta: it continues from the segment it wrote, and scores the same.
      expect(answers(fresh, expected)).toEqual(expected.queries);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a loaded index stays incremental: adds and removes over the segment score as a fresh build of the result", async () => {
    const loaded = (await Bm25Index.load(fixture))!;
    const docs = corpusDocs();
    const extra = [
      { id: "new#1", text: "The pump station keeps a maintenance log for every valve inspection.", sourcePath: "new.md" },
      { id: docs[0].id, text: "Replaced text about harbour data and garden plots.", sourcePath: docs[0].sourcePath },
    ];
    await loaded.upsert(extra);
    await loaded.remove([docs[20].id, "new#1", docs[30].id]);
    await loaded.upsert([{ id: "new#2", text: "pump pump pump station data", sourcePath: "new.md" }]);
    const kept = docs.filter((d, i) => ![3, 10, 20, 30, 0].includes(i)).map((d) => (d.id === docs[5].id ? { ...d, text: d.text + " additional pump words" } : d));
    const rebuilt = new Bm25Index({ variant });
    await rebuilt.upsert([...kept, extra[1], { id: "new#2", text: "pump pump pump station data", sourcePath: "new.md" }]);
    for (const q of [...expected.queries.map((x) => x.query), "pump station", "harbour garden"]) {
      expect([q, loaded.searchSync(q, { topK: 15 })]).toEqual([q, rebuilt.searchSync(q, { topK: 15 })]);
    }
    expect(loaded.removeBySource("new.md")).toBe(1);
    expect(loaded.searchSync("pump pump", { topK: 50 }).some((h) => h.id.startsWith("new#"))).toBe(false);
  });
});

/** Rewrites a saved bm25.bin with its JSON header edited (arrays kept, padding redone). */
function editHeader(file: string, edit: (h: Record<string, unknown>) => void): void {
  const bytes = readFileSync(file);
  const jsonLen = bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.subarray(12, 12 + jsonLen).toString("utf8")) as Record<string, unknown>;
  const body = bytes.subarray(12 + jsonLen + ((4 - ((12 + jsonLen) % 4)) % 4));
  edit(header);
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const pad = Buffer.alloc((4 - ((12 + json.length) % 4)) % 4);
  writeFileSync(file, Buffer.concat([bytes.subarray(0, 8), len, json, pad, body]));
}

describe("BM25 format 4 block table and packed ids", () => {
  it("keeps ids of any script and length (multi-byte UTF-8, empty-looking, long) through a save and load", async () => {
    const ids = ["docs/zürich.md#§ 1", "法律/第一条#0", "emoji-📜#1", "a", "x".repeat(5000), "docs/zürich.md#§ 1(a)"];
    const index = new Bm25Index();
    index.upsertSync(ids.map((id, i) => ({ id, text: `harbour pilot register number${i}`, sourcePath: id.split("#")[0] })));
    const dir = mkdtempSync(join(tmpdir(), "bm25-ids-"));
    try {
      await index.save(dir);
      const loaded = (await Bm25Index.load(dir))!;
      expect(loaded.loadedFormat).toBe(4);
      expect(loaded.searchSync("harbour pilot", { topK: 10 }).map((h) => h.id).sort()).toEqual([...ids].sort());
      ids.forEach((id, i) => expect(loaded.searchSync(`number${i}`, { topK: 1 }).map((h) => h.id)).toEqual([id]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });


  it.each([
    ["an id byte count that does not match the file size", (h: Record<string, unknown>) => (h.idBytes = (h.idBytes as number) + 1), /size \d+ bytes, expected/],
    ["no document count", (h: Record<string, unknown>) => delete h.docs, /bad header \(document ids missing\)/],
    ["a block size that does not match the table", (h: Record<string, unknown>) => (h.blockSize = 1), /block table does not match the postings/],
    ["a block count that does not match the file size", (h: Record<string, unknown>) => (h.blocks = (h.blocks as number) + 1), /size \d+ bytes, expected/],
    ["no block size", (h: Record<string, unknown>) => delete h.blockSize, /bad block table size/],
  ])("rejects %s with E_INDEX_CORRUPT naming the file", async (_what, edit, message) => {
    const index = new Bm25Index();
    index.upsertSync(corpusDocs());
    const dir = mkdtempSync(join(tmpdir(), "bm25-blocks-"));
    try {
      await index.save(dir);
      editHeader(join(dir, "bm25.bin"), edit);
      const err = await Bm25Index.load(dir).then(() => null, (e: unknown) => e);
      expect(err).toMatchObject({ code: "E_INDEX_CORRUPT", message: expect.stringMatching(message) });
      expect((err as Error).message).toContain(join(dir, "bm25.bin"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
