import { describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolConfigSchema } from "@hierdoc/core";
import { HashEmbedder } from "@hierdoc/embeddings";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool } from "@hierdoc/tool";

const here = dirname(fileURLToPath(import.meta.url));
const CORPORA = resolve(here, "../../../../shared/corpora");
const present = existsSync(CORPORA);

interface Case {
  name: string;
  file: string;
  gold: string;
  /** Canonical section id of a gold row, and the surface forms a user types for it. */
  forms: (num: string) => { id: string; queries: string[] };
}

const USC = ["01", "04", "09", "17", "35", "44", "51"].map(
  (t): Case => ({
    name: `US Code title ${Number(t)}`,
    file: `uscode/md/usc${t}.md`,
    gold: `uscode/md/usc${t}.sections.jsonl`,
    forms: (n) => ({ id: `§ ${n}`, queries: [`§ ${n}`, `Section ${n}`, `s. ${n}`] }),
  }),
);
const CASES: Case[] = [
  ...USC,
  { name: "CFR 27", file: "cfr27/md/cfr27_vol3.md", gold: "cfr27/md/cfr27_vol3.sections.jsonl", forms: (n) => ({ id: `§ ${n}`, queries: [`§ ${n}`, `Section ${n}`, n] }) },
  {
    name: "RFC 9110 (xml2rfc XML)",
    file: "rfc/rfc9110.xml",
    gold: "rfc/derived/rfc9110.sections.jsonl",
    forms: (n) =>
      /^[A-Z]/.test(n)
        ? { id: `Appendix ${n}`, queries: [`Appendix ${n}`, `appendix ${n} of RFC 9110`, `App. ${n}`] }
        : { id: n, queries: [`Section ${n}`, n, `section ${n} of RFC 9110`] },
  },
];

/** Section id of a result, with a letter-suffixed gold quirk allowed (gold "478.25" for "§ 478.25a"). */
function sameId(got: string, want: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, " ").replace(/\.$/, "").trim().toLowerCase();
  return norm(got) === norm(want);
}

const suite = present ? describe : describe.skip;
suite(`exact section lookup in hybrid mode, every gold id in three surface forms${present ? "" : " (skipped: ../shared/corpora not present)"}`, () => {
  const totals = { queries: 0, rank1: 0 };
  for (const c of CASES) {
    it(`${c.name}: the section is rank 1 for ≥ 99% of queries`, async () => {
      const config = ToolConfigSchema.parse({ name: "x", type: "hierarchical_document", source: "." });
      const tool = await HierarchicalDocumentTool.open({
        config,
        indexDir: mkdtempSync(join(tmpdir(), "hierdoc-exact-")),
        store: new MemoryStore(),
        embedder: new HashEmbedder({ dimensions: 64 }),
      });
      try {
        const report = await tool.ingest([join(CORPORA, c.file)]);
        expect(report.files[0].outcome).toBe("added");
        const rows = readFileSync(join(CORPORA, c.gold), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { num?: string; number?: string });
        let queries = 0;
        let rank1 = 0;
        const misses: string[] = [];
        for (const row of rows) {
          const num = String(row.num ?? row.number);
          const { id, queries: forms } = c.forms(num);
          for (const q of forms) {
            const res = await tool.search(q, { topK: 3 });
            queries++;
            const top = res.results[0]?.sectionId ?? "";
            // A heading-only section is merged in front of its first child's chunk: that chunk starts with
            // the section's own heading ("## 1. Introduction" then "### 1.1. Purpose"), and is the right hit.
            const firstLine = (res.results[0]?.content ?? "").split("\n")[0].replace(/^#+\s*/, "");
            const startsWithHeading = firstLine.startsWith(`${num}. `) || firstLine.startsWith(`${id} `) || firstLine.startsWith(`${id}.`);
            if (sameId(top, id) || (/[a-z]$/i.test(top) && sameId(top.slice(0, -1), id)) || startsWithHeading) rank1++;
            else if (misses.length < 12) misses.push(`${q} → ${top}`);
          }
        }
        totals.queries += queries;
        totals.rank1 += rank1;
        console.log(`${c.name}: ${rank1}/${queries} rank 1 (${((100 * rank1) / queries).toFixed(2)}%)${misses.length ? `; e.g. ${misses.join("; ")}` : ""}`);
        expect(rank1 / queries).toBeGreaterThanOrEqual(0.99);
      } finally {
        await tool.close();
        rmSync(tool.indexDir, { recursive: true, force: true });
      }
    }, 300_000);
  }
});
