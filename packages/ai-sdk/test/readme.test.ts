import { describe, expect, it } from "@jest/globals";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeFrameworkPackage, gdprSkipNote, hasGdpr, useGdprIndex } from "@hierdoc/core/testing";
import { openIndex } from "@hierdoc/runtime";
import { aiSdkExample } from "./readme-example.js";
import { scriptedModel } from "./scripted-model.js";

describeFrameworkPackage({ packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."), peer: "ai" });

const suite = hasGdpr ? describe : describe.skip;
suite(`the README example on the GDPR with the AI SDK's MockLanguageModelV3${gdprSkipNote}`, () => {
  const fixture = useGdprIndex(openIndex);

  it("runs the tool loop: search_documents is active and called, Article 17 comes first, the answer quotes its citation", async () => {
    const model = scriptedModel("search_documents", { query: "right to erasure" });
    const out = await aiSdkExample(fixture.dir, model);
    expect(out.activeTools[0]).toBe("search_documents");
    expect(model.doGenerateCalls[0].tools?.map((t) => t.name)).toEqual(out.activeTools);
    const search = out.steps[0].toolResults[0];
    expect(search.toolName).toBe("search_documents");
    expect((search.output as { results: Array<{ section_id: string }> }).results[0].section_id).toBe("Article 17");
    expect(out.text).toMatch(/^The right to erasure is in Regulation \(EU\) 2016\/679 .* › Article 17 — Right to erasure .*\(gdpr_2016_679\.md\)\.$/);
  });
});
