import { describe, expect, it } from "@jest/globals";
import { extractDefinitions } from "@hierdoc/definitions";
import { fixture } from "./fixtures.js";

const GDPR = `## CHAPTER I — General provisions

### Article 4 — Definitions

For the purposes of this Regulation:

(1) ‘personal data’ means any information relating to an identified or identifiable natural person (‘data subject’);

(2) ‘processing’ means any operation performed on personal data;

### Article 5 — Principles

Personal data shall be processed lawfully. This means that the controller acts.
`;

describe("extractDefinitions", () => {
  it("finds curly-quoted 'X means' points with the point id as source section", () => {
    const f = fixture(GDPR, [
      { id: "Chapter I", title: "CHAPTER I — General provisions", level: 2 },
      { id: "Article 4", title: "Article 4 — Definitions", level: 3 },
      { id: "Article 5", title: "Article 5 — Principles", level: 3 },
    ]);
    const defs = extractDefinitions(f.doc, f.sections, f.chunks);
    expect(defs.map((d) => [d.term, d.sourceSection])).toEqual([
      ["personal data", "Article 4(1)"],
      ["processing", "Article 4(2)"],
    ]);
    expect(defs[0].definitionText).toBe(
      "‘personal data’ means any information relating to an identified or identifiable natural person (‘data subject’);",
    );
    expect(defs[0].chunkId).toBe("doc.md_chunk_1");
    expect(f.doc.text.slice(defs[1].start, defs[1].end)).toBe(defs[1].definitionText);
  });

  it("reads CFR 'Term. Text.' entries only inside a Meaning of terms section", () => {
    const text = `## § 478.11 Meaning of terms.

When used in this part, terms shall have the meanings ascribed in this section. Words in the plural form shall include the singular.

Alien. Any person not a citizen or national of the United States.

Chief, Federal Firearms Licensing Center (FFLC). The ATF official responsible for licenses.

Engaged in the business—(a) Manufacturer of firearms. A person who devotes time to manufacturing.

(b) Dealer in firearms. A person who devotes time to dealing.

U.S. Munitions List. The list of articles.

## § 478.12 Other.

Firearm. This is not a definitions section.
`;
    const f = fixture(text, [
      { id: "§ 478.11", title: "§ 478.11 Meaning of terms.", level: 2 },
      { id: "§ 478.12", title: "§ 478.12 Other.", level: 2 },
    ]);
    const terms = extractDefinitions(f.doc, f.sections, f.chunks).map((d) => d.term);
    expect(terms).toEqual(["Alien", "Chief, Federal Firearms Licensing Center (FFLC)", "Engaged in the business", "U.S. Munitions List"]);
  });

  it("reads 'The term “X” means', 'X shall mean' and 17 U.S.C. 101 '“X” is' entries", () => {
    const text = `### § 100. Definitions

(a) The term “invention” means invention or discovery.

A “computer program” is a set of statements used in a computer.

### § 200. Other

Licensee shall mean the holder of a licence.

The court said it is fine.
`;
    const f = fixture(text, [
      { id: "§ 100", title: "§ 100. Definitions", level: 3 },
      { id: "§ 200", title: "§ 200. Other", level: 3 },
    ]);
    const defs = extractDefinitions(f.doc, f.sections, f.chunks);
    expect(defs.map((d) => [d.term, d.sourceSection])).toEqual([
      ["invention", "§ 100(a)"],
      ["computer program", "§ 100"],
      ["Licensee", "§ 200"],
    ]);
  });

  it("reads tab-separated glossary rows after a Defined Terms header, skipping numbered lines", () => {
    const text = [
      "1.2\tDefined Terms",
      "1.2.1\tIn the Rulebooks a defined term has the meaning given in GLO.",
      "/Table Start",
      "Defined Terms\tDefinitions",
      "1P\tMeans the low estimate scenario of Petroleum Reserves.",
      "Authorised Person\tMeans a Person who holds a Financial Services Permission.",
      "a)\tare not currently zero emitters",
      "/Table End",
      "",
    ].join("\r\n");
    const f = fixture(text, [{ id: "1.2", title: "Defined Terms", level: 1 }], { format: "text", sourcePath: "GLO.txt" });
    const defs = extractDefinitions(f.doc, f.sections, f.chunks);
    expect(defs.map((d) => d.term)).toEqual(["1P", "Authorised Person"]);
    expect(defs[1].definitionText).toBe("Authorised Person\tMeans a Person who holds a Financial Services Permission.");
  });

  it("reads RFC terminology phrases", () => {
    const text = `## 3.4. Messages

The terms sender and recipient refer to any implementation that sends or receives a given message.

The term origin server refers to a program that can originate authoritative responses.

A clock is an implementation capable of providing the current instant. Fields that allow multiple members are referred to as list-based fields.
`;
    const f = fixture(text, [{ id: "3.4", title: "3.4. Messages", level: 2 }]);
    const defs = extractDefinitions(f.doc, f.sections, f.chunks);
    expect(defs.map((d) => d.term).sort()).toEqual(["clock", "list-based fields", "message", "origin server", "recipient", "sender"]);
    expect(defs.find((d) => d.term === "message")?.definitionText).toBe(
      "The terms sender and recipient refer to any implementation that sends or receives a given message.",
    );
    expect(defs.find((d) => d.term === "clock")?.definitionText).toBe(
      "A clock is an implementation capable of providing the current instant.",
    );
  });

  it("ignores 'X: Y' and 'X. Y' paragraphs outside definitions sections", () => {
    const text = `## 5. Procedure

Note: the applicant files a form.

Filing. The applicant files a form.
`;
    const f = fixture(text, [{ id: "5", title: "5. Procedure", level: 2 }]);
    expect(extractDefinitions(f.doc, f.sections, f.chunks)).toEqual([]);
  });
});

describe("definitions sections", () => {
  it("recognises definitions headings by their first words only", async () => {
    const { isDefinitionsTitle } = await import("@hierdoc/definitions");
    expect(["Article 4 — Definitions", "§ 478.11 Meaning of terms.", "Subpart B— Definitions", "Defined Terms", "3. Terminology and Core Concepts", "GLOSSARY", "Interpretation"].map(isDefinitionsTitle)).toEqual([true, true, true, true, true, true, true]);
    expect(["9.3. Method Definitions", "Terms and conditions of the licence", "Article 5 — Principles"].map(isDefinitionsTitle)).toEqual([false, false, false]);
  });

  it("takes only short 'X: Y' labels in sections that inherit definitions from their parent", () => {
    const text = `## 3. Terminology and Core Concepts

## 3.7. Intermediaries

HTTP enables the use of intermediaries. There are three common forms of HTTP intermediary: proxy, gateway, and tunnel.

Tunnel: a blind relay between two connections.
`;
    const f = fixture(text, [
      { id: "3", title: "3. Terminology and Core Concepts", level: 1 },
      { id: "3.7", title: "3.7. Intermediaries", level: 2 },
    ]);
    f.sections[1].parentIds = ["3"];
    const terms = extractDefinitions(f.doc, f.sections, f.chunks).map((d) => d.term);
    expect(terms).toEqual(["intermediary", "proxy", "gateway", "tunnel", "intermediaries", "Tunnel"]);
  });
});

describe("tables in plain-text definitions sections", () => {
  it("reads a header-less term/definition table and skips other tables", () => {
    const text = [
      "1.2\tGlossary",
      "/Table Start",
      "Accepting Deposits\tMeans the Regulated Activity specified in paragraph 38 of Schedule 1.",
      "CCF\tCredit conversion factor.",
      "/Table End",
      "“major equity indices” means any index identified in the table below",
      "\\start_table\\",
      "Country\tIndex",
      "Australia\tAll Ordinaries",
      "\\end_table\\",
      "",
    ].join("\r\n");
    const f = fixture(text, [{ id: "1.2", title: "Glossary", level: 1 }], { format: "text", sourcePath: "PRU.txt" });
    expect(extractDefinitions(f.doc, f.sections, f.chunks).map((d) => d.term)).toEqual(["Accepting Deposits", "CCF", "major equity indices"]);
  });
});
