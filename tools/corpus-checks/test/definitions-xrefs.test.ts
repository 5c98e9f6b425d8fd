import { afterAll, describe, expect, it } from "@jest/globals";
import { SectionResolver, TermIndex, extractCrossReferences, extractDefinitions } from "@hierdoc/definitions";
import { haveCorpora, loadDoc, parse, parserName, prf, readJsonl, resolverEntries, skipReason } from "./definitions-gold-helpers.js";

const d = haveCorpora ? describe : describe.skip;
const report: Record<string, unknown> = {};

/** Counts gold pairs matched by detected pairs, respecting multiplicity. */
function matchPairs(gold: string[], found: string[]): number {
  const pool = new Map<string, number>();
  for (const f of found) pool.set(f, (pool.get(f) ?? 0) + 1);
  let tp = 0;
  for (const g of gold) {
    const n = pool.get(g) ?? 0;
    if (n > 0) {
      tp++;
      pool.set(g, n - 1);
    }
  }
  return tp;
}

d(`cross-references against gold annotations (${parserName})${skipReason}`, () => {
  function rfc9110(parser: "chunker" | "fallback") {
    const gold = readJsonl<{ from_section: string; target_section?: string; external?: string }>("rfc/derived/rfc9110.xrefs.jsonl")
      .filter((g) => !g.external && g.target_section)
      .map((g) => `${g.from_section}>${g.target_section}`);
    const doc = loadDoc("rfc/derived/rfc9110.md", "markdown");
    const { sections, chunks } = parse(doc, parser);
    const resolver = new SectionResolver(resolverEntries(doc.sourcePath, sections, chunks));
    const refs = extractCrossReferences(doc, sections, chunks).map((r) => ({ ...r, ...resolver.resolve(r, doc.sourcePath) }));
    const internal = refs.filter((r) => !r.external);
    const found = internal.map((r) => `${r.fromSectionId}>${r.targetSectionId}`.replace(/Appendix /g, ""));
    const tp = matchPairs(gold, found);
    const m = prf(tp, internal.length, gold.length);
    report[`rfc9110 (${parser})`] = { gold: gold.length, detectedInternal: internal.length, detectedExternal: refs.length - internal.length, tp, ...m };
    return m;
  }

  it("RFC 9110: >= 95% of internal references detected and resolved to the right section (chunker's sections)", () => {
    expect(rfc9110("chunker").recall).toBeGreaterThanOrEqual(95);
  });

  it("RFC 9110: internal references on the document's own headings (regression guard for the extractor alone)", () => {
    expect(rfc9110("fallback").recall).toBeGreaterThanOrEqual(99);
  });

  it("US Code: citations of other titles detected as external with the right title and section", () => {
    const out: Record<string, unknown> = {};
    let goldAll = 0;
    let tpAll = 0;
    for (const t of ["01", "04", "09", "17", "35", "44", "51"]) {
      const gold = readJsonl<{ from: string; href: string | null; text: string }>(`uscode/md/usc${t}.xrefs.jsonl`)
        .map((g) => ({ from: /\/s([^/]+)/.exec(g.from)?.[1], m: /^\/us\/usc\/t(\d+)\/s([^/]+)/.exec(g.href ?? "") }))
        .filter((g) => g.m && g.m[1] !== String(Number(t)))
        .map((g) => `§ ${g.from}>title ${g.m![1]}>§ ${g.m![2]}`);
      const doc = loadDoc(`uscode/md/usc${t}.md`, "markdown");
      const { sections, chunks } = parse(doc);
      const refs = extractCrossReferences(doc, sections, chunks).filter((r) => r.external);
      const found = refs.map((r) => `${r.fromSectionId}>${r.citedDocument}>${(r.targetSectionId ?? "").replace(/\(.*$/, "")}`);
      const tp = matchPairs(gold, found);
      out[`usc${t}`] = { gold: gold.length, tp };
      goldAll += gold.length;
      tpAll += tp;
    }
    const m = prf(tpAll, tpAll, goldAll);
    report.uscode = { gold: goldAll, tp: tpAll, recall: m.recall, perTitle: out };
    expect(m.recall).toBeGreaterThanOrEqual(90);
  });

  it("GDPR: the Article 17 chunks use 'personal data' (Article 4(1)) and cite Article 6(1), resolved", () => {
    const doc = loadDoc("gdpr/gdpr_2016_679.md", "markdown");
    const { sections, chunks } = parse(doc);
    const terms = new TermIndex(extractDefinitions(doc, sections, chunks));
    expect(terms.define("Personal Data").map((e) => e.sourceSection)).toEqual(["Article 4(1)"]);
    const resolver = new SectionResolver(resolverEntries(doc.sourcePath, sections, chunks));
    const art17 = chunks.filter((c) => c.sectionId.startsWith("Article 17"));
    expect(art17.length).toBeGreaterThan(0);
    const used = new Set(art17.flatMap((c) => terms.termsUsedIn(c.content, doc.sourcePath).map((e) => e.term)));
    expect(used.has("personal data")).toBe(true);
    const ids = new Set(art17.map((c) => c.id));
    const refs = extractCrossReferences(doc, sections, chunks)
      .filter((r) => ids.has(r.chunkId))
      .map((r) => resolver.resolve(r, doc.sourcePath));
    const art6 = refs.find((r) => r.text.includes("Article 6(1)"));
    expect(art6).toMatchObject({ external: false });
    expect(art6?.targetSectionId).toMatch(/^Article 6(?:\(1\)|$)/);
    expect(art6?.targetChunkId).toBeTruthy();
  });

  afterAll(() => {
    console.log(JSON.stringify(report, null, 1));
  });
});
