import { describe, expect, it } from "@jest/globals";
import type { CrossReference } from "@hierdoc/core";
import { SectionResolver, type ResolverEntry } from "@hierdoc/definitions";
import { LayeredResolver } from "@hierdoc/tool";

/** Entries of one source: sections 1..n (with units "(a)"), named by a code title when given. */
function source(path: string, sections: string[], title?: string, chunkPrefix = path): ResolverEntry[] {
  const documentNames = title ? [title] : [];
  return sections.flatMap((id, i) => [
    { sourcePath: path, sectionId: id, aliases: [], chunkId: `${chunkPrefix}#${i}`, documentNames },
    { sourcePath: path, sectionId: `${id}(a)`, aliases: [], chunkId: `${chunkPrefix}#${i}`, documentNames },
  ]);
}

const ref = (targetSectionId: string, citedDocument?: string): CrossReference => ({
  text: citedDocument ? `section ${targetSectionId} of ${citedDocument}` : `section ${targetSectionId}`,
  fromSectionId: "x",
  targetSectionId,
  external: citedDocument !== undefined,
  ...(citedDocument ? { citedDocument } : {}),
});

const REFS: Array<[CrossReference, string]> = [
  [ref("Section 553"), "usc05.md"], [ref("Section 553(a)"), "usc05.md"], [ref("Section 9"), "usc42.md"], [ref("Section 553"), "usc42.md"],
  [ref("Section 553", "title 5"), "usc42.md"], [ref("Section 553(a)", "title 5"), "notes.md"], [ref("Section 12", "title 42"), "usc05.md"],
  [ref("Section 700", "title 5"), "usc42.md"], [ref("Section 1", "title 7"), "usc42.md"], [ref("Section 3", "title 42"), "notes.md"],
];

describe("LayeredResolver (the base derived.bin resolver plus the changed sources)", () => {
  const unchanged = [...source("usc42.md", ["Section 9", "Section 12", "Section 553"], "42 U.S.C."), ...source("notes.md", ["Section 1", "Section 553"])];
  const oldTitle5 = source("usc05.md", ["Section 552", "Section 553"], "5 U.S.C.", "old5");
  const newTitle5 = source("usc05.md", ["Section 553", "Section 700"], "5 U.S.C.", "new5");
  const title7 = source("usc07.md", ["Section 1"], "7 U.S.C.");

  it("answers every internal and external reference as a resolver built over all current entries", () => {
    // The base held the old title 5; title 5 was replaced and title 7 added since.
    const base = new SectionResolver([...oldTitle5, ...unchanged]);
    const current = [...unchanged, ...newTitle5, ...title7];
    const full = new SectionResolver(current);
    const changed = new Set(["usc05.md", "usc07.md"]);
    let fullBuilds = 0;
    const layered = new LayeredResolver(base, changed, new SectionResolver([...newTitle5, ...title7]), () => (fullBuilds++, full));
    for (const [r, from] of REFS) expect([r.text, from, layered.resolve(r, from)]).toEqual([r.text, from, full.resolve(r, from)]);
    // "section 553 of title 5" found the old title 5 in the base: it is skipped there, so the new one answers.
    expect(layered.resolve(ref("Section 553", "title 5"), "usc42.md").targetChunkId).toBe("new5#0");
    expect(layered.resolve(ref("Section 700", "title 5"), "usc42.md").targetChunkId).toBe("new5#1");
    expect(fullBuilds).toBe(0);
    expect(layered.builtFull).toBe(false);
  });

  it("a deleted source resolves nothing any more", () => {
    const base = new SectionResolver([...oldTitle5, ...unchanged]);
    const full = new SectionResolver(unchanged);
    const layered = new LayeredResolver(base, new Set(["usc05.md"]), new SectionResolver([]), () => full);
    for (const [r, from] of REFS) expect(layered.resolve(r, from)).toEqual(full.resolve(r, from));
    expect(layered.resolve(ref("Section 553", "title 5"), "usc42.md").external).toBe(true);
  });

  it("asks the full resolver when a citation names both an unchanged and a changed source", () => {
    // Two sources both named "5 U.S.C." (e.g. two editions): one unchanged, one added since.
    const edition = source("usc05-2024.md", ["Section 553"], "5 U.S.C.");
    const base = new SectionResolver([...unchanged, ...edition]);
    const current = [...unchanged, ...edition, ...newTitle5];
    const full = new SectionResolver(current);
    const layered = new LayeredResolver(base, new Set(["usc05.md"]), new SectionResolver(newTitle5), () => full);
    const r = ref("Section 553", "title 5");
    expect(layered.resolve(r, "usc42.md")).toEqual(full.resolve(r, "usc42.md"));
    expect(layered.builtFull).toBe(true);
  });
});
