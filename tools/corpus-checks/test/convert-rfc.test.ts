import { readFileSync } from "node:fs";
import { join } from "node:path";
import { convertFile } from "@hierdoc/convert";
import { corpora, haveCorpora, markdownHeadings, matchRate, readJsonl } from "./convert-gold-helpers.js";

interface GoldRfcSection {
  number: string | null;
  title: string;
  anchor: string | null;
  parents: string[];
  heading: string;
}

const d = haveCorpora ? describe : describe.skip;
const suffix = haveCorpora ? "" : " (skipped: ../shared/corpora not present)";

d(`xml2rfc XML → numbered markdown headings vs gold sections${suffix}`, () => {
  it.each(["rfc9110", "rfc9111", "rfc9112"])("%s: ≥ 99% of gold section numbers, titles and parents", async (stem) => {
    const doc = await convertFile(`rfc/${stem}.xml`, readFileSync(join(corpora, "rfc", `${stem}.xml`)));
    expect(doc).toMatchObject({ fileType: "rfc-xml", format: "markdown" });
    const found = markdownHeadings(doc.text)
      .filter((h) => h.level > 1)
      .map((h) => ({ label: h.text, parents: h.parents.slice(1) }));
    const gold = readJsonl<GoldRfcSection>(join(corpora, "rfc/derived", `${stem}.sections.jsonl`));
    const r = matchRate(gold.map((g) => ({ label: g.heading, parents: g.parents })), found);
    console.log(`${stem} headings: ${r.matched}/${r.total} = ${(100 * r.rate).toFixed(2)}%\n${r.misses.slice(0, 5).join("\n")}`);
    expect(r.rate).toBeGreaterThanOrEqual(0.99);
    for (const g of gold.filter((x) => x.anchor)) {
      const entry = doc.sourceMap?.find((e) => e.anchor === g.anchor);
      expect(entry && doc.text.slice(entry.start, entry.end).split("\n")[0]).toMatch(/^#+ /);
    }
  });
});
