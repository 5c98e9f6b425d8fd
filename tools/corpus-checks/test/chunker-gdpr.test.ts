import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument } from "@hierdoc/chunker";

const corpora = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora");
const present = existsSync(`${corpora}/gdpr`);
const describeIf = present ? describe : describe.skip;
const suffix = present ? "" : " (skipped: ../shared/corpora not present)";

const norm = (s: string): string => s.replace(/\s+/g, " ").trim();

describeIf(`chunker gold: GDPR markdown${suffix}`, () => {
  const text = present ? readFileSync(`${corpora}/gdpr/gdpr_2016_679.md`, "utf8") : "";
  const parsed = present ? parseDocument({ sourcePath: "gdpr.md", fileType: "markdown", format: "markdown", text }) : undefined;

  it("has the 99 articles, each under chapter › (section) with the document title as root", () => {
    const articles = parsed!.sections.filter((s) => /^Article \d+$/.test(s.sectionId));
    const numbers = new Set(articles.map((a) => Number(a.sectionId.slice(8))));
    let wellPlaced = 0;
    for (const a of articles) {
      const chain = a.parentChain.slice(1);
      const ok =
        a.parentChain[0].startsWith("Regulation (EU) 2016/679") &&
        /^CHAPTER [IVX]+ — /.test(chain[0]) &&
        (chain.length === 1 || (chain.length === 2 && /^Section \d+ — /.test(chain[1]))) &&
        a.parentIds[a.parentIds.length - 1] === (chain.length === 2 ? `Section ${/^Section (\d+)/.exec(chain[1])![1]}` : a.parentIds[1]) &&
        a.title.startsWith(`${a.sectionId} — `);
      if (ok) wellPlaced++;
    }
    console.log(`chunker gold GDPR: ${numbers.size} distinct articles, ${wellPlaced}/${articles.length} with chapter › (section) › article chains`);
    expect(articles).toHaveLength(99);
    expect([...numbers].sort((x, y) => x - y)).toEqual(Array.from({ length: 99 }, (_, i) => i + 1));
    expect(wellPlaced).toBe(99);
    const art17 = articles.find((a) => a.sectionId === "Article 17")!;
    expect(art17.parentChain.slice(1)).toEqual(["CHAPTER III — Rights of the data subject", "Section 3 — Rectification and erasure"]);
    expect(art17.aliases).toEqual(expect.arrayContaining(["Art. 17", "17"]));
  });

  it("makes the 26 Article 4 points units 'Article 4(n)' whose text holds the gold definition, listed in chunk unitIds", () => {
    const gold = JSON.parse(readFileSync(`${corpora}/gdpr/gdpr_art4_definitions.json`, "utf8")) as Array<{ article: string; point: number; text: string }>;
    const unitIds = new Set(parsed!.chunks.flatMap((c) => c.unitIds));
    let found = 0;
    for (const g of gold) {
      const id = `${g.article}(${g.point})`;
      const s = parsed!.sections.find((x) => x.sectionId === id);
      if (s && norm(text.slice(s.start, s.end)).includes(norm(g.text)) && unitIds.has(id) && s.parentIds.at(-1) === "Article 4") found++;
    }
    console.log(`chunker gold GDPR Article 4 points: ${found}/${gold.length}`);
    expect(found).toBe(gold.length);
    expect(parsed!.sections.find((s) => s.sectionId === "Article 4(11)")?.aliases).toContain("Art. 4(11)");
  });

  it("keeps every chunk an exact slice within the token limit, and Article 17 retrievable as its own chunk(s)", () => {
    for (const c of parsed!.chunks) {
      expect(text.slice(c.start, c.end)).toBe(c.content);
      expect(c.tokens).toBeLessThanOrEqual(800);
    }
    const art17 = parsed!.chunks.filter((c) => c.sectionId === "Article 17");
    expect(art17.length).toBeGreaterThan(0);
    expect(art17[0].content).toMatch(/^#+ Article 17 — Right to erasure/);
    expect(art17.flatMap((c) => c.unitIds)).toEqual(expect.arrayContaining(["Article 17(1)", "Article 17(1)(a)", "Article 17(3)(e)"]));
    expect(art17[0].parentChain.slice(1)).toEqual(["CHAPTER III — Rights of the data subject", "Section 3 — Rectification and erasure"]);
  });
});
