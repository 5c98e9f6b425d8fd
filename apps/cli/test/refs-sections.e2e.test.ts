import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORPORA, runCli } from "./run-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "hierdoc-refs-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const gdpr = join(CORPORA, "gdpr/gdpr_2016_679.md");
const suite = existsSync(gdpr) ? describe : describe.skip;

suite(`hierdoc refs / section on the GDPR${existsSync(gdpr) ? "" : " (skipped: ../shared/corpora not present)"}`, () => {
  const index = join(tmp, "gdpr");
  beforeAll(async () => {
    const res = await runCli(["ingest", gdpr, "--index", index], { timeoutMs: 300_000 });
    expect(res.code).toBe(0);
  }, 300_000);

  it("counts citations of units (Article 6(1)(a)) as incoming to the article, with the exact text", async () => {
    const res = await runCli(["refs", "Article 6", "--index", index, "--json"]);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    const from = new Set(out.incoming.map((x: { from_section_id: string }) => x.from_section_id));
    for (const a of ["Article 8", "Article 17", "Article 83"]) expect(from).toContain(a);
    expect(out.incoming.map((x: { text: string }) => x.text)).toContain("point (a) of Article 6(1)");
    const unit = out.incoming.find((x: { text: string }) => x.text === "point (a) of Article 6(1)");
    expect(unit.target_section_id).toMatch(/^Article 6\(1\)/);
    const seventeen = JSON.parse((await runCli(["refs", "Article 17", "--index", index, "--json"])).stdout);
    const citing = new Set(seventeen.incoming.map((x: { from_section_id: string }) => x.from_section_id));
    for (const a of ["Article 19", "Article 70"]) expect(citing).toContain(a);
  });

  it("warns on stderr when a section id is ambiguous and accepts a qualified id", async () => {
    const res = await runCli(["section", "Section 1", "--index", index, "--json"]);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain("CHAPTER IV › Section 1");
    const out = JSON.parse((await runCli(["section", "Chapter IV › Section 1", "--index", index, "--json"])).stdout);
    expect(new Set(out.chunks.map((c: { parent_chain: string[] }) => c.parent_chain.at(-1)))).toEqual(new Set(["CHAPTER IV — Controller and processor"]));
  });
});
