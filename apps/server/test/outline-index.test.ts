import { describe, expect, it } from "@jest/globals";
import type { ChunkRecord } from "@hierdoc/core";
import { makeRecord } from "@hierdoc/core/testing";
import { buildOutlines, OutlineIndex } from "@hierdoc/server";

async function* iterate(records: ChunkRecord[]): AsyncIterable<ChunkRecord> {
  for (const r of records) yield r;
}

const rec = (i: number, o: Partial<ChunkRecord>): ChunkRecord => makeRecord(i, { start: i * 100, ...o });

describe("buildOutlines", () => {
  it("orders sections by offset whatever the scan order, counts chunks, keeps repeated ids under different parents apart", async () => {
    const records = [
      rec(5, { sourcePath: "a.md", sectionId: "Section 1", sectionTitle: "Section 1 — Scope", parentChain: ["Act", "Chapter II"] }),
      rec(1, { sourcePath: "a.md", sectionId: "Section 1", sectionTitle: "Section 1 — Definitions", parentChain: ["Act", "Chapter I"] }),
      rec(2, { sourcePath: "a.md", sectionId: "Section 1", sectionTitle: "Section 1 — Definitions", parentChain: ["Act", "Chapter I"], chunkType: "definition" }),
      rec(0, { sourcePath: "a.md", sectionId: "Act", sectionTitle: "Act", parentChain: [] }),
      rec(3, { sourcePath: "b.txt", sectionId: "Rule 1", sectionTitle: "Rule 1", parentChain: [] }),
    ];
    const docs = await buildOutlines(iterate(records));
    expect([...docs.keys()].sort()).toEqual(["a.md", "b.txt"]);
    const a = docs.get("a.md")!;
    expect(a.title).toBe("Act");
    expect(a.chunks).toBe(4);
    expect(a.sections.map((s) => [s.sectionTitle, s.chunks, s.start])).toEqual([
      ["Act", 1, 0],
      ["Section 1 — Definitions", 2, 100],
      ["Section 1 — Scope", 1, 500],
    ]);
    expect(a.sections[1].chunkType).toBe("content");
    expect(docs.get("b.txt")!.title).toBe("Rule 1");
  });
});

describe("OutlineIndex", () => {
  it("scans once, rescans when the chunk count changes or after invalidate(), and shares one scan between concurrent calls", async () => {
    let records = [rec(0, { sourcePath: "a.md" }), rec(1, { sourcePath: "a.md" })];
    let scans = 0;
    const index = new OutlineIndex(
      () => {
        scans++;
        return iterate(records);
      },
      () => records.length,
    );
    const [x, y] = await Promise.all([index.documents(), index.outline("a.md")]);
    expect(scans).toBe(1);
    expect(x).toHaveLength(1);
    expect(y?.sections).toHaveLength(2);
    await index.documents();
    expect(scans).toBe(1);
    records = [...records, rec(2, { sourcePath: "b.md" })];
    expect((await index.documents()).map((d) => d.sourcePath)).toEqual(["a.md", "b.md"]);
    expect(scans).toBe(2);
    records = [rec(0, { sourcePath: "a.md" }), rec(1, { sourcePath: "a.md" }), rec(9, { sourcePath: "c.md" })];
    index.invalidate();
    expect((await index.documents()).map((d) => d.sourcePath)).toEqual(["a.md", "c.md"]);
    expect(scans).toBe(3);
    expect(await index.outline("b.md")).toBeUndefined();
  });

  it("a failed scan is not cached: the next call scans again", async () => {
    let fail = true;
    const index = new OutlineIndex(
      () =>
        (async function* () {
          if (fail) throw new Error("store unavailable");
          yield rec(0, { sourcePath: "a.md" });
        })(),
      () => 1,
    );
    await expect(index.documents()).rejects.toThrow("store unavailable");
    fail = false;
    expect(await index.documents()).toHaveLength(1);
  });
});
