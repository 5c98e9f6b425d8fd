import type { SearchResult } from "@hierdoc/core";
import { resultJson } from "@hierdoc/runtime";

const result = (crossReferences: SearchResult["crossReferences"]): SearchResult => ({
  id: "usc42.md#s1983",
  rank: 1,
  score: 1,
  content: "… as provided in section 553 of title 5 …",
  context: "",
  sourcePath: "usc42.md",
  start: 0,
  end: 40,
  sectionId: "§ 1983",
  sectionTitle: "Civil action for deprivation of rights",
  parentChain: ["Title 42", "§ 1983"],
  chunkType: "content",
  scores: { semantic: null, keyword: 1, exact: null },
  ranks: { semantic: null, keyword: 1, exact: null },
  definitions: [],
  crossReferences,
});

describe("resultJson cross-references (the CLI --json and POST /search contract)", () => {
  it("names the target's file when a citation resolves into another document, and the cited document when external", () => {
    const json = resultJson(
      result([
        { text: "section 553 of title 5", targetSectionId: "§ 553", external: false, targetSourcePath: "usc05.md" },
        { text: "section 1 of title 9", targetSectionId: null, external: true, citedDocument: "title 9" },
        { text: "section 1981", targetSectionId: "§ 1981", external: false },
      ]),
    );
    expect(json.cross_references).toEqual([
      { text: "section 553 of title 5", target_section_id: "§ 553", external: false, target_source_path: "usc05.md" },
      { text: "section 1 of title 9", target_section_id: null, external: true, cited_document: "title 9" },
      { text: "section 1981", target_section_id: "§ 1981", external: false },
    ]);
  });
});
