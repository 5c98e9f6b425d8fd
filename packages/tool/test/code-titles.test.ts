import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readDerivedState, type HierarchicalDocumentTool } from "@hierdoc/tool";
import { openTool } from "./helpers.js";

/** A small US Code title in the corpus' markdown layout: "# Title N— …", "## CHAPTER …", "### § N. Heading". */
function usTitle(title: number, name: string, sections: Array<[string, string, string]>): string {
  return [
    `# Title ${title}— ${name}`,
    "",
    `## CHAPTER 5— ADMINISTRATIVE MATTERS`,
    "",
    ...sections.flatMap(([num, heading, body]) => [`### § ${num}. ${heading}`, "", body, ""]),
  ].join("\n");
}

const TITLE_5 = usTitle(5, "GOVERNMENT ORGANIZATION AND EMPLOYEES", [
  ["552", "Public information", "Each agency shall make available to the public the rules of procedure and the opinions of the agency."],
  ["553", "Rule making", "General notice of proposed rule making shall be published in the Federal Register, and the agency shall give interested persons an opportunity to comment."],
]);

const TITLE_42 = usTitle(42, "THE PUBLIC HEALTH AND WELFARE", [
  ["553", "Grants for hospitals", "The Surgeon General may make grants to hospitals. Regulations under this section are issued under section 553 of title 5; see also section 554 of this title and section 9 of title 18."],
  ["554", "Hospital records", "Hospitals shall keep records of the grants made under section 553 of this title."],
]);

describe("an index holding several US Code titles that share section numbers", () => {
  let dir: string;
  let tool: HierarchicalDocumentTool | undefined;
  const file5 = () => join(dir, "docs", "usc05.md");
  const file42 = () => join(dir, "docs", "usc42.md");

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hierdoc-titles-"));
    mkdirSync(join(dir, "docs"));
    writeFileSync(file5(), TITLE_5);
    writeFileSync(file42(), TITLE_42);
  });
  afterEach(async () => {
    await tool?.close();
    tool = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("ranks the cited title's section first for '5 U.S.C. 553', 'title 5 section 553' and 'section 553 of title 5'", async () => {
    tool = await openTool(join(dir, "index"));
    await tool.ingest([file42(), file5()]);
    const cases: Array<[string, string]> = [
      ["5 U.S.C. 553", file5()],
      ["5 USC 553", file5()],
      ["title 5 section 553", file5()],
      ["section 553 of title 5", file5()],
      ["42 U.S.C. 553", file42()],
      ["title 42 section 553", file42()],
    ];
    for (const mode of ["hybrid", "exact"] as const) {
      for (const [query, source] of cases) {
        const res = await tool.search(query, { topK: 3, mode });
        expect([query, mode, res.results[0]?.sourcePath, res.results[0]?.sectionId]).toEqual([query, mode, source, "§ 553"]);
      }
    }
    const exactOnly = await tool.search("5 U.S.C. 553", { topK: 5, mode: "exact" });
    expect(exactOnly.results.map((r) => r.sourcePath)).toEqual([file5()]);
    const bare = await tool.search("§ 553", { topK: 5, mode: "exact" });
    expect(new Set(bare.results.map((r) => r.sourcePath))).toEqual(new Set([file5(), file42()]));
  });

  it("keeps each source's code title across a reopen from the persisted derived state (and the derived.bin records them)", async () => {
    const first = await openTool(join(dir, "index"));
    await first.ingest([file42(), file5()]);
    await first.close();
    expect((await readDerivedState(join(dir, "index")))?.codeTitles).toEqual(expect.arrayContaining([[file5(), "5 U.S.C."], [file42(), "42 U.S.C."]]));
    tool = await openTool(join(dir, "index"));
    expect([tool.openInfo.derived, tool.openInfo.reason]).toEqual(["loaded", undefined]);
    for (const [query, source] of [["5 U.S.C. 553", file5()], ["section 553 of title 42", file42()]]) {
      const res = await tool.search(query, { topK: 3, mode: "exact" });
      expect([query, res.results.map((r) => r.sourcePath)]).toEqual([query, [source]]);
    }
    expect((await tool.section("42 U.S.C. 553")).map((r) => r.sourcePath)).toEqual([file42()]);
  });

  it("looks up a section by a title-qualified id", async () => {
    tool = await openTool(join(dir, "index"));
    await tool.ingest([file42(), file5()]);
    expect((await tool.section("5 U.S.C. 553")).map((r) => [r.sourcePath, r.sectionId])).toEqual([[file5(), "§ 553"]]);
    expect((await tool.section("42 U.S.C. 553")).map((r) => [r.sourcePath, r.sectionId])).toEqual([[file42(), "§ 553"]]);
  });

  it("resolves 'section 553 of title 5' into title 5, and lists it as incoming there", async () => {
    tool = await openTool(join(dir, "index"));
    await tool.ingest([file42(), file5()]);
    const refs = await tool.refs("42 U.S.C. 553");
    const out = refs.outgoing.map((x) => [x.text, x.targetSectionId, x.external, x.targetChunkId?.startsWith(file5()) ?? null, x.citedDocument ?? null]);
    expect(out).toEqual([
      ["section 553 of title 5", "§ 553", false, true, "title 5"],
      ["section 554 of this title", "§ 554", false, false, null],
      ["section 9 of title 18", "§ 9", true, null, "title 18"],
    ]);
    const incoming = await tool.refs("5 U.S.C. 553");
    expect(incoming.incoming).toEqual([{ fromSectionId: "§ 553", sourcePath: file42(), text: "section 553 of title 5", targetSectionId: "§ 553" }]);
    const own = await tool.refs("42 U.S.C. 553");
    expect(own.incoming).toEqual([{ fromSectionId: "§ 554", sourcePath: file42(), text: "section 553 of this title", targetSectionId: "§ 553" }]);

    const res = await tool.search("42 U.S.C. 553", { topK: 1 });
    const xrefs = res.results[0].crossReferences;
    expect(xrefs.find((x) => x.text === "section 553 of title 5")).toEqual({ text: "section 553 of title 5", targetSectionId: "§ 553", external: false, targetSourcePath: file5() });
    expect(xrefs.find((x) => x.text === "section 554 of this title")).toMatchObject({ targetSectionId: "§ 554", external: false, targetSourcePath: file42() });
    expect(xrefs.find((x) => x.text === "section 9 of title 18")).toEqual({ text: "section 9 of title 18", targetSectionId: "§ 9", external: true, citedDocument: "title 18" });
  });

  it("keeps 'section 553 of title 5' external when title 5 is not indexed, and never answers title 42's § 553 for '5 U.S.C. 553'", async () => {
    tool = await openTool(join(dir, "index"));
    await tool.ingest([file42()]);
    const refs = await tool.refs("§ 553");
    expect(refs.outgoing.find((x) => x.text === "section 553 of title 5")).toMatchObject({ external: true, targetChunkId: null, citedDocument: "title 5" });
    const exact = await tool.search("5 U.S.C. 553", { topK: 3, mode: "exact" });
    expect(exact.results).toEqual([]);
    expect(await tool.section("5 U.S.C. 553")).toEqual([]);
    const hybrid = await tool.search("5 U.S.C. 553", { topK: 3 });
    expect(hybrid.results.every((r) => r.scores.exact === null)).toBe(true);
  });
});
