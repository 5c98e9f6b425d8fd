// The segment a save or compaction writes is merged straight from the postings. It must hold exactly what the
// previous merge (rebuilding from every live document's terms, kept here as the reference) built.
import { describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bm25Index } from "@hierdoc/keyword-search";
import { buildSegment, type Bm25Segment, type ForwardDoc } from "../src/bm25-segment.js";
import { sampleParagraphs } from "./sample-paragraphs.js";

/** The index's private state the reference merge reads. */
interface Internals {
  terms: string[];
  ids: string[];
  sources: string[];
  live: Uint8Array;
  lens: Uint32Array;
  df: Uint32Array;
  liveCount: number;
  forward(slot: number): ForwardDoc;
  snapshot(): { terms: string[]; ids: string[]; sources: string[]; lens: Uint32Array; segment: Bm25Segment };
}

/** The merge as it was before (every live document's terms re-read and the segment rebuilt from them). */
function referenceSnapshot(index: Bm25Index) {
  const x = index as unknown as Internals;
  const termMap = new Int32Array(x.terms.length).fill(-1);
  const terms: string[] = [];
  for (let t = 0; t < x.terms.length; t++) {
    if (x.df[t] > 0) {
      termMap[t] = terms.length;
      terms.push(x.terms[t]);
    }
  }
  const ids: string[] = [];
  const sources: string[] = [];
  const lens = new Uint32Array(x.liveCount);
  const docs: ForwardDoc[] = [];
  for (let s = 0; s < x.ids.length; s++) {
    if (!x.live[s]) continue;
    lens[ids.length] = x.lens[s];
    ids.push(x.ids[s]);
    sources.push(x.sources[s]);
    docs.push(x.forward(s));
  }
  return { terms, ids, sources, lens, segment: buildSegment(docs, terms.length, lens, termMap) };
}

/** The written parts of a snapshot (the per-document side is not written), with each array's type. */
function written(snap: { terms: string[]; ids: string[]; sources: string[]; lens: ArrayLike<number>; segment: Bm25Segment }) {
  const seg = snap.segment;
  const arr = (a: ArrayLike<number>) => ({ type: a.constructor.name, values: Array.from(a) });
  return {
    terms: snap.terms, ids: snap.ids, sources: snap.sources, lens: arr(snap.lens), docs: seg.docs, termCount: seg.terms,
    postStart: arr(seg.postStart), postDocs: arr(seg.postDocs), postTfs: arr(seg.postTfs), maxTf: arr(seg.maxTf), minLen: arr(seg.minLen),
    blocks: { size: seg.blocks.size, start: arr(seg.blocks.start), maxTf: arr(seg.blocks.maxTf), minLen: arr(seg.blocks.minLen) },
  };
}

const merged = (index: Bm25Index) => written((index as unknown as Internals).snapshot());

/** A deterministic pseudo-random sequence (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("BM25 segment merge (save and compaction)", () => {
  it.each(["lucene", "okapi"] as const)("%s: adds, removes, replacements, saves and reloads merge to the reference's arrays", async (variant) => {
    const dir = mkdtempSync(join(tmpdir(), "hierdoc-bm25-merge-"));
    try {
      const docs = sampleParagraphs();
      expect(docs.length).toBeGreaterThan(40);
      const rnd = random(variant === "lucene" ? 7 : 11);
      let index = new Bm25Index({ variant });
      index.upsertSync(docs.slice(0, 20));
      let checks = 0;
      for (let round = 0; round < 12; round++) {
        // Some new documents, some removed, some replaced with other text (a new slot for the same id).
        index.upsertSync(docs.filter(() => rnd() < 0.15));
        await index.remove(docs.filter(() => rnd() < 0.1).map((d) => d.id));
        index.upsertSync(docs.filter(() => rnd() < 0.05).map((d) => ({ ...d, text: `${d.text} amended round ${round} harbour` })));
        expect(merged(index)).toEqual(written(referenceSnapshot(index)));
        checks++;
        if (round % 3 === 2) {
          await index.save(dir);
          if (round % 2 === 0) index = (await Bm25Index.load(dir))!;
          // After a save the index continues from the merged segment: one more change, merged again.
          await index.remove([docs[round].id]);
          expect(merged(index)).toEqual(written(referenceSnapshot(index)));
          checks++;
        }
      }
      expect(checks).toBe(16);
      // Everything removed but one document: the terms only the removed documents used are dropped.
      await index.remove(docs.slice(1).map((d) => d.id));
      index.upsertSync([docs[0]]);
      const last = merged(index);
      expect(last).toEqual(written(referenceSnapshot(index)));
      expect(last.ids).toEqual([docs[0].id]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("after a load, documents only added (and some of them removed again) merge to the reference's arrays: the segment's terms copied as blocks", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hierdoc-bm25-merge-"));
    try {
      const docs = sampleParagraphs();
      const half = Math.floor(docs.length / 2);
      const first = new Bm25Index();
      first.upsertSync(docs.slice(0, half));
      await first.save(dir);
      const index = (await Bm25Index.load(dir))!;
      index.upsertSync(docs.slice(half, half + 10));
      expect(merged(index)).toEqual(written(referenceSnapshot(index)));
      // Removing documents added since the load leaves the segment's slots as they are.
      index.removeSync([docs[half + 2].id, docs[half + 7].id]);
      expect(merged(index)).toEqual(written(referenceSnapshot(index)));
      // Removing a loaded document renumbers the slots after it.
      index.removeSync([docs[3].id]);
      expect(merged(index)).toEqual(written(referenceSnapshot(index)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps four-byte term frequencies when a term occurs more than 65,535 times in a document", () => {
    const index = new Bm25Index();
    index.upsertSync([
      { id: "a", text: "pilot ".repeat(70_000) + "harbour", sourcePath: "a" },
      { id: "b", text: "harbour pilot register", sourcePath: "b" },
      { id: "c", text: "register", sourcePath: "c" },
    ]);
    index.removeSync(["c"]);
    const got = merged(index);
    expect(got.postTfs.type).toBe("Uint32Array");
    expect(Math.max(...got.postTfs.values)).toBe(70_000);
    expect(got).toEqual(written(referenceSnapshot(index)));
  });
});

describe("removals after a load (document frequencies settled before the next read)", () => {
  it("interleaved with searches, score as a fresh build of the same documents: settled by passes over the postings, then through the per-document side", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hierdoc-bm25-settle-"));
    try {
      const docs = sampleParagraphs();
      const first = new Bm25Index();
      first.upsertSync(docs);
      await first.save(dir);
      const index = (await Bm25Index.load(dir))!;
      const live = new Map(docs.map((d) => [d.id, d]));
      const queries = ["harbour pilot", "pump station maintenance", "garden plot rules", "data protection register"];
      for (let round = 0; round < 5; round++) {
        // One loaded document removed, one replaced (removed and added again with other text).
        index.removeSync([docs[round * 3 + 1].id]);
        live.delete(docs[round * 3 + 1].id);
        const replaced = { ...docs[round * 3 + 2], text: `pump station harbour round ${round}` };
        index.upsertSync([replaced]);
        live.set(replaced.id, replaced);
        const fresh = new Bm25Index();
        fresh.upsertSync([...live.values()]);
        expect(index.documentCount).toBe(fresh.documentCount);
        // Each read settles the removals first: which read comes first changes by round.
        const reads = [
          () => queries.map((q) => index.searchSync(q, { topK: 15 })),
          () => ["harbour", "pump", "garden", "station"].map((term) => index.idf(term)),
          () => queries.map((q) => index.scoreDocuments(q, [...live.keys()])),
        ];
        const expected = [
          queries.map((q) => fresh.searchSync(q, { topK: 15 })),
          ["harbour", "pump", "garden", "station"].map((term) => fresh.idf(term)),
          queries.map((q) => fresh.scoreDocuments(q, [...live.keys()])),
        ];
        for (let k = 0; k < 3; k++) {
          const r = (round + k) % 3;
          expect([round, r, reads[r]()]).toEqual([round, r, expected[r]]);
        }
      }
      // Unsettled removals are settled by a merge too: the saved file loads with the same answers.
      index.removeSync([docs[40].id]);
      live.delete(docs[40].id);
      await index.save(dir);
      const reloaded = (await Bm25Index.load(dir))!;
      const fresh = new Bm25Index();
      fresh.upsertSync([...live.values()]);
      for (const q of queries) expect(reloaded.scoreDocuments(q, [...live.keys()])).toEqual(fresh.scoreDocuments(q, [...live.keys()]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
