import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { convertFile } from "@hierdoc/convert";
import { corpora, haveCorpora, markdownHeadings, matchRate, norm, readJsonl } from "./convert-gold-helpers.js";

interface GoldSection {
  identifier: string;
  num: string;
  heading: string;
  label: string;
  parents: string[];
  text: string;
}

/** Share of gold sections whose converted body (text between its heading and the next) equals the gold text. */
function bodyAgreement(md: string, gold: GoldSection[]): { same: number; total: number } {
  const bodies = new Map<string, string>();
  const parts = md.split(/^(#{1,6} .*)$/m);
  for (let i = 1; i < parts.length; i += 2) bodies.set(norm(parts[i].replace(/^#+ /, "")), norm(parts[i + 1] ?? ""));
  const same = gold.filter((g) => bodies.get(norm(g.label)) === norm(g.text)).length;
  return { same, total: gold.length };
}

const d = haveCorpora ? describe : describe.skip;
const suffix = haveCorpora ? "" : " (skipped: ../shared/corpora not present)";

async function uslmSections(xmlPath: string, sourcePath: string) {
  const doc = await convertFile(sourcePath, readFileSync(xmlPath));
  expect(doc.fileType).toBe("uslm-xml");
  expect(doc.format).toBe("markdown");
  return { doc, found: markdownHeadings(doc.text).map((h) => ({ label: h.text, parents: h.parents })) };
}

d(`USLM XML → markdown headings vs gold sections${suffix}`, () => {
  const titles = haveCorpora
    ? readdirSync(join(corpora, "uscode/xml")).filter((f) => /^usc\d+\.xml$/.test(f)).sort()
    : [];

  it("US Code: ≥ 99% of gold sections with the same heading and parent chain", async () => {
    let matched = 0;
    let total = 0;
    let sameBody = 0;
    const misses: string[] = [];
    for (const file of titles) {
      const stem = file.replace(".xml", "");
      const { found, doc } = await uslmSections(join(corpora, "uscode/xml", file), `uscode/xml/${file}`);
      const gold = readJsonl<GoldSection>(join(corpora, "uscode/md", `${stem}.sections.jsonl`));
      const r = matchRate(gold, found);
      sameBody += bodyAgreement(doc.text, gold).same;
      matched += r.matched;
      total += r.total;
      misses.push(...r.misses.slice(0, 3).map((m) => `${stem}: ${m}`));
    }
    console.log(
      `USLM US Code headings: ${matched}/${total} = ${((100 * matched) / total).toFixed(2)}%; ` +
        `section bodies equal to gold text: ${sameBody}/${total}\n${misses.join("\n")}`,
    );
    expect(total).toBe(1011);
    expect(matched / total).toBeGreaterThanOrEqual(0.99);
    expect(sameBody / total).toBeGreaterThanOrEqual(0.99);
  });

  it("CFR 27: ≥ 99% of gold sections with the same heading and parent chain", async () => {
    const { found, doc } = await uslmSections(
      join(corpora, "cfr27/xml/CFR-2018-title27-vol3-uslm.xml"),
      "cfr27/xml/CFR-2018-title27-vol3-uslm.xml",
    );
    const gold = readJsonl<GoldSection>(join(corpora, "cfr27/md/cfr27_vol3.sections.jsonl"));
    const r = matchRate(gold, found);
    const bodies = bodyAgreement(doc.text, gold);
    console.log(
      `USLM CFR 27 headings: ${r.matched}/${r.total} = ${(100 * r.rate).toFixed(2)}%; ` +
        `section bodies equal to gold text: ${bodies.same}/${bodies.total} (tables differ: pipe tables vs flat cells)\n${r.misses.slice(0, 5).join("\n")}`,
    );
    expect(r.total).toBe(344);
    expect(r.rate).toBeGreaterThanOrEqual(0.99);
    expect(bodies.same / bodies.total).toBeGreaterThanOrEqual(0.95);
    const s47811 = doc.sourceMap?.find((e) => e.anchor === "/us/cfr/t27/s478.11");
    expect(s47811 && doc.text.slice(s47811.start, s47811.end)).toMatch(/^#+ § 478\.11 Meaning of terms\./);
  });
});
