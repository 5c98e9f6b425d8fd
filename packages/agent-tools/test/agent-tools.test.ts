import { describe, expect, it } from "@jest/globals";
import { isHierdocError } from "@hierdoc/core";
import {
  AGENT_TOOL_SPECS,
  citationOf,
  getSectionSpec,
  lookupDefinitionSpec,
  parseSectionUri,
  searchDocumentsSpec,
  searchInputSchema,
  sectionUri,
  type SectionJson,
} from "@hierdoc/agent-tools";
import { gdprSkipNote, hasGdpr, useGdprIndex } from "@hierdoc/core/testing";
import { openIndex } from "@hierdoc/runtime";

describe("section URIs", () => {
  it("round-trip file name and section id, percent-encoded", () => {
    const uri = sectionUri("/data/laws/gdpr 2016.md", "Article 4(11)");
    expect(uri).toBe("hierdoc://gdpr%202016.md/Article%204(11)");
    expect(parseSectionUri(uri)).toEqual({ source: "gdpr 2016.md", sectionId: "Article 4(11)" });
    expect(parseSectionUri("hierdoc://a.md/%C2%A7%20478.11")).toEqual({ source: "a.md", sectionId: "§ 478.11" });
  });

  it("reject other URIs with E_INVALID_ARGUMENT naming the URI", () => {
    for (const bad of ["https://x/y", "hierdoc://only-source", "hierdoc://a.md/%E0%A4%A"]) {
      let err: unknown;
      try {
        parseSectionUri(bad);
      } catch (e) {
        err = e;
      }
      expect(isHierdocError(err) && err.code).toBe("E_INVALID_ARGUMENT");
      expect((err as Error).message).toContain(bad);
    }
  });
});

describe("citationOf", () => {
  it("joins the parent chain and title and names the file", () => {
    const c = citationOf({ sourcePath: "/x/act.md", sectionId: "Section 4", sectionTitle: "Section 4 — Erasure", parentChain: ["Act", "Part 2"] });
    expect(c.text).toBe("Act › Part 2 › Section 4 — Erasure (act.md)");
    expect(c.uri).toBe("hierdoc://act.md/Section%204");
    expect(citationOf({ sourcePath: "a.txt", sectionId: "9.3", sectionTitle: "", parentChain: [] }).text).toBe("9.3 (a.txt)");
  });
});

describe("input schemas", () => {
  it("validate what an agent sends", () => {
    expect(searchInputSchema.parse({ query: "  right to erasure " }).query).toBe("right to erasure");
    expect(searchInputSchema.safeParse({ query: "x", top_k: 500 }).success).toBe(false);
    expect(searchInputSchema.safeParse({ query: "" }).success).toBe(false);
    expect(searchInputSchema.safeParse({ query: "x", mode: "fuzzy" }).success).toBe(false);
  });

  it("every spec has a unique snake_case name and a description that says when to use it", () => {
    expect(new Set(AGENT_TOOL_SPECS.map((s) => s.name)).size).toBe(3);
    for (const s of AGENT_TOOL_SPECS) {
      expect(s.name).toMatch(/^[a-z_]+$/);
      expect(s.description).toMatch(/Use it/);
    }
  });
});

const suite = hasGdpr ? describe : describe.skip;
suite(`the agent tools on the GDPR${gdprSkipNote}`, () => {
  const gdpr = useGdprIndex(openIndex, { open: true });

  it("search_documents: Article 17 first for 'right to erasure', with a quotable citation, definitions and references", async () => {
    const out = await searchDocumentsSpec.run(gdpr.tool, searchInputSchema.parse({ query: "right to erasure" }));
    expect(out.results).toHaveLength(5);
    const top = out.results[0];
    expect(top.section_id).toBe("Article 17");
    expect(top.citation).toBe(
      "Regulation (EU) 2016/679 (General Data Protection Regulation) › CHAPTER III — Rights of the data subject › Section 3 — Rectification and erasure › Article 17 — Right to erasure (‘right to be forgotten’) (gdpr_2016_679.md)",
    );
    expect(top.uri).toBe("hierdoc://gdpr_2016_679.md/Article%2017");
    expect(top.content).toMatch(/^#### Article 17/);
    expect(top.definitions.find((d) => d.term === "personal data")?.source_section).toBe("Article 4(1)");
    expect(top.cross_references.some((x) => x.target_section_id === "Article 6(1)(a)")).toBe(true);
  });

  it("get_section: the whole of Article 17 with its parent chain; found=false for a missing id", async () => {
    const out = (await getSectionSpec.run(gdpr.tool, { id: "Article 17" })) as SectionJson;
    expect(out.found).toBe(true);
    expect(out.section_id).toBe("Article 17");
    expect(out.parent_chain[1]).toBe("CHAPTER III — Rights of the data subject");
    expect(out.content).toContain("the right to obtain from the controller the erasure of personal data");
    expect(out.end).toBeGreaterThan(out.start);
    const missing = await getSectionSpec.run(gdpr.tool, { id: "Article 999" });
    expect(missing).toMatchObject({ found: false, id: "Article 999" });
  });

  it("lookup_definition: 'personal data' from Article 4(1), cited; found=false for an undefined term", async () => {
    const out = await lookupDefinitionSpec.run(gdpr.tool, { term: "personal data" });
    expect(out.found).toBe(true);
    if (!out.found) return;
    expect(out.definitions[0]).toMatchObject({ source_section: "Article 4(1)", citation: "Article 4(1) (gdpr_2016_679.md)" });
    expect(out.definitions[0].definition_text).toMatch(/identified or identifiable natural person/);
    expect(await lookupDefinitionSpec.run(gdpr.tool, { term: "banana" })).toMatchObject({ found: false });
  });
});
