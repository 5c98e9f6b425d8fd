import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gdprIndex, gdprSkipNote, hasGdpr } from "@hierdoc/core/testing";
import { openIndex } from "@hierdoc/runtime";
import { aiSdkExample } from "./readme-example.js";
import { scriptedModel } from "./scripted-model.js";

const here = dirname(fileURLToPath(import.meta.url));
const example = readFileSync(join(here, "readme-example.ts"), "utf8").trim();
const blockAfterMarker = (readme: string) => /<!-- packages\/ai-sdk\/test\/readme-example\.ts -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1].trim();

describe("the package", () => {
  it("depends on ai only as an exact peer (installed at the same version for the tests)", () => {
    const pkg = JSON.parse(readFileSync(join(here, "../package.json"), "utf8"));
    expect(Object.keys(pkg.peerDependencies)).toEqual(["ai"]);
    expect(pkg.peerDependencies["ai"]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.devDependencies["ai"]).toBe(pkg.peerDependencies["ai"]);
    expect(Object.keys(pkg.dependencies)).not.toContain("ai");
    expect(Object.keys(pkg.dependencies).filter((d) => !d.startsWith("@hierdoc/") && d !== "zod")).toEqual([]);
  });
});

describe("the README example", () => {
  it("is the code this test runs, in the package README and the root README's 'Use from your framework'", () => {
    expect(blockAfterMarker(readFileSync(join(here, "../README.md"), "utf8"))).toBe(example);
    expect(blockAfterMarker(readFileSync(join(here, "../../../README.md"), "utf8"))).toBe(example);
  });
});

const suite = hasGdpr ? describe : describe.skip;
suite(`the README example on the GDPR with the AI SDK's MockLanguageModelV3${gdprSkipNote}`, () => {
  let fixture: Awaited<ReturnType<typeof gdprIndex>>;
  beforeAll(async () => {
    fixture = await gdprIndex(openIndex);
  }, 120_000);
  afterAll(() => fixture?.cleanup());

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
