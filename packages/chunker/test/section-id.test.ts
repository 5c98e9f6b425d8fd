import { classifyChunk, sectionIdFromHeading } from "@hierdoc/chunker";

describe("sectionIdFromHeading", () => {
  it.each([
    ["Article 17 — Right to erasure", "Article 17", ["Art. 17", "17"]],
    ["§ 478.11 Meaning of terms.", "§ 478.11", ["478.11", "Section 478.11"]],
    ["§ 1. Establishment", "§ 1", ["1", "section 1"]],
    ["[§ 509. Repealed. Pub. L. 110–403]", "§ 509", ["509"]],
    ["§§ 155, 155A. Repealed.", "§ 155, 155A", ["§ 155", "§ 155A"]],
    ["9.3.1. GET", "9.3.1", ["Section 9.3.1", "9.3.1."]],
    ["4.4.2.1.  Certificate Selection", "4.4.2.1", ["section 4.4.2.1"]],
    ["2.1.1.(1)", "2.1.1.(1)", ["2.1.1(1)"]],
    ["Part 3.16.(1) Text", "Part 3.16.(1)", ["Part 3.16(1)"]],
    ["CHAPTER II— BUREAU OF ALCOHOL", "Chapter II", ["CHAPTER II"]],
    ["PART 447— IMPORTATION OF ARMS", "Part 447", ["PART 447"]],
    ["Title 35— PATENTS", "Title 35", ["TITLE 35"]],
    ["Rule 2.14 Conduct", "Rule 2.14", ["2.14"]],
    ["Appendix B.1. Changes from RFC 2818", "Appendix B.1", ["B.1"]],
    ["Appendix A.  State Machine", "Appendix A", ["appendix a"]],
    ["A.1.  Client", "A.1", ["Appendix A.1"]],
    ["Schedule 1", "Schedule 1", ["SCHEDULE 1"]],
  ])("%s → %s", (heading, id, aliases) => {
    const got = sectionIdFromHeading(heading);
    expect(got?.id).toBe(id);
    expect(got?.aliases).toEqual(expect.arrayContaining(aliases));
    expect(got?.aliases).not.toContain(id);
  });

  it.each(["Recitals", "Definitions", "Introduction", "", "PARTS 400–446 [RESERVED]"])("returns null for the unnumbered heading %p", (heading) => {
    expect(sectionIdFromHeading(heading)).toBeNull();
  });
});

describe("classifyChunk", () => {
  it("finds definitions by section title or by 'X means'", () => {
    expect(classifyChunk("§ 478.11 Meaning of terms.\n\nAlien. Any person not a citizen.", "§ 478.11 Meaning of terms.", [])).toBe("definition");
    expect(classifyChunk("(1) ‘personal data’ means any information relating to a person;", "Article 4 — Scope", [])).toBe("definition");
    expect(classifyChunk("The term “invention” means invention or discovery.", "§ 100", [])).toBe("definition");
  });

  it("finds requirements by shall / must / RFC 2119 words", () => {
    expect(classifyChunk("The controller shall implement appropriate measures for all processing.", "Article 24", [])).toBe("requirement");
    expect(classifyChunk("A client MUST NOT send a request body larger than the limit it was told.", "9.3.1. GET", [])).toBe("requirement");
    expect(classifyChunk("Implementations SHOULD log the failure for later diagnosis by operators.", "6.1", [])).toBe("requirement");
  });

  it("calls a heading-only or tiny chunk a header, and other text content", () => {
    expect(classifyChunk("## CHAPTER III — Rights of the data subject", "CHAPTER III — Rights of the data subject", [])).toBe("header");
    expect(classifyChunk("This Regulation lays down rules relating to the protection of natural persons.", "Article 1", [])).toBe("content");
  });
});
