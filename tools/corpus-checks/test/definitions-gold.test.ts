import { afterAll, describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractDefinitions, normalizeTerm } from "@hierdoc/definitions";
import { corpora, haveCorpora, loadDoc, parse, parserName, prf, readJsonl, skipReason } from "./definitions-gold-helpers.js";

const d = haveCorpora ? describe : describe.skip;
const report: Record<string, unknown> = {};

d(`definitions against gold annotations (${parserName})${skipReason}`, () => {
  it("GDPR Article 4: 26 of 26 terms with definition text and point id", () => {
    const gold = JSON.parse(readFileSync(join(corpora, "gdpr/gdpr_art4_definitions.json"), "utf8")) as Array<{
      article: string;
      point: number;
      term: string;
      text: string;
    }>;
    const doc = loadDoc("gdpr/gdpr_2016_679.md", "markdown");
    const { sections, chunks } = parse(doc);
    const defs = extractDefinitions(doc, sections, chunks);
    let exact = 0;
    for (const g of gold) {
      const hit = defs.find((x) => x.termNormalized === normalizeTerm(g.term));
      // The gold keeps only the lead-in of a definition that continues in points ("‘main establishment’ means:");
      // the extractor adds the points (a), (b) … after it.
      const text = hit?.definitionText.trim() ?? "";
      const same = text === g.text.trim() || (g.text.trim().endsWith(":") && text.startsWith(g.text.trim()) && /^\s+\(a\)/.test(text.slice(g.text.trim().length)));
      if (hit && hit.sourceSection === `${g.article}(${g.point})` && same) exact++;
    }
    const inArt4 = defs.filter((x) => x.sourceSection.startsWith("Article 4("));
    report.gdpr = { gold: gold.length, exact, extractedInArticle4: inArt4.length, extractedTotal: defs.length };
    expect(exact).toBe(26);
    expect(inArt4.length).toBe(26);
  });

  it("CFR 27 meaning-of-terms sections: recall >= 95%, precision >= 90%", () => {
    const gold = readJsonl<{ section: string; term: string }>("cfr27/md/cfr27_vol3.definitions.jsonl");
    const doc = loadDoc("cfr27/md/cfr27_vol3.md", "markdown");
    const { sections, chunks } = parse(doc);
    const defs = extractDefinitions(doc, sections, chunks);
    const key = (section: string, term: string) => `${section}|${normalizeTerm(term)}`;
    const goldKeys = new Set(gold.map((g) => key(`§ ${g.section.replace(/^.*\/s/, "")}`, g.term)));
    const found = new Set(defs.map((x) => key(x.sourceSection.replace(/\(.*$/, ""), x.term)));
    const tp = [...found].filter((k) => goldKeys.has(k)).length;
    const m = prf(tp, found.size, goldKeys.size);
    report.cfr = { gold: goldKeys.size, found: found.size, tp, ...m };
    expect(m.recall).toBeGreaterThanOrEqual(95);
    expect(m.precision).toBeGreaterThanOrEqual(90);
  });

  it("ObliQA glossary: >= 95% of term<TAB>definition rows", () => {
    const rel = "obliqa/StandardizedRegulatoryDocumentsTXT/GLO_VER19.181223.txt";
    const doc = loadDoc(rel, "text");
    const lines = doc.text.split(/\r?\n/);
    const start = lines.findIndex((l) => /^Defined Terms\tDefinitions/.test(l));
    const end = lines.findIndex((l, i) => i > start && l.startsWith("/Table End"));
    const goldRows = lines
      .slice(start + 1, end)
      .map((l) => l.split("\t"))
      .filter((c) => c.length >= 2 && c[0].trim() && c[1].trim() && !/^\(?(?:[a-zA-Z]{1,3}|[ivxIVX]+|\d{1,2})[).]?$/.test(c[0].trim()));
    const { sections, chunks } = parse(doc);
    const defs = extractDefinitions(doc, sections, chunks);
    const terms = new Set(defs.map((x) => normalizeTerm(x.term)));
    const tp = goldRows.filter((c) => terms.has(normalizeTerm(c[0]))).length;
    const m = prf(tp, defs.length, goldRows.length);
    report.glossary = { rows: goldRows.length, found: defs.length, tp, ...m };
    expect(goldRows.length).toBeGreaterThan(700);
    expect(m.recall).toBeGreaterThanOrEqual(95);
  });

  const rfcTotals = { gold: 0, tp: 0 };
  // Per-document guards at the measured level (9112 has only 6 gold terms); the 80% is asserted on the three together.
  it.each([
    ["9110", 80],
    ["9111", 91],
    ["9112", 66],
  ])("RFC %s terminology: defined terms with the right section (recall >= %i%%)", (n, floor) => {
    const gold = readJsonl<{ term: string; section: string }>(`rfc/derived/rfc${n}.definitions.jsonl`);
    const doc = loadDoc(`rfc/derived/rfc${n}.md`, "markdown");
    const { sections, chunks } = parse(doc);
    const defs = extractDefinitions(doc, sections, chunks);
    const found = new Set(defs.map((x) => `${x.sourceSection}|${normalizeTerm(x.term)}`));
    const tp = gold.filter((g) => found.has(`${g.section}|${normalizeTerm(g.term)}`)).length;
    const m = prf(tp, found.size, gold.length);
    const missed = gold.filter((g) => !found.has(`${g.section}|${normalizeTerm(g.term)}`)).map((g) => g.term);
    report[`rfc${n}`] = { gold: gold.length, found: found.size, tp, ...m, missed };
    rfcTotals.gold += gold.length;
    rfcTotals.tp += tp;
    expect(m.recall).toBeGreaterThanOrEqual(floor);
  });

  it("RFC 9110/9111/9112 together: recall >= 80% with the right section", () => {
    expect(rfcTotals.gold).toBe(101);
    const m = prf(rfcTotals.tp, rfcTotals.tp, rfcTotals.gold);
    report.rfcAll = { gold: rfcTotals.gold, tp: rfcTotals.tp, recall: m.recall };
    expect(m.recall).toBeGreaterThanOrEqual(80);
  });

  afterAll(() => {
    console.log(JSON.stringify(report, null, 1));
  });
});
