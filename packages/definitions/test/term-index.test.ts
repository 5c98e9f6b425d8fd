import { describe, expect, it } from "@jest/globals";
import type { DefinitionEntry } from "@hierdoc/core";
import { readFileSync } from "node:fs";
import { TermIndex, normalizeTerm, wordKey, wordKeys, wordTokens } from "@hierdoc/definitions";
import { scanWords } from "../src/term-index.js";

function entry(term: string, sourcePath = "a.md", section = "Article 4"): DefinitionEntry {
  return {
    id: `${sourcePath}#${term}`,
    term,
    termNormalized: normalizeTerm(term),
    definitionText: `${term} means something`,
    sourcePath,
    sourceSection: section,
    chunkId: `${sourcePath}_chunk_0`,
  };
}

describe("normalizeTerm", () => {
  it("strips quotes, unifies dashes and case", () => {
    expect(normalizeTerm("  ‘Personal  Data’ ")).toBe("personal data");
    expect(normalizeTerm("agent–driven negotiation.")).toBe("agent-driven negotiation");
  });
});

describe("TermIndex", () => {
  const index = new TermIndex([
    entry("personal data"),
    entry("personal data breach"),
    entry("processing"),
    entry("third party"),
    entry("Authorised Person", "GLO.txt", "GLO"),
    entry("CFR", "cfr.md", "§ 1"),
  ]);

  it("looks terms up in any case and number", () => {
    expect(index.define("Personal Data").map((e) => e.term)).toEqual(["personal data"]);
    expect(index.define("third parties").map((e) => e.term)).toEqual(["third party"]);
    expect(index.define("unknown")).toEqual([]);
  });

  it("matches whole words, plurals, longest term first, each term once", () => {
    const used = index.termsUsedIn("A personal data breach involves processing of personal data by Third Parties; preprocessing is not.");
    expect(used.map((e) => e.term)).toEqual(["personal data breach", "processing", "personal data", "third party"]);
  });

  it("keeps the case of capitalised and acronym terms", () => {
    expect(index.termsUsedIn("an authorised person under the cfr").map((e) => e.term)).toEqual([]);
    expect(index.termsUsedIn("Authorised Persons under the CFR").map((e) => e.term)).toEqual(["Authorised Person", "CFR"]);
  });

  it("prefers the definitions of the text's own source", () => {
    const two = new TermIndex([entry("controller", "a.md"), entry("controller", "b.md")]);
    expect(two.termsUsedIn("the controller", "b.md").map((e) => e.sourcePath)).toEqual(["b.md"]);
    expect(two.termsUsedIn("the controller", "c.md").map((e) => e.sourcePath)).toEqual(["a.md", "b.md"]);
  });

  it("adds and removes by source", () => {
    const idx = new TermIndex([entry("controller", "a.md"), entry("processor", "b.md")]);
    expect(idx.removeBySource("a.md")).toBe(1);
    expect(idx.termsUsedIn("controller and processor").map((e) => e.term)).toEqual(["processor"]);
    idx.add(entry("recipient", "c.md"));
    expect(idx.list().map((e) => e.term)).toEqual(["processor", "recipient"]);
  });

  it("rejects an empty term", () => {
    expect(() => new TermIndex([entry("  ")])).toThrow(expect.objectContaining({ code: "E_INVALID_ARGUMENT" }));
  });
});

describe("TermIndex case conventions", () => {
  it("keeps one-word capitalised terms case-sensitive in a source that capitalises its defined terms", () => {
    const glossary = ["Authorised Person", "Client Money", "Financial Services Permission", "Recognised Body", "Regulated Activity", "Person"].map((t) =>
      entry(t, "GLO.txt", "GLO"),
    );
    const cfr = ["Appropriate ATF officer", "Business premises", "Chemical agent", "Defense articles", "Import List", "Firearm"].map((t) =>
      entry(t, "cfr.md", "§ 447.11"),
    );
    const idx = new TermIndex([...glossary, ...cfr]);
    expect(idx.termsUsedIn("a person holding a firearm").map((e) => e.term)).toEqual(["Firearm"]);
    expect(idx.termsUsedIn("a Person holding Firearms").map((e) => e.term)).toEqual(["Person", "Firearm"]);
  });
});

describe("TermIndex at the size of a 1M-chunk index", () => {
  it("builds from 300,000 definitions (a spread argument list overflowed the call stack)", () => {
    const entries = Array.from({ length: 300_000 }, (_, i) => entry(`term number ${i}`, `f${i % 50}.md`));
    const index = new TermIndex(entries);
    expect(index.termsUsedIn("the term number 299999 applies").map((e) => e.term)).toEqual(["term number 299999"]);
  });
});

describe("wordKeys", () => {
  it("splits a text into the same words and keys as wordTokens, without offsets", () => {
    const text = "The Data Controllers’ duties: parties' processes, boxes and Authorised Persons (ADGM) — re-insurance_v2.";
    const tokens = wordTokens(text);
    const { raws, keys } = wordKeys(text);
    expect(raws).toEqual(tokens.map((t) => t.raw));
    expect(keys).toEqual(tokens.map((t) => t.key));
    expect(keys).toContain("party");
    expect(keys).toContain("process");
    expect(wordKey("Controller’s")).toBe("controller");
  });
});

describe("TermIndex with a term defined in thousands of sources", () => {
  it("keeps each definition once (repeated ids ignored) and follows removals by source", () => {
    const sources = Array.from({ length: 5000 }, (_, i) => `title${i}.md`);
    const idx = new TermIndex([...sources.map((s) => entry("agency", s)), ...sources.slice(0, 100).map((s) => entry("agency", s))]);
    expect(idx.define("agencies")).toHaveLength(5000);
    expect(idx.removeBySource("title7.md")).toBe(1);
    idx.addAll([entry("agency", "title7.md"), entry("agency", "title8.md")]);
    const ids = idx.define("agency").map((d) => d.id);
    expect(ids).toHaveLength(5000);
    expect(new Set(ids).size).toBe(5000);
    expect(ids[ids.length - 1]).toBe("title7.md#agency");
  });
});

describe("scanWords", () => {
  const scanned = (text: string): { raws: string[]; keys: string[] } => {
    const raws: string[] = ["stale"];
    const keys: string[] = ["stale"];
    const n = scanWords(text, raws, keys);
    return { raws: raws.slice(0, n), keys: keys.slice(0, n) };
  };

  it("finds the words and keys wordKeys finds, joiners, non-ASCII letters and digits and astral letters included", () => {
    const texts = [
      "The Data Controllers’ duties: parties' processes, boxes and Authorised Persons (ADGM) — re-insurance_v2.",
      "ends with a joiner- and -starts, double--dash, it's, o’clock’, x_ _y, '' ’’ -",
      "Ünïcödé straße, ΑΒΓ δέλτα, 東京都 ² ½ Ⅻ ٣٤ ๕, 𝐀𝐁c 𝟙2 -𝐀 a-𝐁 \ud800 lone \udc00 surrogates",
      "",
      "   ",
      "a",
      "x-",
      "article 4(1)(a)–(c) and § 12.3.4",
    ];
    for (const text of texts) expect(scanned(text)).toEqual(wordKeys(text));
  });

  it("splits every GDPR and ObliQA text as wordKeys does", () => {
    const gdpr = readFileSync("/work/shared/corpora/gdpr/gdpr_2016_679.md", "utf8");
    const obliqa = JSON.parse(readFileSync("/work/shared/corpora/obliqa/ObliQA_dev.json", "utf8")) as Array<{ Question: string; Passages: Array<{ Passage: string }> }>;
    const texts = [...gdpr.split("\n\n"), ...obliqa.flatMap((q) => [q.Question, ...q.Passages.map((p) => p.Passage)])];
    expect(texts.length).toBeGreaterThan(1000);
    let words = 0;
    for (const text of texts) {
      const got = scanned(text);
      expect(got).toEqual(wordKeys(text));
      words += got.raws.length;
    }
    expect(words).toBeGreaterThan(100_000);
  });
});

describe("TermIndex matches by text, definitions by source", () => {
  it("gives the same text in two sources each source's own definitions", () => {
    const idx = new TermIndex([entry("controller", "a.md"), entry("controller", "b.md"), entry("processor", "a.md")]);
    const text = "the controller and the processor";
    expect(idx.termsUsedIn(text, "b.md").map((e) => e.id)).toEqual(["b.md#controller", "a.md#processor"]);
    expect(idx.termsUsedIn(text, "a.md").map((e) => e.id)).toEqual(["a.md#controller", "a.md#processor"]);
    expect(idx.termsUsedIn(text, "c.md").map((e) => e.id)).toEqual(["a.md#controller", "b.md#controller", "a.md#processor"]);
    expect(idx.termsUsedIn(text).map((e) => e.id)).toEqual(["a.md#controller", "b.md#controller", "a.md#processor"]);
  });

  it("forgets a text's matches when definitions are added or removed", () => {
    const idx = new TermIndex([entry("controller", "a.md")]);
    const text = "the joint controller and the processor";
    expect(idx.termsUsedIn(text, "x.md").map((e) => e.term)).toEqual(["controller"]);
    idx.add(entry("processor", "b.md"), entry("joint controller", "b.md"));
    expect(idx.termsUsedIn(text, "y.md").map((e) => e.term)).toEqual(["joint controller", "processor"]);
    idx.removeBySource("b.md");
    expect(idx.termsUsedIn(text, "z.md").map((e) => e.term)).toEqual(["controller"]);
    expect(idx.termsUsedIn(text, "x.md").map((e) => e.term)).toEqual(["controller"]);
  });

  it("returns copies: a caller changing its list does not change later answers", () => {
    const idx = new TermIndex([entry("controller", "a.md")]);
    idx.termsUsedIn("the controller", "q.md").length = 0;
    expect(idx.termsUsedIn("the controller", "q.md").map((e) => e.term)).toEqual(["controller"]);
    expect(idx.termsUsedIn("the controller", "r.md").map((e) => e.term)).toEqual(["controller"]);
  });
});
