import { describe, expect, it } from "@jest/globals";
import type { Chunk, Section } from "@hierdoc/core";
import { SectionResolver, documentCodeTitle, extractCrossReferences, parseCodeTitle, type ResolverEntry } from "@hierdoc/definitions";
import { fixture } from "./fixtures.js";

/** Aliases the chunker gives a § section under "Title N" ("5 U.S.C. 553", "5 USC 553"). */
function uscAliases(title: string, num: string): string[] {
  return [num, `Section ${num}`, `${title} U.S.C. ${num}`, `${title} USC ${num}`];
}

/** A small synthetic US Code title: a "Title N—" heading, a chapter and § sections. */
function usTitle(title: string, sourcePath: string, sections: Array<[string, string]>, chapter = "5") {
  const text = [
    `# Title ${title}— SYNTHETIC TITLE ${title}`,
    "",
    `## CHAPTER ${chapter}— PROCEDURE`,
    "",
    ...sections.flatMap(([num, body]) => [`### § ${num}. Heading ${num}`, "", body, ""]),
  ].join("\n");
  return fixture(
    text,
    [
      { id: `Title ${title}`, title: `Title ${title}— SYNTHETIC TITLE ${title}`, level: 1, aliases: [`title ${title}`] },
      { id: `Chapter ${chapter}`, title: `CHAPTER ${chapter}— PROCEDURE`, level: 2, aliases: [`chapter ${chapter}`] },
      ...sections.map(([num]) => ({ id: `§ ${num}`, title: `§ ${num}. Heading ${num}`, level: 3, aliases: uscAliases(title, num) })),
    ],
    { sourcePath },
  );
}

function entries(parsed: { sections: Section[]; chunks: Chunk[] }): ResolverEntry[] {
  return parsed.sections.map((s, i) => ({
    sourcePath: parsed.chunks[i].sourcePath,
    sectionId: s.sectionId,
    aliases: s.aliases,
    chunkId: parsed.chunks[i].id,
  }));
}

const title5 = usTitle("5", "usc05.md", [
  ["552", "Each agency shall make available to the public information as follows: (b) This section does not apply."],
  ["553", "This section applies to rule making. Notice of proposed rule making shall be published."],
]);

const title42 = usTitle("42", "usc42.md", [
  ["553", "The Secretary may make grants. See section 553 of title 5, 5 U.S.C. 552(b), section 553 of this title, section 553, section 9 of title 18 and chapter 5 of title 5."],
  ["11301", "Findings. Rule making under 5 U.S.C. 553 applies."],
]);

function resolved(index: Array<ReturnType<typeof usTitle>>, from = title42) {
  const resolver = new SectionResolver(index.flatMap(entries));
  const refs = extractCrossReferences(from.doc, from.sections, from.chunks);
  return refs.map((r) => {
    const x = resolver.resolve(r, from.doc.sourcePath);
    return { text: r.text, from: r.fromSectionId, target: x.targetSectionId, chunk: x.targetChunkId ?? null, external: x.external, cited: x.citedDocument ?? null };
  });
}

describe("parseCodeTitle", () => {
  it("reads the cited documents the extractor writes and rejects others", () => {
    expect(parseCodeTitle("title 5")).toEqual({ code: "usc", title: "5" });
    expect(parseCodeTitle("Title 50A")).toEqual({ code: "usc", title: "50A" });
    expect(parseCodeTitle("42 U.S.C.")).toEqual({ code: "usc", title: "42" });
    expect(parseCodeTitle("title 5, United States Code")).toEqual({ code: "usc", title: "5" });
    expect(parseCodeTitle("27 CFR")).toEqual({ code: "cfr", title: "27" });
    expect(parseCodeTitle("27 C.F.R.")).toEqual({ code: "cfr", title: "27" });
    for (const other of ["such title", "HTTP/1.1", "RFC 9110", "this title", "title"]) expect(parseCodeTitle(other)).toBeNull();
  });
});

describe("documentCodeTitle", () => {
  it("reads the title from the chunker's citation aliases, else from one top 'Title N' heading", () => {
    expect(documentCodeTitle(title5.sections)).toEqual({ code: "usc", title: "5" });
    expect(documentCodeTitle([{ sectionId: "§ 478.11", aliases: ["27 CFR 478.11"], parentChain: ["Title 27— Alcohol, Tobacco Products, and Firearms"] }])).toEqual({ code: "cfr", title: "27" });
    expect(documentCodeTitle([{ sectionId: "§ 101", aliases: [], parentChain: ["Title 35— PATENTS"] }])).toEqual({ code: "usc", title: "35" });
    expect(documentCodeTitle([{ sectionId: "x", title: "Title 40—Protection of Environment (Code of Federal Regulations)" }])).toEqual({ code: "cfr", title: "40" });
  });

  it("is null for documents that are no single title", () => {
    expect(documentCodeTitle([{ sectionId: "Article 6", aliases: ["Art. 6"], title: "Article 6 — Lawfulness" }])).toBeNull();
    expect(documentCodeTitle([{ sectionId: "Title 1", title: "Title 1 — General" }, { sectionId: "Title 2", title: "Title 2 — Rules" }])).toBeNull();
    expect(documentCodeTitle([{ sectionId: "§ 1", aliases: ["4 U.S.C. 1"] }, { sectionId: "§ 2", aliases: ["5 U.S.C. 2"] }])).toBeNull();
  });
});

describe("citations of another US Code title", () => {
  it("resolve into the cited title when it is indexed, never into the citing title's same-numbered section", () => {
    const r = resolved([title5, title42]);
    const view = r.map((x) => [x.text, x.target, x.chunk, x.external]);
    expect(view).toEqual([
      ["5 U.S.C. 552(b)", "§ 552", "usc05.md_chunk_2", false],
      ["section 553 of title 5", "§ 553", "usc05.md_chunk_3", false],
      ["section 553 of this title", "§ 553", "usc42.md_chunk_2", false],
      ["section 553", "§ 553", "usc42.md_chunk_2", false],
      ["section 9 of title 18", "§ 9", null, true],
      ["chapter 5 of title 5", "Chapter 5", "usc05.md_chunk_1", false],
      ["5 U.S.C. 553", "§ 553", "usc05.md_chunk_3", false],
    ]);
    expect(r.find((x) => x.text === "section 9 of title 18")?.cited).toBe("title 18");
  });

  it("stay external, with the cited title, when that title is not indexed", () => {
    const r = resolved([title42]);
    const toTitle5 = r.filter((x) => /title 5|5 U\.S\.C\./.test(x.text));
    expect(toTitle5.length).toBe(4);
    for (const x of toTitle5) {
      expect(x).toMatchObject({ external: true, chunk: null, cited: "title 5" });
    }
    expect(r.find((x) => x.text === "section 553 of this title")).toMatchObject({ external: false, chunk: "usc42.md_chunk_2" });
  });

  it("do not resolve into a file whose name only starts like the title ('title 5' is not 'title 50.md')", () => {
    const title50 = usTitle("50", "title 50.md", [["553", "Intelligence."]]);
    const r = resolved([title50, title42]);
    expect(r.find((x) => x.text === "section 553 of title 5")).toMatchObject({ external: true, chunk: null, cited: "title 5" });
  });

  it("use names a caller gives a source, and keep same-document-first for citations without a title", () => {
    const plain = fixture("## § 553. Local\n\nText.\n", [{ id: "§ 553", title: "§ 553. Local", level: 2 }], { sourcePath: "apa.md" });
    const resolver = new SectionResolver([
      ...entries(title42),
      ...entries(plain).map((e) => ({ ...e, documentNames: ["5 U.S.C."] })),
    ]);
    expect(resolver.namesOf("apa.md")).toEqual(["5 u.s.c."]);
    expect(resolver.namesOf("usc42.md")).toEqual(["42 u.s.c."]);
    const ref = { text: "section 553 of title 5", fromSectionId: "§ 553", targetSectionId: "§ 553", external: true, citedDocument: "title 5" };
    expect(resolver.resolve(ref, "usc42.md")).toMatchObject({ targetChunkId: "apa.md_chunk_0", external: false });
    const local = { text: "section 553", fromSectionId: "§ 553", targetSectionId: "§ 553", external: false };
    expect(resolver.resolve(local, "usc42.md").targetChunkId).toBe("usc42.md_chunk_2");
    expect(resolver.resolve(local, "apa.md").targetChunkId).toBe("apa.md_chunk_0");
  });
});

describe("a CFR title citing the US Code title of the same number", () => {
  it("keeps '27 U.S.C. 205' external and '27 CFR 478.11' internal", () => {
    const text = "# Title 27— Alcohol, Tobacco Products, and Firearms\n\n## § 478.11 Meaning of terms.\n\nAs in 27 U.S.C. 205, section 205 of title 27 and 27 CFR 478.11.\n";
    const f = fixture(
      text,
      [
        { id: "Title 27", title: "Title 27— Alcohol, Tobacco Products, and Firearms", level: 1 },
        { id: "§ 478.11", title: "§ 478.11 Meaning of terms.", level: 2, aliases: ["478.11", "27 CFR 478.11", "27 C.F.R. 478.11"] },
      ],
      { sourcePath: "cfr27.md" },
    );
    const r = extractCrossReferences(f.doc, f.sections, f.chunks).map((x) => [x.text, x.external, x.citedDocument ?? null]);
    expect(r).toEqual([
      ["27 U.S.C. 205", true, "title 27"],
      ["27 CFR 478.11", false, null],
      ["section 205 of title 27", true, "title 27"],
    ]);
  });
});

describe("section numbers that look like years", () => {
  it("are sections after 'of title N', 'of this title' and in a code title's own '§', years after 'Regulations'", () => {
    const text = "# Title 44— PUBLIC PRINTING\n\n## § 707. Copies\n\nAs specified under section 1905 of title 17, section 2001 of this title and § 1910, but not the Companies Regulations 2015.\n";
    const f = fixture(
      text,
      [
        { id: "Title 44", title: "Title 44— PUBLIC PRINTING", level: 1 },
        { id: "§ 707", title: "§ 707. Copies", level: 2, aliases: ["44 U.S.C. 707"] },
      ],
      { sourcePath: "usc44.md" },
    );
    const r = extractCrossReferences(f.doc, f.sections, f.chunks).map((x) => [x.text, x.targetSectionId, x.external]);
    expect(r).toEqual([
      ["section 1905 of title 17", "§ 1905", true],
      ["section 2001 of this title", "§ 2001", false],
      ["§ 1910", "§ 1910", false],
    ]);
  });
});

describe("CFR and US Code titles of the same number", () => {
  it("'27 CFR 478.11' resolves into the CFR title, 'section 478.11 of title 27' (the US Code) does not", () => {
    const resolver = new SectionResolver([
      ...entries(title42),
      { sourcePath: "cfr27.md", sectionId: "§ 478.11", aliases: ["478.11", "27 CFR 478.11", "27 C.F.R. 478.11"], chunkId: "cfr27.md_chunk_4" },
    ]);
    expect(resolver.namesOf("cfr27.md")).toEqual(["27 cfr"]);
    const cfr = { text: "27 CFR 478.11", fromSectionId: "§ 553", targetSectionId: "§ 478.11", external: true, citedDocument: "27 CFR" };
    expect(resolver.resolve(cfr, "usc42.md")).toMatchObject({ targetChunkId: "cfr27.md_chunk_4", external: false });
    const usc = { text: "section 478.11 of title 27", fromSectionId: "§ 553", targetSectionId: "§ 478.11", external: true, citedDocument: "title 27" };
    expect(resolver.resolve(usc, "usc42.md")).toMatchObject({ targetChunkId: null, external: true, citedDocument: "title 27" });
  });
});
