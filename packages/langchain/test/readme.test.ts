import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gdprIndex, gdprSkipNote, hasGdpr } from "@hierdoc/core/testing";
import { openIndex } from "@hierdoc/runtime";
import { langChainExample } from "./readme-example.js";

const here = dirname(fileURLToPath(import.meta.url));
const example = readFileSync(join(here, "readme-example.ts"), "utf8").trim();
/** The ```ts block right after the `<!-- packages/langchain/test/readme-example.ts -->` marker. */
const blockAfterMarker = (readme: string) => /<!-- packages\/langchain\/test\/readme-example\.ts -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1].trim();

describe("the package", () => {
  it("depends on @langchain/core only as an exact peer (installed at the same version for the tests)", () => {
    const pkg = JSON.parse(readFileSync(join(here, "../package.json"), "utf8"));
    expect(Object.keys(pkg.peerDependencies)).toEqual(["@langchain/core"]);
    expect(pkg.peerDependencies["@langchain/core"]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.devDependencies["@langchain/core"]).toBe(pkg.peerDependencies["@langchain/core"]);
    expect(Object.keys(pkg.dependencies)).not.toContain("@langchain/core");
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
suite(`the README example on the GDPR${gdprSkipNote}`, () => {
  let fixture: Awaited<ReturnType<typeof gdprIndex>>;
  beforeAll(async () => {
    fixture = await gdprIndex(openIndex);
  }, 120_000);
  afterAll(() => fixture?.cleanup());

  it("returns Article 17 first for 'right to erasure' and picks lookup_definition for a term question", async () => {
    const out = await langChainExample(fixture.dir);
    expect(out.docs).toHaveLength(3);
    expect(out.docs[0].metadata.section_id).toBe("Article 17");
    expect(out.docs[0].metadata.citation).toMatch(/› Article 17 — Right to erasure .* \(gdpr_2016_679\.md\)$/);
    expect(out.picked).toBe("lookup_definition");
    expect(out.definition).toMatchObject({ term: "controller", source_section: "Article 4(7)" });
  });
});
