import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { readFileSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { hasIdPrefix, type HierarchicalDocumentTool } from "@hierdoc/tool";
import { openTool, workspace } from "./helpers.js";

describe("HierarchicalDocumentTool over a persisted memory store", () => {
  let ws: ReturnType<typeof workspace>;
  let tool: HierarchicalDocumentTool | undefined;
  beforeEach(() => {
    ws = workspace();
  });
  afterEach(async () => {
    await tool?.close();
    tool = undefined;
    ws.cleanup();
  });

  it("ingests the sample corpus and finds a section by meaning, keyword and exact id", async () => {
    tool = await openTool(ws.index);
    const report = await tool.ingest([ws.docs]);
    expect(report.files.map((f) => f.outcome)).toEqual(["added", "added", "added"]);
    expect(report.totalChunks).toBeGreaterThan(10);

    const byId = await tool.search("Section 4(2)", { topK: 3 });
    expect(byId.results[0].sectionId).toMatch(/^Section 4/);
    expect(byId.results[0].scores.exact).not.toBeNull();

    const byWords = await tool.search("erasure of a port record on request", { topK: 5, mode: "keyword" });
    expect(byWords.results[0].sectionId).toMatch(/^Section 4/);

    for (const r of byWords.results) {
      const text = readFileSync(r.sourcePath, "utf8");
      expect(text.slice(r.start, r.end)).toBe(r.content);
      expect(r.rank).toBe(byWords.results.indexOf(r) + 1);
    }
  });

  it("attaches the corpus' definitions to results that use the defined terms", async () => {
    tool = await openTool(ws.index);
    await tool.ingest([ws.docs]);
    const defs = tool.define("port record");
    expect(defs.length).toBe(1);
    expect(defs[0].definitionText).toContain("identifies a vessel");
    const res = await tool.search("erasure of a port record", { topK: 3, mode: "keyword" });
    expect(res.results[0].definitions.map((d) => d.term.toLowerCase())).toContain("port record");
  });

  it("re-ingests only changed files, drops removed files from every index and keeps other results identical", async () => {
    tool = await openTool(ws.index);
    await tool.ingest([ws.docs]);
    const before = await tool.search("duty pump standby pump", { topK: 5 });

    const again = await tool.ingest([ws.docs]);
    expect(again.files.every((f) => f.outcome === "unchanged")).toBe(true);
    expect(again.chunksWritten).toBe(0);

    appendFileSync(join(ws.docs, "community-garden-rules.txt"), "\nBees are kept by the committee near the orchard.\n");
    const changed = await tool.ingest([ws.docs]);
    expect(changed.files.filter((f) => f.outcome === "updated").map((f) => f.sourcePath)).toEqual([join(ws.docs, "community-garden-rules.txt")]);
    expect(changed.files.filter((f) => f.outcome === "unchanged")).toHaveLength(2);
    const after = await tool.search("duty pump standby pump", { topK: 5 });
    expect(after.results.map((r) => r.id)).toEqual(before.results.map((r) => r.id));

    rmSync(join(ws.docs, "community-garden-rules.txt"));
    const removed = await tool.ingest([ws.docs]);
    expect(removed.files.filter((f) => f.outcome === "removed")).toHaveLength(1);
    const garden = await tool.search("compost bins watering hoses", { topK: 10, mode: "keyword" });
    expect(garden.results.some((r) => r.sourcePath.endsWith("community-garden-rules.txt"))).toBe(false);
    expect(tool.sources().some((s) => s.endsWith("community-garden-rules.txt"))).toBe(false);
  });

  it("reports bad files one by one, indexes the others, and never loses what was indexed", async () => {
    tool = await openTool(ws.index);
    await tool.ingest([ws.docs]);
    const chunksBefore = tool.chunkCount;
    const empty = join(ws.dir, "empty.md");
    const binary = join(ws.dir, "blob.txt");
    const latin1 = join(ws.dir, "latin1.txt");
    writeFileSync(empty, "");
    writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3, 0, 0, 0]));
    writeFileSync(latin1, Buffer.from("caf\xe9 au lait\n", "latin1"));
    const good = join(ws.dir, "good.md");
    writeFileSync(good, "# Extra\n\n## Article 1 — Scope\n\nThis extra document applies to lighthouses.\n");
    const report = await tool.ingest([join(ws.dir, "missing.md"), empty, binary, latin1, good]);
    const failed = report.files.filter((f) => f.outcome === "failed");
    expect(failed).toHaveLength(4);
    for (const f of failed) {
      expect(f.error?.message).toContain(f.sourcePath.split("/").pop()!);
      expect(f.error?.message.split("\n")).toHaveLength(1);
    }
    expect(report.files.find((f) => f.sourcePath === good)?.outcome).toBe("added");
    expect(tool.chunkCount).toBeGreaterThan(chunksBefore);
    const res = await tool.search("lighthouses", { topK: 1, mode: "keyword" });
    expect(res.results[0].sourcePath).toBe(good);
  });

  it("reopens the persisted index without re-ingesting and answers the same", async () => {
    tool = await openTool(ws.index);
    await tool.ingest([ws.docs]);
    const first = await tool.search("notify the Commissioner of a breach", { topK: 5 });
    await tool.close();
    const warnings: string[] = [];
    tool = await openTool(ws.index, {}, (m) => warnings.push(m));
    expect(tool.chunkCount).toBeGreaterThan(10);
    const second = await tool.search("notify the Commissioner of a breach", { topK: 5 });
    expect(second.results.map((r) => [r.id, r.score])).toEqual(first.results.map((r) => [r.id, r.score]));
    expect(warnings).toEqual([]);
  });

  it("rebuilds a keyword index that no longer matches the store, with a warning", async () => {
    tool = await openTool(ws.index);
    await tool.ingest([ws.docs]);
    const expected = await tool.search("mechanical seal replacement", { topK: 3, mode: "keyword" });
    await tool.close();
    rmSync(join(ws.index, "keyword"), { recursive: true, force: true });
    tool = await openTool(ws.index);
    const rebuilt = await tool.search("mechanical seal replacement", { topK: 3, mode: "keyword" });
    expect(rebuilt.results.map((r) => r.id)).toEqual(expected.results.map((r) => r.id));
  });

  it("filters by source glob, section prefix and chunk type", async () => {
    tool = await openTool(ws.index);
    await tool.ingest([ws.docs]);
    const manualOnly = await tool.search("pump", { topK: 20, filters: { source: "**/pumpstation-manual.md" } });
    expect(manualOnly.results.length).toBeGreaterThan(0);
    expect(manualOnly.results.every((r) => r.sourcePath.endsWith("pumpstation-manual.md"))).toBe(true);
    const part = await tool.search("record", { topK: 20, filters: { sectionPrefix: "Section 4", source: "**/harbour-data-act.md" } });
    expect(part.results.length).toBeGreaterThan(0);
    expect(part.results.every((r) => r.sectionId === "Section 4" || r.sectionId.startsWith("Section 4("))).toBe(true);
    const reqs = await tool.search("pump", { topK: 20, filters: { chunkType: "requirement" } });
    expect(reqs.results.length).toBeGreaterThan(0);
    expect(reqs.results.every((r) => r.chunkType === "requirement")).toBe(true);
  });

  it("matches section prefixes at id boundaries", () => {
    expect(hasIdPrefix("Section 4(2)", "Section 4")).toBe(true);
    expect(hasIdPrefix("Section 4", "Section 4")).toBe(true);
    expect(hasIdPrefix("Section 40", "Section 4")).toBe(false);
    expect(hasIdPrefix("9.3.1", "9.3")).toBe(true);
    expect(hasIdPrefix("9.31", "9.3")).toBe(false);
    expect(hasIdPrefix("9.3.1", "9.3.")).toBe(true);
  });

  it("rejects an empty query and an out-of-range top-k with E_INVALID_ARGUMENT", async () => {
    tool = await openTool(ws.index);
    await expect(tool.search("   ")).rejects.toMatchObject({ code: "E_INVALID_ARGUMENT" });
    await expect(tool.search("pump", { topK: 101 })).rejects.toMatchObject({ code: "E_INVALID_ARGUMENT" });
    await expect(tool.search("pump", { topK: 0 })).rejects.toMatchObject({ code: "E_INVALID_ARGUMENT" });
  });
});
