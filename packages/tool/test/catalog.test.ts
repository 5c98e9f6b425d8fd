import { afterAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PackedStrings } from "@hierdoc/core";
import { makeRecord } from "@hierdoc/core/testing";
import { SectionResolver } from "@hierdoc/definitions";
import { ExactIndex } from "@hierdoc/keyword-search";
import { CATALOG_COLUMNS, Catalog, FlatCatalog, citationKey, readDerivedState, writeDerivedState } from "@hierdoc/tool";

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
      // The citation keys of its cross-references' targets (makeRecord(1) cites "Section 2").
      citedKeys: [...new Set(makeRecord(1).crossReferences.flatMap((x) => (x.targetSectionId ? [citationKey(x.targetSectionId)] : [])))].sort(),
    });
    expect(a.citedKeys).toEqual(["2"]);
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

describe("Catalog.loadFlat (a persisted catalog served in place from derived.bin)", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  /** A catalog of a few files, and the same catalog written to derived.bin and read back in place. */
  async function flatOf(built: Catalog): Promise<FlatCatalog> {
    const dir = mkdtempSync(join(tmpdir(), "hierdoc-flat-catalog-"));
    dirs.push(dir);
    await writeDerivedState(dir, {
      stamp: "s", fingerprint: built.fingerprint(), catalog: [...built.all()], definitions: [],
      exact: new ExactIndex().exportState(() => 0)!, resolver: new SectionResolver([]).exportState(() => 0)!,
    });
    return (await readDerivedState(dir))!.catalog;
  }

  function sample(): Catalog {
    const built = new Catalog();
    for (let i = 0; i < 40; i++) {
      built.put(makeRecord(i % 10, { id: `f${i % 4}/chunk-${String(i).padStart(2, "0")}-ü`, sourcePath: `docs/f${i % 4}.md`, fileHash: `h${i % 4}`, fileChunkCount: 10, sectionId: `Section ${i % 3}`, sectionAliases: i % 2 ? [`§ ${i % 3}`] : [], parentChain: [`Part ${i % 2}`] }));
    }
    return built;
  }

  it("answers get, all (store order), sources, idsOf, fileState and fingerprint as the catalog it was written from", async () => {
    const built = sample();
    const flat = await flatOf(built);
    const loaded = new Catalog();
    loaded.loadFlat(flat);
    expect(loaded.size).toBe(40);
    expect([...loaded.all()]).toEqual([...built.all()]);
    for (const e of built.all()) expect(loaded.get(e.id)).toEqual(e);
    expect(loaded.get("docs/none")).toBeUndefined();
    expect(loaded.sources()).toEqual(built.sources());
    for (const s of built.sources()) {
      expect(loaded.idsOf(s)).toEqual(built.idsOf(s));
      expect(loaded.fileState(s)).toEqual(built.fileState(s));
    }
    expect(loaded.idsOf("docs/none.md")).toEqual([]);
    expect(loaded.fingerprint()).toBe(built.fingerprint());
    // A pass that reads no id gets every other field.
    expect([...loaded.all({ ids: false })]).toEqual([...built.all()].map((e) => ({ ...e, id: "" })));
    // Entries of one section share their (frozen) lists.
    const [a, b] = loaded.idsOf("docs/f1.md").map((id) => loaded.get(id)!);
    expect(a.parentChain).toBe(b.parentChain);
    expect(Object.isFrozen(a.parentChain)).toBe(true);
  });

  it("keeps the fingerprint by the change alone: a loaded catalog's next fingerprint reads only the entries put or deleted", async () => {
    const built = sample();
    const flat = await flatOf(built);
    const loaded = new Catalog();
    loaded.loadFlat(flat, built.fingerprint());
    let reads = 0;
    const entryAt = flat.entryAt.bind(flat);
    flat.entryAt = ((p: number, id?: "decode" | "none") => (reads++, entryAt(p, id))) as typeof flat.entryAt;
    const gone = built.idsOf("docs/f2.md")[0];
    loaded.delete(gone);
    built.delete(gone);
    const added = makeRecord(3, { id: "new-chunk", sourcePath: "docs/new.md", sectionId: "Section 9" });
    loaded.put(added);
    built.put(added);
    expect(loaded.fingerprint()).toBe(built.fingerprint());
    expect(reads).toBe(1);
    // Order-free: the same entries put in another order have the same fingerprint; another file hash does not.
    const reversed = new Catalog();
    for (const e of [...built.all()].reverse()) reversed.put({ ...makeRecord(0), ...e });
    expect(reversed.fingerprint()).toBe(built.fingerprint());
    reversed.put({ ...makeRecord(0), ...built.get("new-chunk")!, fileHash: "other" });
    expect(reversed.fingerprint()).not.toBe(built.fingerprint());
    expect(built.fingerprint()).toMatch(/^40:s[0-9a-f]{32}$/);
  });

  it("stays a correct catalog through puts and deletes after loading (deletes marked, puts kept beside it)", async () => {
    const built = sample();
    const loaded = new Catalog();
    loaded.loadFlat(await flatOf(built), "40:persisted");
    loaded.delete("docs/none"); // an unknown id changes nothing
    expect(loaded.fingerprint()).toBe("40:persisted");
    const gone = built.idsOf("docs/f2.md");
    for (const id of gone) {
      loaded.delete(id);
      built.delete(id);
    }
    const added = makeRecord(3, { id: "new-chunk", sourcePath: "docs/new.md", sectionId: "Section 9" });
    loaded.put(added);
    built.put(added);
    // A stored chunk put again moves to the end of the store order with its new fields.
    const again = { ...makeRecord(4), id: built.idsOf("docs/f1.md")[0], sourcePath: "docs/f1.md", sectionTitle: "Replaced" };
    loaded.put(again);
    built.put(again);
    expect(loaded.get(again.id)?.sectionTitle).toBe("Replaced");
    expect(loaded.size).toBe(31);
    expect([...loaded.all()]).toEqual([...built.all()]);
    expect(loaded.sources()).toEqual(built.sources());
    expect(loaded.fileState("docs/f2.md")).toBeUndefined();
    expect(loaded.fingerprint()).toBe(built.fingerprint());
  });

  it("rejects columns that point outside its tables with E_INDEX_CORRUPT", async () => {
    const flat = await flatOf(sample());
    const ids = PackedStrings.pack(["a", "b"]);
    const good = { ids: new PackedStrings(ids.bytes, ids.offsets), order: Int32Array.from([0, 1]), strings: ["docs/a.md"], lists: new Int32Array(0) };
    const columns = new Int32Array(2 * CATALOG_COLUMNS).fill(-1);
    columns[0] = columns[CATALOG_COLUMNS] = 0;
    expect(new FlatCatalog({ ...good, columns }).sourceAt(1)).toBe("docs/a.md");
    const badString = Int32Array.from(columns);
    badString[2] = 7;
    expect(() => new FlatCatalog({ ...good, columns: badString })).toThrow(expect.objectContaining({ code: "E_INDEX_CORRUPT", message: expect.stringMatching(/string 7 out of range/) }));
    const badList = Int32Array.from(columns);
    badList[4] = 3;
    expect(() => new FlatCatalog({ ...good, columns: badList })).toThrow(/string list 3 out of range/);
    expect(() => new FlatCatalog({ ...good, columns, order: Int32Array.from([0, 5]) })).toThrow(/id order 5 out of range/);
    expect(flat.count).toBe(40);
  });
});
