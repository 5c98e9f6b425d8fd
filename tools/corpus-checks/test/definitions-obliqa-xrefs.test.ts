import { afterAll, describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DocumentMap, SectionResolver, extractCrossReferences, sectionKey } from "@hierdoc/definitions";
import { corpora, haveCorpora, loadDoc, parse, parserName, prf, resolverEntries, skipReason } from "./definitions-gold-helpers.js";

const d = haveCorpora ? describe : describe.skip;
const report: Record<string, unknown> = {};

/** Minimal RFC 4180 CSV reader (quoted fields with commas, quotes and newlines). */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

const same = (a: string, b: string) => {
  const x = sectionKey(a);
  const y = sectionKey(b);
  return x.bare === y.bare;
};

/** True when a resolved unit is the gold passage or a finer unit inside it ("5.1.1(b)" inside passage "5.1.1"). */
const within = (resolved: string, gold: string) => {
  const x = sectionKey(resolved).bare;
  const y = sectionKey(gold).bare;
  return x === y || x.startsWith(`${y}(`);
};

d(`ObliQA cross-references against CrossReferenceData.csv (${parserName})${skipReason}`, () => {
  function obliqa(parser: "chunker" | "fallback") {
    const [header, ...rows] = readCsv(readFileSync(join(corpora, "obliqa/CrossReferenceData.csv"), "utf8"));
    const col = (name: string) => header.indexOf(name);
    const files = JSON.parse(readFileSync(join(corpora, "obliqa/document_files.json"), "utf8")) as Record<string, string>;
    const internal = rows.filter((r) => r[col("ReferenceType")] === "Internal");
    const byDoc = new Map<string, string[][]>();
    for (const r of internal) byDoc.set(r[col("SourceDocumentID")], [...(byDoc.get(r[col("SourceDocumentID")]) ?? []), r]);
    let detected = 0;
    let resolved = 0;
    const misses: string[] = [];
    for (const [docId, list] of byDoc) {
      const doc = loadDoc(`obliqa/StandardizedRegulatoryDocumentsTXT/${files[docId]}`, "text");
      const { sections, chunks } = parse(doc, parser);
      const map = new DocumentMap(sections, chunks);
      const resolver = new SectionResolver(resolverEntries(doc.sourcePath, sections, chunks));
      const refs = extractCrossReferences(doc, sections, chunks).map((r) => ({
        ...resolver.resolve(r, doc.sourcePath),
        unit: map.sectionAt(r.start)?.sectionId ?? "",
      }));
      for (const r of list) {
        const from = r[col("SourcePassageID")];
        const target = r[col("TargetPassageID")];
        const inPassage = refs.filter((x) => within(x.unit, from) || same(x.fromSectionId, from));
        if (inPassage.length > 0) detected++;
        if (inPassage.some((x) => !x.external && x.targetSectionId !== null && within(x.targetSectionId, target))) resolved++;
        else if (misses.length < 400)
          misses.push(
            `${docId} ${from} | ${r[col("ReferenceText")].trim()} -> ${target} | got ${inPassage.map((x) => `${x.targetSectionId}${x.external ? "!" : ""}`).join(",")} | ${r[col("SourcePassage")].slice(0, 160).replace(/\s+/g, " ")}`,
          );
      }
    }
    const m = prf(resolved, internal.length, internal.length);
    report[`obliqa (${parser})`] = { internalRows: internal.length, sourcePassageHasReference: detected, resolvedToGoldTarget: resolved, recall: m.recall };
    if (process.env.HIERDOC_DEBUG) report[`obliqa misses (${parser})`] = misses;
    return m;
  }

  it("Internal rows resolved to the gold target passage, on the files' own unit lines (regression guard)", () => {
    expect(obliqa("fallback").recall).toBeGreaterThanOrEqual(87);
  });

  it(">= 85% of Internal rows resolved to the gold target passage, with the chunker's units", () => {
    expect(obliqa("chunker").recall).toBeGreaterThanOrEqual(90);
  });

  afterAll(() => {
    console.log(JSON.stringify(report, null, 1));
  });
});
