import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { existsSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolConfigSchema } from "@hierdoc/core";
import { GDPR_MARKDOWN, hasGdpr } from "@hierdoc/core/testing";
import { HashEmbedder } from "@hierdoc/embeddings";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { DERIVED_DELTA_FILE_NAME, DERIVED_FILE_NAME, HierarchicalDocumentTool, readDerivedDelta, readDerivedState } from "@hierdoc/tool";
import { toBm25Format3 } from "./bm25-format3.js";
import { workspace } from "./helpers.js";

const config = ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: ".", ingest: { workers: 0 } });
const embedder = new HashEmbedder({ dimensions: 64 });

/** A real memory store whose full scans are counted. */
class CountingStore extends MemoryStore {
  scans = 0;
  override scan(): AsyncIterable<import("@hierdoc/core").ChunkRecord> {
    this.scans++;
    return super.scan();
  }
}

async function open(index: string, debug: string[] = []): Promise<{ tool: HierarchicalDocumentTool; store: CountingStore }> {
  const store = new CountingStore({ dir: join(index, "store") });
  const tool = await HierarchicalDocumentTool.open({ config, indexDir: index, store, embedder, onDebug: (m) => debug.push(m) });
  return { tool, store };
}

const QUERIES = ["Article 6", "personal data", "consent of the data subject", "pump station maintenance", "Section 2", "\"supervisory authority\""];

/** Everything search, section lookup, definitions, refs and stats answer, as one comparable value. */
async function answers(tool: HierarchicalDocumentTool): Promise<unknown> {
  const out: unknown[] = [tool.chunkCount, tool.sources(), tool.listDefinitions().map((d) => [d.term, d.sourcePath]), tool.define("personal data").length];
  for (const q of QUERIES) {
    for (const mode of ["hybrid", "keyword", "exact"] as const) {
      const r = await tool.search(q, { mode, topK: 10 });
      out.push(r.results.map((x) => [x.id, x.score, x.sectionId, x.definitions.map((d) => d.term), x.crossReferences.map((c) => [c.targetSectionId, c.external])]));
    }
  }
  for (const filters of [{ source: "**/harbour-data-act.md" }, { sectionPrefix: "Article", chunkType: "content" as const }, { source: ["**/*.md"], sectionPrefix: "Section 2" }]) {
    const r = await tool.search("data", { mode: "keyword", topK: 20, filters });
    out.push(r.results.map((x) => [x.id, x.score]));
  }
  for (const id of ["Article 6", "Article 4", "Chapter III › Section 1", "Section 2"]) {
    out.push(tool.sectionMatches(id).map((m) => [m.qualifiedId, m.chunkIds]));
    const refs = await tool.refs(id);
    out.push([refs.sectionId, refs.outgoing.map((x) => x.targetSectionId), refs.incoming.map((x) => [x.fromSectionId, x.targetSectionId])]);
  }
  const { dimensions, ...stats } = await tool.stats();
  out.push(stats, dimensions);
  return out;
}

describe(`persisted derived state (${DERIVED_FILE_NAME})${hasGdpr ? "" : " (GDPR part skipped: ../shared/corpora not present)"}`, () => {
  let ws: ReturnType<typeof workspace>;
  let reference: unknown;
  const opened: HierarchicalDocumentTool[] = [];
  beforeEach(async () => {
    ws = workspace();
    const { tool } = await open(ws.index);
    opened.push(tool);
    await tool.ingest(hasGdpr ? [ws.docs, GDPR_MARKDOWN] : [ws.docs]);
    reference = await answers(tool);
    await tool.close();
  });
  afterEach(async () => {
    for (const t of opened.splice(0)) await t.close().catch(() => undefined);
    ws.cleanup();
  });

  it("is written by ingest, and open then loads it without scanning the store; answers are identical", async () => {
    expect(existsSync(join(ws.index, DERIVED_FILE_NAME))).toBe(true);
    const { tool, store } = await open(ws.index);
    opened.push(tool);
    expect([tool.openInfo.derived, tool.openInfo.reason]).toEqual(["loaded", undefined]);
    expect(store.scans).toBe(0);
    expect(tool.chunkCount).toBeGreaterThan(10);
    expect(await answers(tool)).toEqual(reference);
  });

  it("a stale stamp (the store changed behind the tool's back) makes open scan the store, say why, and save a fresh one", async () => {
    // Another writer adds a record to the store directly: the store's generation moves on.
    const writer = new MemoryStore({ dir: join(ws.index, "store") });
    await writer.open({ embedderId: embedder.id, dimensions: embedder.dimensions });
    const [first] = await writer.get([(await firstId(writer))]);
    await writer.upsert([{ record: { ...first, id: "extra_chunk", sourcePath: "extra.md", fileHash: "x", chunkIndex: 0, fileChunkCount: 1, sectionId: "Article 999", sectionAliases: [], unitIds: [] }, vector: await embedder.embedQuery("extra") }]);
    await writer.flush();
    await writer.close();
    const debug: string[] = [];
    const { tool, store } = await open(ws.index, debug);
    opened.push(tool);
    expect(tool.openInfo.derived).toBe("scanned");
    expect(tool.openInfo.reason).toMatch(/^stale/);
    expect(debug.join("\n")).toMatch(/derived state scanned from the store: stale/);
    // One scan rebuilds the derived state; the keyword index, stale as well, takes the second.
    expect(store.scans).toBe(2);
    expect(tool.sources()).toContain("extra.md");
    expect(tool.sectionMatches("Article 999").map((m) => m.chunkIds)).toEqual([["extra_chunk"]]);
    const saved = await readDerivedState(ws.index);
    expect(saved?.catalog.positionOf("extra_chunk")).toBeDefined();
    expect(saved?.catalog.entryAt(saved.catalog.positionOf("extra_chunk")!)).toMatchObject({ id: "extra_chunk", sectionId: "Article 999", sourcePath: "extra.md" });
    await tool.close();
    const again = await open(ws.index);
    opened.push(again.tool);
    expect(again.tool.openInfo.derived).toBe("loaded");
    expect(again.store.scans).toBe(0);
    expect(again.tool.sectionMatches("Article 999").map((m) => m.chunkIds)).toEqual([["extra_chunk"]]);
  });

  it("a missing, truncated or foreign file falls back to the full scan with the same answers", async () => {
    const file = join(ws.index, DERIVED_FILE_NAME);
    const size = readFileSync(file).length;
    truncateSync(file, size - 4);
    const debug: string[] = [];
    const a = await open(ws.index, debug);
    opened.push(a.tool);
    expect(a.tool.openInfo.reason).toMatch(/^unreadable \(derived state .* is unusable: size \d+ bytes, expected \d+\)$/);
    expect(a.store.scans).toBe(1);
    expect(await answers(a.tool)).toEqual(reference);
    await a.tool.close();

    truncateSync(file, 20);
    const half = await open(ws.index);
    opened.push(half.tool);
    expect(half.tool.openInfo.reason).toMatch(/is unusable: truncated header/);
    expect(await answers(half.tool)).toEqual(reference);
    await half.tool.close();

    // A file of the previous format (version byte 1, everything in one JSON header) is rebuilt, not parsed.
    const header = Buffer.from(JSON.stringify({ format: "hierdoc-derived", version: 1 }));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length);
    writeFileSync(file, Buffer.concat([Buffer.from("HDDERIV\u0001", "latin1"), length, header]));
    const old = await open(ws.index);
    opened.push(old.tool);
    expect(old.tool.openInfo.reason).toMatch(/is unusable: format version 1, this hierdoc reads version 4\)$/);
    expect(old.store.scans).toBe(1);
    expect(await answers(old.tool)).toEqual(reference);
    await old.tool.close();
    const rewritten = await open(ws.index);
    opened.push(rewritten.tool);
    expect([rewritten.tool.openInfo.derived, rewritten.tool.openInfo.reason]).toEqual(["loaded", undefined]);
    await rewritten.tool.close();

    writeFileSync(file, "not a derived state");
    const b = await open(ws.index);
    opened.push(b.tool);
    expect(b.tool.openInfo.reason).toMatch(/not a hierdoc derived-state file/);
    await b.tool.close();

    rmSync(file);
    const c = await open(ws.index, debug);
    opened.push(c.tool);
    expect(c.tool.openInfo).toMatchObject({ derived: "scanned", reason: "no derived state saved" });
    expect(c.store.scans).toBe(1);
    expect(await answers(c.tool)).toEqual(reference);
  });

  it("openInfo and onDebug say how the keyword index and the store opened, and why bm25.bin was rebuilt", async () => {
    const debug: string[] = [];
    const a = await open(ws.index, debug);
    opened.push(a.tool);
    expect(a.tool.openInfo.keyword).toEqual({ state: "loaded" });
    // The memory store's own account of its open (graph none / viewed / extended, and why), copied as it is.
    expect(a.tool.openInfo.store).toEqual({ ...a.store.openInfo });
    expect(a.tool.openInfo.store?.graph).toEqual(expect.any(String));
    expect(debug).toEqual(expect.arrayContaining(["derived state loaded from derived.bin", "keyword index loaded", expect.stringMatching(/^store memory opened: graph \w+/), expect.stringMatching(/^opened in \d+ ms \(\d+ chunks\)$/)]));
    await a.tool.close();

    rmSync(join(ws.index, "keyword"), { recursive: true });
    const b = await open(ws.index, (debug.length = 0, debug));
    opened.push(b.tool);
    expect(b.tool.openInfo.keyword).toEqual({ state: "rebuilt", reason: "no keyword index saved" });
    expect(debug).toContain("keyword index rebuilt: no keyword index saved");
    await b.tool.close();

    // A keyword index saved for other contents (here: another file's chunks) is stale, and says for what.
    const file = join(ws.index, "keyword", "bm25.bin");
    const other = workspace();
    try {
      const t = await open(other.index);
      await t.tool.ingest([join(other.docs, "harbour-data-act.md")]);
      await t.tool.close();
      writeFileSync(file, readFileSync(join(other.index, "keyword", "bm25.bin")));
    } finally {
      other.cleanup();
    }
    const c = await open(ws.index);
    opened.push(c.tool);
    expect(c.tool.openInfo.keyword?.state).toBe("rebuilt");
    expect(c.tool.openInfo.keyword?.reason).toMatch(/^stale \(saved for lucene:\d+:\w+, the catalog is lucene:\d+:\w+\)$/);
    await c.tool.close();
    const d = await open(ws.index);
    opened.push(d.tool);
    expect(d.tool.openInfo.keyword).toEqual({ state: "loaded" });
  });

  it("a bm25.bin of the previous format (3: ids in the JSON header) loads converted, says so, and is rewritten in format 4", async () => {
    const file = join(ws.index, "keyword", "bm25.bin");
    writeFileSync(file, toBm25Format3(readFileSync(file)));
    const debug: string[] = [];
    const a = await open(ws.index, debug);
    opened.push(a.tool);
    expect(a.tool.openInfo.keyword).toEqual({ state: "converted", reason: "format 3 converted on load, rewritten in the current format" });
    expect(debug).toContain("keyword index converted: format 3 converted on load, rewritten in the current format");
    expect(await answers(a.tool)).toEqual(reference);
    await a.tool.close();
    expect(readFileSync(file).subarray(0, 8).toString("latin1")).toBe("HDBM25\u0000\u0004");
    const b = await open(ws.index);
    opened.push(b.tool);
    expect(b.tool.openInfo.keyword).toEqual({ state: "loaded" });
  });

  it("a re-ingest over a loaded derived.bin saves only the changes (derived-delta.json); a reopen loads both, scans nothing, and answers as a scan does", async () => {
    const before = await readDerivedState(ws.index);
    const baseBytes = readFileSync(join(ws.index, DERIVED_FILE_NAME));
    const { tool } = await open(ws.index);
    opened.push(tool);
    writeFileSync(join(ws.docs, "harbour-data-act.md"), "# Harbour Data Act\n\n## Section 77 — New rule\n\nEvery harbour keeps a pilot register, as Section 2 requires.\n");
    await tool.ingest([ws.docs]);
    const live = await answers(tool);
    await tool.close();
    // derived.bin is left as it was; the delta names it and carries the store's new stamp.
    expect(readFileSync(join(ws.index, DERIVED_FILE_NAME)).equals(baseBytes)).toBe(true);
    const delta = await readDerivedDelta(ws.index);
    expect(delta?.base).toEqual({ stamp: before?.stamp, fingerprint: before?.fingerprint });
    expect(delta?.stamp).not.toEqual(before?.stamp);
    expect(delta?.changedSources.map((s) => s.replace(/.*\//, ""))).toEqual(["harbour-data-act.md"]);
    expect(delta?.added.length).toBeGreaterThan(0);
    const next = await open(ws.index);
    opened.push(next.tool);
    expect([next.tool.openInfo.derived, next.tool.openInfo.reason, next.tool.openInfo.keyword?.state]).toEqual(["loaded", undefined, "loaded"]);
    expect(next.store.scans).toBe(0);
    expect(next.tool.sectionMatches("Section 77")).toHaveLength(1);
    expect((await next.tool.search("pilot register", { mode: "keyword" })).results[0]?.sourcePath).toMatch(/harbour-data-act\.md$/);
    const reopened = await answers(next.tool);
    await next.tool.close();
    // The same index opened by a full scan of the store (no derived state) answers the same.
    rmSync(join(ws.index, DERIVED_FILE_NAME));
    rmSync(join(ws.index, DERIVED_DELTA_FILE_NAME));
    const scanned = await open(ws.index);
    opened.push(scanned.tool);
    expect(scanned.store.scans).toBe(1);
    const reference = await answers(scanned.tool);
    expect(reopened).toEqual(reference);
    expect(live).toEqual(reference);
  });

  it("an ingest that changes nothing (every file unchanged) leaves derived.bin and its delta byte for byte as they were", async () => {
    const baseBytes = readFileSync(join(ws.index, DERIVED_FILE_NAME));
    const first = await open(ws.index);
    opened.push(first.tool);
    const report = await first.tool.ingest([ws.docs]);
    expect(report.files.every((f) => f.outcome === "unchanged")).toBe(true);
    await first.tool.close();
    expect(readFileSync(join(ws.index, DERIVED_FILE_NAME)).equals(baseBytes)).toBe(true);
    expect(existsSync(join(ws.index, DERIVED_DELTA_FILE_NAME))).toBe(false);
    // With a delta on disk (one changed file), a later no-op ingest leaves both files as they are.
    const second = await open(ws.index);
    opened.push(second.tool);
    writeFileSync(join(ws.docs, "harbour-data-act.md"), "# Harbour Data Act\n\n## Section 78 — Lights\n\nEvery harbour keeps its lights on.\n");
    await second.tool.ingest([ws.docs]);
    await second.tool.close();
    const deltaBytes = readFileSync(join(ws.index, DERIVED_DELTA_FILE_NAME));
    const third = await open(ws.index);
    opened.push(third.tool);
    expect(third.tool.openInfo.derived).toBe("loaded");
    await third.tool.ingest([ws.docs]);
    await third.tool.close();
    expect(readFileSync(join(ws.index, DERIVED_FILE_NAME)).equals(baseBytes)).toBe(true);
    expect(readFileSync(join(ws.index, DERIVED_DELTA_FILE_NAME)).equals(deltaBytes)).toBe(true);
  });

  it("an index saved whole by an ingest is then served from that file: the next ingest of the same process saves a delta", async () => {
    const other = workspace();
    try {
      const { tool } = await open(other.index);
      opened.push(tool);
      await tool.ingest([other.docs]);
      expect(existsSync(join(other.index, DERIVED_FILE_NAME))).toBe(true);
      expect(existsSync(join(other.index, DERIVED_DELTA_FILE_NAME))).toBe(false);
      writeFileSync(join(other.docs, "extra.md"), "# Extra Rules\n\n## Section 5 — Buoys\n\nBuoys are painted red, as Section 5 requires.\n");
      await tool.ingest([other.docs]);
      const live = await answers(tool);
      await tool.close();
      expect((await readDerivedDelta(other.index))?.changedSources.map((s) => s.replace(/.*\//, ""))).toEqual(["extra.md"]);
      const again = await open(other.index);
      opened.push(again.tool);
      expect([again.tool.openInfo.derived, again.tool.openInfo.delta?.sources, again.store.scans]).toEqual(["loaded", 1, 0]);
      expect(await answers(again.tool)).toEqual(live);
      await again.tool.close();
    } finally {
      other.cleanup();
    }
  });

  it("a delta that does not match its derived.bin or the store is not used (the reason says why)", async () => {
    const { tool } = await open(ws.index);
    opened.push(tool);
    writeFileSync(join(ws.docs, "harbour-data-act.md"), "# Harbour Data Act\n\n## Section 78 — Another rule\n\nPilots rest eight hours.\n");
    await tool.ingest([ws.docs]);
    await tool.close();
    const file = join(ws.index, DERIVED_DELTA_FILE_NAME);
    const delta = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...delta, base: { ...delta.base, fingerprint: "0:other" } }));
    const a = await open(ws.index);
    opened.push(a.tool);
    expect(a.tool.openInfo.reason).toMatch(/^stale \(saved for .*; derived-delta\.json was saved over another derived\.bin\)$/);
    expect(a.store.scans).toBe(1);
    expect(a.tool.sectionMatches("Section 78")).toHaveLength(1);
    await a.tool.close();
    // That open saved derived.bin whole again and removed the delta.
    expect(existsSync(file)).toBe(false);
    const b = await open(ws.index);
    opened.push(b.tool);
    expect([b.tool.openInfo.derived, b.store.scans]).toEqual(["loaded", 0]);
    await b.tool.close();
    writeFileSync(file, "{ not json");
    const c = await open(ws.index);
    opened.push(c.tool);
    expect(c.tool.openInfo.derived).toBe("loaded");
  });
});

describe("a tool opened from derived.bin, then changed", () => {
  it("removes a deleted file's chunks everywhere (catalog, exact index, search) and saves a state that reopens the same", async () => {
    const ws = workspace();
    try {
      const first = await open(ws.index);
      await first.tool.ingest([ws.docs]);
      await first.tool.close();
      const { tool } = await open(ws.index);
      expect([tool.openInfo.derived, tool.openInfo.reason]).toEqual(["loaded", undefined]);
      const gone = tool.sources().find((s) => s.endsWith("harbour-data-act.md"))!;
      expect(gone).toBeDefined();
      const before = tool.chunkCount;
      const goneHits = (t: HierarchicalDocumentTool) => t.search("harbour pilot register", { mode: "keyword", topK: 50 }).then((r) => r.results.filter((x) => x.sourcePath === gone).length);
      expect(await goneHits(tool)).toBeGreaterThan(0);
      rmSync(gone);
      const report = await tool.ingest([ws.docs]);
      expect(report.chunksDeleted).toBeGreaterThan(0);
      expect(tool.sources()).not.toContain(gone);
      expect(tool.chunkCount).toBe(before - report.chunksDeleted);
      expect(await goneHits(tool)).toBe(0);
      const answer = await answers(tool);
      await tool.close();
      const again = await open(ws.index);
      expect([again.tool.openInfo.derived, again.tool.openInfo.reason]).toEqual(["loaded", undefined]);
      expect(again.store.scans).toBe(0);
      expect(await answers(again.tool)).toEqual(answer);
      await again.tool.close();
    } finally {
      ws.cleanup();
    }
  });
});

async function firstId(store: MemoryStore): Promise<string> {
  for await (const r of store.scan()) return r.id;
  throw new Error("empty store");
}
