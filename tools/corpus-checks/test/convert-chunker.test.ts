import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "@hierdoc/chunker";
import { convertFile } from "@hierdoc/convert";
import type { Section } from "@hierdoc/core";
import { corpora, haveCorpora, matchRate, norm, readJsonl } from "./convert-gold-helpers.js";

interface GoldUslm {
  num: string;
  label: string;
  parents: string[];
}
interface GoldRfc {
  number: string | null;
  heading: string;
  parents: string[];
}

const d = haveCorpora ? describe : describe.skip;
const suffix = haveCorpora ? "" : " (skipped: ../shared/corpora not present)";

async function sectionsOf(rel: string): Promise<{ sections: Section[]; title?: string }> {
  const doc = await convertFile(rel, readFileSync(join(corpora, rel)));
  const parsed = parseDocument(doc);
  for (const c of parsed.chunks.slice(0, 200)) expect(doc.text.slice(c.start, c.end)).toBe(c.content);
  return { sections: parsed.sections, title: doc.title };
}

/** Share of numbered gold sections whose chunker section (found by heading) has the gold number as id or alias. */
function idRate(gold: { num: string | null; label: string }[], sections: Section[], misses: string[] = []): number {
  const withNum = gold.filter((g) => g.num);
  const byTitle = new Map(sections.map((s) => [norm(s.title), s]));
  const ok = withNum.filter((g) => {
    const s = byTitle.get(norm(g.label));
    const hit = s !== undefined && [s.sectionId, ...s.aliases].some((id) => norm(id).replace(/^§\s*/, "") === g.num);
    if (!hit) misses.push(`${g.num} → ${s ? s.sectionId : "(no section)"}`);
    return hit;
  });
  return ok.length / withNum.length;
}

d(`XML → convert → parseDocument sections vs gold${suffix}`, () => {
  it("US Code titles and CFR 27: ≥ 99% with the same heading and parent chain", async () => {
    const rows: string[] = [];
    let matched = 0;
    let total = 0;
    const uscFiles = readdirSync(join(corpora, "uscode/xml")).filter((f) => /^usc\d+\.xml$/.test(f)).sort();
    const sets: { rel: string; gold: string }[] = [
      ...uscFiles.map((f) => ({ rel: `uscode/xml/${f}`, gold: `uscode/md/${f.replace(".xml", ".sections.jsonl")}` })),
      { rel: "cfr27/xml/CFR-2018-title27-vol3-uslm.xml", gold: "cfr27/md/cfr27_vol3.sections.jsonl" },
    ];
    for (const set of sets) {
      const { sections } = await sectionsOf(set.rel);
      const gold = readJsonl<GoldUslm>(join(corpora, set.gold));
      const r = matchRate(gold, sections.map((s) => ({ label: s.title, parents: s.parentChain })));
      const idMisses: string[] = [];
      const ids = idRate(gold.map((g) => ({ num: g.num, label: g.label })), sections, idMisses);
      rows.push(
        `${set.rel}: ${r.matched}/${r.total} headings+parents, section ids ${(100 * ids).toFixed(1)}% ` +
          `(id misses: ${idMisses.slice(0, 3).join(", ")}) ${r.misses.slice(0, 2).join(" | ")}`,
      );
      matched += r.matched;
      total += r.total;
    }
    console.log(`USLM via chunker: ${matched}/${total} = ${((100 * matched) / total).toFixed(2)}%\n${rows.join("\n")}`);
    expect(total).toBe(1011 + 344);
    expect(matched / total).toBeGreaterThanOrEqual(0.99);
  });

  it.each(["rfc9110", "rfc9111", "rfc9112"])("%s: ≥ 99% with the same number, title and parents", async (stem) => {
    const { sections, title } = await sectionsOf(`rfc/${stem}.xml`);
    const found = sections.map((s) => ({
      label: s.title,
      parents: s.parentChain[0] === title ? s.parentChain.slice(1) : s.parentChain,
    }));
    const gold = readJsonl<GoldRfc>(join(corpora, "rfc/derived", `${stem}.sections.jsonl`));
    const r = matchRate(gold.map((g) => ({ label: g.heading, parents: g.parents })), found);
    const idMisses: string[] = [];
    const ids = idRate(gold.map((g) => ({ num: g.number, label: g.heading })), sections, idMisses);
    console.log(
      `${stem} via chunker: ${r.matched}/${r.total} = ${(100 * r.rate).toFixed(2)}%, section ids ${(100 * ids).toFixed(1)}% ` +
        `(id misses: ${idMisses.slice(0, 4).join(", ")})\n${r.misses.slice(0, 3).join("\n")}`,
    );
    expect(r.rate).toBeGreaterThanOrEqual(0.99);
  });
});
