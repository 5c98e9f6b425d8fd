import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument } from "@hierdoc/chunker";
import type { Section } from "@hierdoc/core";

const corpora = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora");
const present = existsSync(`${corpora}/obliqa`);
const describeIf = present ? describe : describe.skip;
const suffix = present ? "" : " (skipped: ../shared/corpora not present)";

const norm = (s: string): string => s.replace(/[\u200e\u200f\ufeff]/g, "").replace(/\s+/g, " ").trim();
const QUALIFIER = /^(Part|PART|Schedule|SCHEDULE|APP|Appendix|APPENDIX)(\b|\d)/;

interface GoldPassage {
  PassageID: string;
  Passage: string;
}

/** True when `s` is the unit for gold id `pid`: same id, or the id without a leading qualifier its parent chain carries. */
function idMatches(s: Section, pid: string): boolean {
  if (s.sectionId === pid || s.sectionId === pid.trim()) return true;
  const dot = pid.indexOf(".");
  if (dot < 0 || !QUALIFIER.test(pid)) return false;
  const qualifier = pid.slice(0, dot);
  return s.sectionId === pid.slice(dot + 1) && s.parentIds.some((p) => p === qualifier || p.startsWith(`${qualifier}.`) || p.startsWith(`${qualifier} `));
}

describeIf(`chunker gold: ObliQA TXT units${suffix}`, () => {
  it("finds >= 97% of non-empty gold passages as units with the gold id whose text contains the passage", () => {
    const files = JSON.parse(readFileSync(`${corpora}/obliqa/document_files.json`, "utf8")) as Record<string, string>;
    let found = 0;
    let total = 0;
    const perDoc: string[] = [];
    const misses: string[] = [];
    for (const [docId, file] of Object.entries(files)) {
      const text = readFileSync(`${corpora}/obliqa/StandardizedRegulatoryDocumentsTXT/${file}`, "utf8");
      const parsed = parseDocument({ sourcePath: file, fileType: "text", format: "text", text });
      const byTail = new Map<string, Section[]>();
      for (const s of parsed.sections) {
        const tail = s.sectionId;
        byTail.set(tail, [...(byTail.get(tail) ?? []), s]);
      }
      const gold = JSON.parse(readFileSync(`${corpora}/obliqa/StructuredRegulatoryDocuments/${docId}.json`, "utf8")) as GoldPassage[];
      let docFound = 0;
      let docTotal = 0;
      for (const g of gold) {
        if (g.Passage.trim().length === 0) continue;
        docTotal++;
        const pid = g.PassageID;
        const dot = pid.indexOf(".");
        const candidates = [...(byTail.get(pid) ?? []), ...(byTail.get(pid.trim()) ?? []), ...(dot > 0 ? (byTail.get(pid.slice(dot + 1)) ?? []) : [])];
        const want = norm(g.Passage);
        const ok = candidates.some((s) => idMatches(s, pid) && norm(text.slice(s.start, s.end)).includes(want));
        if (ok) docFound++;
        else if (misses.length < 25) misses.push(`${docId}:${pid}${candidates.length > 0 ? " (id found, text differs)" : ""}`);
      }
      found += docFound;
      total += docTotal;
      perDoc.push(`${docId}:${docFound}/${docTotal}`);
    }
    console.log(`chunker gold ObliQA: ${found}/${total} = ${((100 * found) / total).toFixed(2)}%\nper document: ${perDoc.join(" ")}\nmisses: ${misses.join(" | ")}`);
    expect(total).toBeGreaterThan(12000);
    expect(found / total).toBeGreaterThanOrEqual(0.97);
  });
});
