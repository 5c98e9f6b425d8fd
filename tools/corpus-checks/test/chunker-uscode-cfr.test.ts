import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument, sectionIdFromHeading } from "@hierdoc/chunker";
import type { Section } from "@hierdoc/core";

const corpora = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora");
const present = existsSync(corpora);
const describeIf = present ? describe : describe.skip;
const suffix = present ? "" : " (skipped: ../shared/corpora not present)";

const norm = (s: string): string =>
  s
    .replace(/[\u2010-\u2015\u2212-]/g, "-")
    .replace(/\s*-\s*/g, "-")
    .replace(/\s+/g, " ")
    .trim();

interface GoldSection {
  num: string;
  heading: string;
  label: string;
  parents: string[];
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as T);
}

/** Share of gold sections found with the same number, heading and parent chain. */
function matchGold(mdPath: string, goldPath: string): { found: number; total: number; misses: string[] } {
  const text = readFileSync(mdPath, "utf8");
  const parsed = parseDocument({ sourcePath: mdPath, fileType: "markdown", format: "markdown", text });
  const byId = new Map<string, Section[]>();
  for (const s of parsed.sections) byId.set(s.sectionId, [...(byId.get(s.sectionId) ?? []), s]);
  const gold = readJsonl<GoldSection>(goldPath);
  const misses: string[] = [];
  let found = 0;
  for (const g of gold) {
    // CFR gold rows carry the base number for lettered sections ("478.25" for "§ 478.25a"): accept the letter.
    const letter = /^§ ([\d.]+)[a-z]\b/.exec(sectionIdFromHeading(g.label)?.id ?? "");
    const candidates = [...(byId.get(`§ ${g.num}`) ?? []), ...(letter && letter[1] === g.num ? (byId.get(sectionIdFromHeading(g.label)!.id) ?? []) : [])];
    const ok = candidates.some(
      (s) =>
        norm(s.title) === norm(g.label) &&
        s.parentChain.length === g.parents.length &&
        s.parentChain.every((p, i) => norm(p) === norm(g.parents[i])),
    );
    if (ok) found++;
    else misses.push(`${g.num}: ${g.label}`);
  }
  return { found, total: gold.length, misses };
}

describeIf(`chunker gold: US Code and CFR markdown sections${suffix}`, () => {
  it("finds >= 99% of the 1,011 US Code sections with number, heading and parent chain", () => {
    let found = 0;
    let total = 0;
    const misses: string[] = [];
    for (const t of ["01", "04", "09", "17", "35", "44", "51"]) {
      const r = matchGold(`${corpora}/uscode/md/usc${t}.md`, `${corpora}/uscode/md/usc${t}.sections.jsonl`);
      found += r.found;
      total += r.total;
      misses.push(...r.misses.map((m) => `usc${t} ${m}`));
    }
    console.log(`chunker gold US Code: ${found}/${total} = ${((100 * found) / total).toFixed(2)}%; misses: ${misses.slice(0, 10).join(" | ")}`);
    expect(total).toBe(1011);
    expect(found / total).toBeGreaterThanOrEqual(0.99);
  });

  it("finds >= 99% of the 344 CFR 27 sections with number, heading and parent chain", () => {
    const r = matchGold(`${corpora}/cfr27/md/cfr27_vol3.md`, `${corpora}/cfr27/md/cfr27_vol3.sections.jsonl`);
    console.log(`chunker gold CFR 27: ${r.found}/${r.total} = ${((100 * r.found) / r.total).toFixed(2)}%; misses: ${r.misses.slice(0, 10).join(" | ")}`);
    expect(r.total).toBe(344);
    expect(r.found / r.total).toBeGreaterThanOrEqual(0.99);
  });

  it("gives § sections under a Title N ancestor the 'N U.S.C. x' / 'N CFR x' aliases", () => {
    const usc = readFileSync(`${corpora}/uscode/md/usc35.md`, "utf8");
    const s101 = parseDocument({ sourcePath: "usc35.md", fileType: "markdown", format: "markdown", text: usc }).sections.find((s) => s.sectionId === "§ 101");
    expect(s101?.aliases).toEqual(expect.arrayContaining(["35 U.S.C. 101", "Section 101", "101"]));
    const cfr = readFileSync(`${corpora}/cfr27/md/cfr27_vol3.md`, "utf8");
    const s = parseDocument({ sourcePath: "cfr.md", fileType: "markdown", format: "markdown", text: cfr }).sections.find((x) => x.sectionId === "§ 478.11");
    expect(s?.aliases).toEqual(expect.arrayContaining(["27 CFR 478.11", "478.11"]));
  });
});
