import { describe, expect, it } from "@jest/globals";
import { makeRecord } from "@hierdoc/core/testing";
import { Catalog } from "@hierdoc/tool";

describe("Catalog", () => {
  it("keeps the fields it needs, sharing equal strings and lists between entries (shared lists frozen)", () => {
    const catalog = new Catalog();
    // Separate objects with equal values, as records parsed from a store are.
    const a = catalog.put(JSON.parse(JSON.stringify(makeRecord(1, { sectionId: "Section 1", sectionTitle: "Rules" }))));
    const b = catalog.put(JSON.parse(JSON.stringify(makeRecord(2, { sectionId: "Section 1", sectionTitle: "Rules", unitIds: [] }))));
    expect(catalog.get(a.id)).toEqual({
      id: a.id,
      sourcePath: "docs/alpha.md",
      chunkIndex: 1,
      sectionId: "Section 1",
      sectionTitle: "Rules",
      sectionAliases: ["Sec. 1", "§ 1"],
      unitIds: ["1(a)", "1(b)"],
      parentChain: ["Title I", "Chapter 1"],
      chunkType: "content",
      fileHash: makeRecord(1).fileHash,
      fileChunkCount: 2,
      start: 100,
      end: 100 + makeRecord(1).content.length,
    });
    expect(b.parentChain).toBe(a.parentChain);
    expect(Object.isFrozen(a.parentChain)).toBe(true);
    expect(b.unitIds).toEqual([]);
    expect(Object.keys(a)).not.toContain("content");
  });

  it("stays correct through many replacements and deletions (pooled values are dropped and rebuilt)", () => {
    const catalog = new Catalog();
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 5000; i++) {
        catalog.put(makeRecord(i, { sourcePath: `docs/f${i % 50}.md`, id: `c${i}`, fileHash: `h${round}-${i % 50}`, sectionAliases: [`A${round}.${i}`], parentChain: [`P${round}`, `Q${i}`] }));
      }
    }
    for (let i = 0; i < 5000; i += 2) catalog.delete(`c${i}`);
    expect(catalog.size).toBe(2500);
    expect(catalog.get("c7")).toMatchObject({ sourcePath: "docs/f7.md", fileHash: "h5-7", sectionAliases: ["A5.7"], parentChain: ["P5", "Q7"] });
    expect(catalog.get("c8")).toBeUndefined();
    expect(catalog.fileState("docs/f7.md")).toMatchObject({ fileHash: "h5-7", chunkIds: expect.arrayContaining(["c7", "c57"]) });
    expect(catalog.idsOf("docs/f8.md")).toEqual([]);
  });
});

describe("Catalog.load (a persisted catalog)", () => {
  it("serves loaded entries like put ones, keeps a given fingerprint until the next change, and pools again on put", () => {
    const built = new Catalog();
    for (let i = 0; i < 5; i++) built.put(makeRecord(i, { sectionId: `Section ${i % 2}` }));
    const entries = [...built.all()];
    const loaded = new Catalog();
    loaded.load(entries);
    expect(loaded.size).toBe(5);
    expect(loaded.sources()).toEqual(built.sources());
    expect(loaded.fileState("docs/alpha.md")).toEqual(built.fileState("docs/alpha.md"));
    expect(loaded.fingerprint()).toBe(built.fingerprint());

    const given = new Catalog();
    given.load(entries, "5:persisted");
    expect(given.fingerprint()).toBe("5:persisted");
    const added = given.put(JSON.parse(JSON.stringify(makeRecord(9, { sectionId: "Section 1" }))));
    expect(given.fingerprint()).not.toBe("5:persisted");
    // The new entry shares the loaded entries' strings and lists (pools rebuilt from them on the first put).
    expect(added.parentChain).toBe(entries[0].parentChain);
    given.delete(added.id);
    expect(given.fingerprint()).toBe(built.fingerprint());
  });
});
