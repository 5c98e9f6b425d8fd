import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ExactIndex } from "@hierdoc/keyword-search";

const here = dirname(fileURLToPath(import.meta.url));
const corpora = resolve(here, "../../../../shared/corpora");
const present = existsSync(corpora);

interface Gold {
  file: string;
  /** Canonical id as a chunker writes it, and how users type it. */
  canonical: (num: string) => string;
  forms: (num: string) => string[];
}

const legal = (num: string) => [`Section ${num}`, `what does § ${num} require?`, `s. ${num}`, `§${num}`];
const rfc = (num: string) =>
  /^[A-Z]$/.test(num)
    ? [`Appendix ${num}`, `what does appendix ${num} of RFC 9110 say?`, `App. ${num}`]
    : [`Section ${num}`, `what does section ${num} of RFC 9110 say?`, /\./.test(num) ? num : `sec. ${num}`];
const sets: Gold[] = [
  ...["usc01", "usc04", "usc09", "usc17", "usc35", "usc44", "usc51"].map((t) => ({
    file: `uscode/md/${t}.sections.jsonl`,
    canonical: (n: string) => `§ ${n}`,
    forms: (n: string) => [...legal(n), `${Number(t.slice(3))} U.S.C. § ${n}`],
  })),
  { file: "cfr27/md/cfr27_vol3.sections.jsonl", canonical: (n) => `§ ${n}`, forms: (n) => [...legal(n), `27 CFR ${n}`] },
  ...["rfc9110", "rfc9111", "rfc9112"].map((t) => ({ file: `rfc/derived/${t}.sections.jsonl`, canonical: (n: string) => (/^[A-Z]$/.test(n) ? `Appendix ${n}` : n), forms: rfc })),
];

(present ? describe : describe.skip)(
  present ? "ExactIndex over gold section ids (US Code, CFR 27, RFC 9110-9112)" : "ExactIndex over gold section ids (skipped: ../shared/corpora not present)",
  () => {
    it.each(sets.map((s) => [s.file, s]))("every gold section of %s is rank 1 in every surface form", (_file, set) => {
      const rows = readFileSync(resolve(corpora, set.file), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
      // unnumbered sections (no num) are found by title, not by id
      const nums: string[] = [...new Set(rows.map((r: { num?: string; number?: string }) => r.num ?? r.number).filter((n): n is string => !!n))];
      const index = new ExactIndex();
      // two chunks per section, so the section's first chunk must win over its own second chunk too
      for (const n of nums) {
        index.add(`${n}#0`, [set.canonical(n)]);
        index.add(`${n}#1`, [set.canonical(n)]);
      }
      const misses: string[] = [];
      let queries = 0;
      for (const n of nums) {
        for (const q of set.forms(n)) {
          queries++;
          const top = index.lookup(q)[0]?.id;
          if (top !== `${n}#0`) misses.push(`${q} → ${top}`);
        }
      }
      expect(nums.length).toBeGreaterThan(20);
      expect({ queries, misses: misses.slice(0, 10) }).toEqual({ queries, misses: [] });
    });
  },
);
