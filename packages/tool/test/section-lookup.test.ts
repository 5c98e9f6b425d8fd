import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chainMatches, shortTitle, splitQualifiedId, type HierarchicalDocumentTool } from "@hierdoc/tool";
import { openTool } from "./helpers.js";

/** "Section 1" in two chapters, as the GDPR has it (Chapter III and Chapter IV). */
const REGULATION = `# Regulation

## CHAPTER III — Rights of the data subject

### Section 1 — Transparency and modalities

The controller shall take appropriate measures to provide information in a concise and transparent form.

## CHAPTER IV — Controller and processor

### Section 1 — General obligations

Taking into account the nature of processing, the controller shall implement technical measures.
`;

describe("HierarchicalDocumentTool.section with an id several sections share", () => {
  let dir: string;
  let tool: HierarchicalDocumentTool | undefined;
  let warnings: string[];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "hierdoc-section-"));
    mkdirSync(join(dir, "docs"));
    writeFileSync(join(dir, "docs", "regulation.md"), REGULATION);
    warnings = [];
    tool = await openTool(join(dir, "index"), {}, (m) => warnings.push(m));
    await tool.ingest([join(dir, "docs")]);
  });
  afterEach(async () => {
    await tool?.close();
    tool = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("returns one section (never chunks of two), and warns naming every match by a qualified id", async () => {
    warnings.length = 0;
    const records = await tool!.section("Section 1");
    expect(records.length).toBeGreaterThan(0);
    expect(new Set(records.map((r) => r.parentChain.join(" / "))).size).toBe(1);
    expect(records[0].parentChain.at(-1)).toBe("CHAPTER III — Rights of the data subject");
    expect(records.map((r) => r.content).join("\n")).not.toContain("technical measures");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"Section 1" names 2 sections');
    expect(warnings[0]).toContain("CHAPTER III › Section 1");
    expect(warnings[0]).toContain("CHAPTER IV › Section 1");
  });

  it("lists every match with its parent chain and accepts a qualified id", async () => {
    const matches = tool!.sectionMatches("Section 1");
    expect(matches.map((m) => m.qualifiedId)).toEqual(["CHAPTER III › Section 1", "CHAPTER IV › Section 1"]);
    warnings.length = 0;
    const four = await tool!.section("Chapter IV › Section 1");
    expect(four.map((r) => r.content).join("\n")).toContain("technical measures");
    expect(new Set(four.map((r) => r.parentChain.at(-1)))).toEqual(new Set(["CHAPTER IV — Controller and processor"]));
    expect(warnings).toEqual([]);
    expect(await tool!.section("Chapter IX › Section 1")).toEqual([]);
  });

  it("does not warn for an id only one section has", async () => {
    warnings.length = 0;
    const matches = tool!.sectionMatches("Chapter IV");
    expect(matches).toHaveLength(1);
    expect(matches[0].qualifiedId).toBe(matches[0].sectionId);
    await tool!.section("Chapter IV");
    expect(warnings).toEqual([]);
  });
});

describe("qualified section ids", () => {
  it("splits on › or ' > ' and matches parents in order by short name or whole title", () => {
    expect(splitQualifiedId("Chapter III › Section 1")).toEqual({ qualifiers: ["Chapter III"], id: "Section 1" });
    expect(splitQualifiedId("Part 2 > Chapter 1 > Section 4")).toEqual({ qualifiers: ["Part 2", "Chapter 1"], id: "Section 4" });
    expect(splitQualifiedId("Article 6(1)")).toEqual({ qualifiers: [], id: "Article 6(1)" });
    expect(shortTitle("CHAPTER III — Rights of the data subject")).toBe("CHAPTER III");
    const chain = ["Regulation", "CHAPTER III — Rights of the data subject"];
    expect(chainMatches(chain, ["chapter iii"])).toBe(true);
    expect(chainMatches(chain, ["Regulation", "Chapter III"])).toBe(true);
    expect(chainMatches(chain, ["Chapter III", "Regulation"])).toBe(false);
    expect(chainMatches(chain, ["Chapter II"])).toBe(false);
  });
});
