import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gdprIndex, gdprSkipNote, hasGdpr } from "@hierdoc/core/testing";
import { openIndex } from "@hierdoc/runtime";
import { llamaIndexExample } from "./readme-example.js";
import { RecordingMockLLM } from "./recording-llm.js";

const here = dirname(fileURLToPath(import.meta.url));
const example = readFileSync(join(here, "readme-example.ts"), "utf8").trim();
const blockAfterMarker = (readme: string) => /<!-- packages\/llamaindex\/test\/readme-example\.ts -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1].trim();

describe("the package", () => {
  it("depends on @llamaindex/core only as an exact peer (installed at the same version for the tests)", () => {
    const pkg = JSON.parse(readFileSync(join(here, "../package.json"), "utf8"));
    expect(Object.keys(pkg.peerDependencies)).toEqual(["@llamaindex/core"]);
    expect(pkg.peerDependencies["@llamaindex/core"]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.devDependencies["@llamaindex/core"]).toBe(pkg.peerDependencies["@llamaindex/core"]);
    expect(Object.keys(pkg.dependencies)).not.toContain("@llamaindex/core");
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
suite(`the README example on the GDPR with LlamaIndex's RetrieverQueryEngine and MockLLM${gdprSkipNote}`, () => {
  let fixture: Awaited<ReturnType<typeof gdprIndex>>;
  beforeAll(async () => {
    fixture = await gdprIndex(openIndex);
  }, 120_000);
  afterAll(() => fixture?.cleanup());

  it("retrieves Article 17 first; the query engine's LLM prompt carries the passage with its citation", async () => {
    const llm = new RecordingMockLLM({ timeBetweenToken: 0, responseMessage: "Article 17." });
    const out = await llamaIndexExample(fixture.dir, llm);
    expect(out.nodes[0].node.metadata.section_id).toBe("Article 17");
    expect(out.sources[0].node.metadata.section_id).toBe("Article 17");
    expect(out.answer).toBe("Article 17.");
    expect(llm.prompts.length).toBeGreaterThan(0);
    expect(llm.prompts[0]).toContain("citation: Regulation (EU) 2016/679 (General Data Protection Regulation) › CHAPTER III — Rights of the data subject");
    expect(llm.prompts[0]).toContain("Article 17 — Right to erasure");
    expect(llm.prompts[0]).not.toContain("definition_text");
  });
});
