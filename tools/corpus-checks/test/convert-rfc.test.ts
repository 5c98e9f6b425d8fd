import { readFileSync } from "node:fs";
import { join } from "node:path";
import { convertFile } from "@hierdoc/convert";
import { corpora, haveCorpora, markdownHeadings, matchRate, readJsonl } from "./convert-gold-helpers.js";

interface GoldXref {
  from_section: string;
  target: string;
  target_section?: string;
  external?: string;
  external_section?: string;
}

/** Body text of each numbered section ("9.3.1" → text under its heading up to the next heading). */
function bodiesByNumber(md: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = md.split(/^(#{1,6} .*)$/m);
  for (let i = 1; i < parts.length; i += 2) {
    const m = /^#+ (?:Appendix )?([A-Z0-9]+(?:\.[0-9]+)*)\. /.exec(parts[i]);
    if (m) out.set(m[1], parts[i + 1] ?? "");
  }
  return out;
}

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
    const doc = await convertFile(`rfc/${stem}.xml`, readFileSync(join(corpora, "rfc", `${stem}.xml`)), {
      resolveSource: (href) => readFileSync(join(corpora, "rfc", href)),
    });
    expect(doc).toMatchObject({ fileType: "rfc-xml", format: "markdown" });
    const found = markdownHeadings(doc.text)
      .filter((h) => h.level > 1)
      .map((h) => ({ label: h.text, parents: h.parents.slice(1) }));
    const gold = readJsonl<GoldRfcSection>(join(corpora, "rfc/derived", `${stem}.sections.jsonl`));
    const r = matchRate(gold.map((g) => ({ label: g.heading, parents: g.parents })), found);
    console.log(`${stem} headings: ${r.matched}/${r.total} = ${(100 * r.rate).toFixed(2)}%\n${r.misses.slice(0, 5).join("\n")}`);
    expect(r.rate).toBeGreaterThanOrEqual(0.99);
    const xrefs = readJsonl<GoldXref>(join(corpora, "rfc/derived", `${stem}.xrefs.jsonl`));
    const bodies = bodiesByNumber(doc.text);
    const cited = (x: GoldXref) => {
      const body = bodies.get(x.from_section) ?? "";
      if (x.external_section) return body.includes(`${x.external_section} of [${x.external}]`) || body.includes(`[${x.external}], Section ${x.external_section}`);
      if (x.target_section) return new RegExp(`(Section|Appendix|Sections)[^.]*\\b${x.target_section.replace(/\./g, "\\.")}\\b|\\b${x.target_section.replace(/\./g, "\\.")}\\b`).test(body);
      return true;
    };
    const external = xrefs.filter((x) => x.external_section);
    const internal = xrefs.filter((x) => x.target_section);
    const extOk = external.filter(cited).length;
    const intOk = internal.filter(cited).length;
    console.log(`${stem} cross-references in the right section: internal ${intOk}/${internal.length}, to another RFC's section ${extOk}/${external.length}`);
    expect(intOk / internal.length).toBeGreaterThanOrEqual(0.95);
    if (external.length > 0) expect(extOk / external.length).toBeGreaterThanOrEqual(0.9);
    for (const g of gold.filter((x) => x.anchor)) {
      const entry = doc.sourceMap?.find((e) => e.anchor === g.anchor);
      expect(entry && doc.text.slice(entry.start, entry.end).split("\n")[0]).toMatch(/^#+ /);
    }
  });
});
