import { describe, expect, it } from "@jest/globals";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeFrameworkPackage, gdprSkipNote, hasGdpr, useGdprIndex } from "@hierdoc/core/testing";
import { openIndex } from "@hierdoc/runtime";
import { langChainExample } from "./readme-example.js";

describeFrameworkPackage({ packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."), peer: "@langchain/core" });

const suite = hasGdpr ? describe : describe.skip;
suite(`the README example on the GDPR${gdprSkipNote}`, () => {
  const fixture = useGdprIndex(openIndex);

  it("returns Article 17 first for 'right to erasure' and picks lookup_definition for a term question", async () => {
    const out = await langChainExample(fixture.dir);
    expect(out.docs).toHaveLength(3);
    expect(out.docs[0].metadata.section_id).toBe("Article 17");
    expect(out.docs[0].metadata.citation).toMatch(/› Article 17 — Right to erasure .* \(gdpr_2016_679\.md\)$/);
    expect(out.picked).toBe("lookup_definition");
    expect(out.definition).toMatchObject({ term: "controller", source_section: "Article 4(7)" });
  });
});
