import { describe, expect, it } from "@jest/globals";
import type { Chunk, Section } from "@hierdoc/core";
import { SectionResolver, extractCrossReferences, type ResolverEntry } from "@hierdoc/definitions";
import { fixture } from "./fixtures.js";

const REGULATION = fixture(
  `## Article 6 — Lawfulness

1. Processing is lawful if (a) consent was given; (b) a contract requires it.

## Article 7 — Consent

1. See point (a) of Article 6(1), Article 6, Article 60, 5 U.S.C. 553 and section 3 of RFC 9110.

## Article 60 — Cooperation

1. The lead authority cooperates, see Article 7(1) and Chapter 3.
`,
  [
    { id: "Article 6", title: "Article 6 — Lawfulness", level: 2 },
    { id: "Article 7", title: "Article 7 — Consent", level: 2 },
    { id: "Article 60", title: "Article 60 — Cooperation", level: 2 },
  ],
  { sourcePath: "regulation.md" },
);

const TITLE5 = fixture(`# Title 5— GOVERNMENT\n\n### § 553. Rule making\n\nNotice shall be published.\n`, [
  { id: "Title 5", title: "Title 5— GOVERNMENT", level: 1 },
  { id: "§ 553", title: "§ 553. Rule making", level: 3, aliases: ["553", "Section 553", "5 U.S.C. 553"] },
], { sourcePath: "usc05.md" });

function entries(parsed: { sections: Section[]; chunks: Chunk[] }): ResolverEntry[] {
  return parsed.sections.map((s, i) => ({
    sourcePath: parsed.chunks[Math.min(i, parsed.chunks.length - 1)].sourcePath,
    sectionId: s.sectionId,
    aliases: s.aliases,
    chunkId: parsed.chunks[Math.min(i, parsed.chunks.length - 1)].id,
  }));
}

describe("SectionResolver exportState / importState", () => {
  const all = [...entries(REGULATION), ...entries(TITLE5), { sourcePath: "regulation.md", sectionId: "Article 6(1)(a)", aliases: [], chunkId: REGULATION.chunks[0].id }];
  const chunkIds = [...new Set(all.map((e) => e.chunkId))];
  const position = new Map(chunkIds.map((id, i) => [id, i]));
  const built = new SectionResolver(all);
  const refs = [...extractCrossReferences(REGULATION.doc, REGULATION.sections, REGULATION.chunks)];

  it("resolves every reference exactly as the resolver it was exported from", () => {
    const state = built.exportState((id) => position.get(id));
    expect(state).not.toBeNull();
    const loaded = SectionResolver.importState(state!, (pos) => chunkIds[pos]);
    expect(refs.length).toBeGreaterThan(4);
    const answer = (r: SectionResolver) => refs.map((x) => r.resolve(x, "regulation.md"));
    expect(answer(loaded)).toEqual(answer(built));
    expect(answer(built).some((x) => !x.external && x.targetSectionId === "Article 6(1)(a)")).toBe(true);
    expect(loaded.namesOf("usc05.md")).toEqual(built.namesOf("usc05.md"));
    expect(loaded.namesOf("usc05.md")).toEqual(["5 u.s.c."]);
  });

  it("serves the state over a chunk list by position, reading a chunk id only for a resolved target", () => {
    const state = built.exportState((id) => position.get(id))!;
    const read: number[] = [];
    const loaded = SectionResolver.importState(state, { count: chunkIds.length, idAt: (p) => (read.push(p), chunkIds[p]) });
    expect(read).toEqual([]);
    const answer = (r: SectionResolver) => refs.map((x) => r.resolve(x, "regulation.md"));
    expect(answer(loaded)).toEqual(answer(built));
    expect(read.length).toBe(answer(built).filter((x) => !x.external).length);
    expect(() => SectionResolver.importState(state, { count: 1, idAt: (p) => chunkIds[p] })).toThrow(/chunk position out of range/);
    // Exported again for another chunk order, it still resolves the same.
    const reversed = [...chunkIds].reverse();
    const again = SectionResolver.importState(loaded.exportState((id) => reversed.indexOf(id))!, (p) => reversed[p]);
    expect(answer(again)).toEqual(answer(built));
  });

  it("returns null when a chunk has no position, and rejects damaged data with E_INDEX_CORRUPT", () => {
    expect(built.exportState((id) => (id === chunkIds[0] ? undefined : position.get(id)))).toBeNull();
    const state = built.exportState((id) => position.get(id))!;
    expect(() => SectionResolver.importState({ keys: state.keys, data: state.data.subarray(0, state.data.length - 1) }, (pos) => chunkIds[pos])).toThrow(
      expect.objectContaining({ code: "E_INDEX_CORRUPT" }),
    );
    expect(() => SectionResolver.importState(state, () => undefined)).toThrow(/chunk position out of range/);
  });
});
