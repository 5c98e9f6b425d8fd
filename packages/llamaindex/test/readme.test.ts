import { describe, expect, it } from "@jest/globals";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeFrameworkPackage, gdprSkipNote, hasGdpr, useGdprIndex } from "@hierdoc/core/testing";
import { openIndex } from "@hierdoc/runtime";
import { llamaIndexExample } from "./readme-example.js";
import { RecordingMockLLM } from "./recording-llm.js";

describeFrameworkPackage({ packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."), peer: "@llamaindex/core" });

const suite = hasGdpr ? describe : describe.skip;
suite(`the README example on the GDPR with LlamaIndex's RetrieverQueryEngine and MockLLM${gdprSkipNote}`, () => {
  const fixture = useGdprIndex(openIndex);

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
