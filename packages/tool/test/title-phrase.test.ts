import { describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeRecord } from "@hierdoc/core/testing";
import { SectionResolver } from "@hierdoc/definitions";
import { ExactIndex } from "@hierdoc/keyword-search";
import { Catalog, TITLE_PHRASE_SCORE, TitlePhraseIndex, readDerivedState, writeDerivedState } from "@hierdoc/tool";

/** A catalog of GDPR-like sections, some over several chunks (in any order), and one filler title per number. */
function catalog(): Catalog {
  const c = new Catalog();
  const put = (id: string, sectionId: string, sectionTitle: string, chunkIndex: number, sourcePath = "gdpr.md") =>
    c.put(makeRecord(chunkIndex, { id, sourcePath, sectionId, sectionTitle, chunkIndex }));
  put("a17-1", "Article 17", "Article 17 — Right to erasure (‘right to be forgotten’)", 41);
  put("a17-0", "Article 17", "Article 17 — Right to erasure (‘right to be forgotten’)", 40);
  put("a16-0", "Article 16", "Article 16 — Right to rectification", 39);
  put("a20-0", "Article 20", "Article 20 — Right to data portability", 44);
  put("a21-0", "Article 21", "Article 21 — Right to object", 45);
  put("a22-0", "Article 22", "Article 22 — Automated individual decision-making, including profiling", 46);
  put("s1-0", "Section 1", "Section 1. Erasure of records", 1, "harbour.md");
  put("s2-0", "Section 2", "2", 2, "harbour.md");
  for (let i = 0; i < 200; i++) put(`f${i}`, `Rule ${i}`, `Rule ${i} — Filler heading number ${i}`, 100 + i, "filler.md");
  return c;
}

describe("TitlePhraseIndex", () => {
  it("finds the first chunk of each section whose title holds the query as a whole-word phrase", () => {
    const titles = new TitlePhraseIndex(catalog());
    expect(titles.lookup("right to erasure")).toEqual([{ id: "a17-0", score: TITLE_PHRASE_SCORE }]);
    expect(titles.lookup("Right to be forgotten")).toEqual([{ id: "a17-0", score: TITLE_PHRASE_SCORE }]);
    expect(titles.lookup("RIGHT TO OBJECT?")).toEqual([{ id: "a21-0", score: TITLE_PHRASE_SCORE }]);
    expect(titles.lookup("erasure").map((h) => h.id)).toEqual(["a17-0", "s1-0"]);
    expect(titles.lookup("decision making including profiling").map((h) => h.id)).toEqual(["a22-0"]);
    expect(titles.lookup("heading number 17").map((h) => h.id)).toEqual(["f17"]);
  });

  it("finds nothing for a word that is only part of a title word, words out of order, an id or a long query", () => {
    const titles = new TitlePhraseIndex(catalog());
    expect(titles.lookup("eras")).toEqual([]);
    expect(titles.lookup("erasure to right")).toEqual([]);
    expect(titles.lookup("Article 17")).toEqual([]);
    expect(titles.lookup("17")).toEqual([]);
    expect(titles.lookup("right to erasure of personal data in all cases")).toEqual([]);
    expect(titles.lookup("unknownword")).toEqual([]);
  });

  it("treats a phrase in more than three sections as too common (empty), and follows the catalog after invalidate", () => {
    const c = catalog();
    const titles = new TitlePhraseIndex(c);
    expect(titles.lookup("right to")).toEqual([]);
    expect(titles.lookup("filler heading")).toEqual([]);
    c.put(makeRecord(50, { id: "a18-0", sourcePath: "gdpr.md", sectionId: "Article 18", sectionTitle: "Article 18 — Right to restriction of processing" }));
    expect(titles.lookup("restriction of processing")).toEqual([]);
    titles.invalidate();
    expect(titles.lookup("restriction of processing").map((h) => h.id)).toEqual(["a18-0"]);
  });
});

describe("TitlePhraseIndex over a catalog served in place (derived.bin)", () => {
  it("answers as over the catalog it was written from, naming chunks by their ids", async () => {
    const built = catalog();
    const dir = mkdtempSync(join(tmpdir(), "hierdoc-title-phrase-"));
    try {
      await writeDerivedState(dir, {
        stamp: "s", fingerprint: built.fingerprint(), catalog: [...built.all()], definitions: [],
        exact: new ExactIndex().exportState(() => 0)!, resolver: new SectionResolver([]).exportState(() => 0)!,
      });
      const flat = new Catalog();
      flat.loadFlat((await readDerivedState(dir))!.catalog);
      const a = new TitlePhraseIndex(built);
      const b = new TitlePhraseIndex(flat);
      for (const q of ["right to erasure", "erasure", "heading number 17", "rectification", "right to", "eras"]) expect([q, b.lookup(q)]).toEqual([q, a.lookup(q)]);
      expect(b.lookup("heading number 199")).toEqual([{ id: "f199", score: TITLE_PHRASE_SCORE }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
