import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isUnitOf, type HierarchicalDocumentTool } from "@hierdoc/tool";
import { GDPR_MARKDOWN, hasGdpr } from "@hierdoc/core/testing";
import { openTool, SAMPLE_CORPUS } from "./helpers.js";

/** A small regulation whose articles cite numbered units of other articles, as the GDPR does. */
const REGULATION = `# Regulation

## Article 6 — Lawfulness of processing

1. Processing shall be lawful only if and to the extent that at least one of the following applies:

(a) the data subject has given consent to the processing;

(b) processing is necessary for the performance of a contract.

2. Member States may maintain more specific provisions.

## Article 7 — Conditions for consent

1. Where processing is based on consent, the controller shall be able to demonstrate consent as referred to in point (a) of Article 6(1).

## Article 8 — Child's consent

1. Where point (a) of Article 6(1) applies, in relation to the offer of services directly to a child, the processing shall be lawful.

2. The controller shall make reasonable efforts, taking into consideration Article 7.

## Article 9 — Processing of special categories

1. Paragraph 1 shall not apply if the data subject has given explicit consent, unless Article 6 says otherwise.

2. This does not affect Article 60.

## Article 60 — Cooperation

1. The lead authority shall cooperate, see also Article 9(2).
`;

describe("HierarchicalDocumentTool.refs incoming references", () => {
  let dir: string;
  let tool: HierarchicalDocumentTool | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hierdoc-refs-"));
    mkdirSync(join(dir, "docs"));
    writeFileSync(join(dir, "docs", "regulation.md"), REGULATION);
  });
  afterEach(async () => {
    await tool?.close();
    tool = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("counts a citation of a numbered unit (Article 6(1)(a)) as citing the article that contains it, keeping the exact target", async () => {
    tool = await openTool(join(dir, "index"));
    await tool.ingest([join(dir, "docs")]);
    const refs = await tool.refs("Article 6");
    expect(refs.sectionId).toBe("Article 6");
    const from = refs.incoming.map((x) => x.fromSectionId);
    expect(from).toEqual(expect.arrayContaining(["Article 7", "Article 8", "Article 9"]));
    expect(from).not.toContain("Article 6");
    expect(from).not.toContain("Article 60");
    const fromSeven = refs.incoming.find((x) => x.fromSectionId === "Article 7");
    expect(fromSeven?.text).toMatch(/Article 6\(1\)/);
    expect(fromSeven?.targetSectionId).toMatch(/^Article 6\(1\)/);
    const whole = refs.incoming.find((x) => x.fromSectionId === "Article 9");
    expect(whole?.targetSectionId).toBe("Article 6");
  });

  it(`reads only the chunks that can cite a section, with the answers of reading every record (every section of the regulation, the sample corpus${hasGdpr ? " and the GDPR" : "; GDPR skipped: ../shared/corpora not present"})`, async () => {
    tool = await openTool(join(dir, "index"));
    await tool.ingest([join(dir, "docs"), SAMPLE_CORPUS, ...(hasGdpr ? [GDPR_MARKDOWN] : [])]);
    const store = tool.store;
    const ids = new Set<string>();
    for await (const r of store.scan()) ids.add(r.sectionId);
    let scans = 0;
    const scan = store.scan.bind(store);
    store.scan = () => (scans++, scan());
    let withIncoming = 0;
    let scanned = 0;
    for (const id of ids) {
      const before = scans;
      const narrow = await tool.refs(id);
      scanned += scans - before;
      const all = await tool.refs(id, { readAll: true });
      expect([id, narrow]).toEqual([id, all]);
      if (all.incoming.length > 0) withIncoming++;
    }
    expect(withIncoming).toBeGreaterThan(hasGdpr ? 40 : 3);
    // A section whose id has no letters or digits up front ("(a)") may still scan; nearly none does.
    expect(scanned).toBeLessThanOrEqual(ids.size / 20);
  });

  it("does not count a citation of a different article that shares a numeric prefix (Article 60 is not Article 6)", async () => {
    tool = await openTool(join(dir, "index"));
    await tool.ingest([join(dir, "docs")]);
    const nine = await tool.refs("Article 9");
    expect(nine.incoming.map((x) => x.fromSectionId)).toEqual(["Article 60"]);
    expect(nine.incoming[0].targetSectionId).toMatch(/^Article 9\(2\)|^Article 9$/);
    const sixty = await tool.refs("Article 60");
    expect(sixty.incoming.map((x) => x.fromSectionId)).toEqual(["Article 9"]);
  });
});

describe("isUnitOf", () => {
  it("accepts the section itself and units after it, and rejects longer numbers and other sections", () => {
    expect(isUnitOf("Article 6", "Article 6")).toBe(true);
    expect(isUnitOf("Article 6(1)(a)", "Article 6")).toBe(true);
    expect(isUnitOf("Section 4.2", "Section 4")).toBe(true);
    expect(isUnitOf("Article 60", "Article 6")).toBe(false);
    expect(isUnitOf("Article 60(1)", "Article 6")).toBe(false);
    expect(isUnitOf("Article 5", "Article 6")).toBe(false);
  });
});
