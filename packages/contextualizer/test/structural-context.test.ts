import { StructuralContextGenerator } from "@hierdoc/contextualizer";
import { makeDocument } from "./fake-llm-server.js";

describe("StructuralContextGenerator", () => {
  it("writes the section's own title by default, without network", async () => {
    const { document, chunks } = makeDocument(2);
    const chunk = { ...chunks[1]!, parentChain: ["Chapter II"], sectionTitle: "Article 2 — Records" };
    const [r] = await new StructuralContextGenerator({ termsFor: () => ["operator"] }).generate([{ document, chunk }]);
    expect(r).toEqual({ chunkId: chunk.id, context: "Article 2 — Records" });
  });

  it("writes title › parent chain › section and the terms, capped at maxTerms, when asked for every part", async () => {
    const { document, chunks } = makeDocument(2);
    const chunk = { ...chunks[1]!, parentChain: ["Chapter II"], sectionTitle: "Article 2 — Records" };
    const gen = new StructuralContextGenerator({ parts: ["document", "chain", "section", "terms"], termsFor: () => ["operator", "record", "authority"], maxTerms: 2 });
    const [r] = await gen.generate([{ document, chunk }]);
    expect(r).toEqual({ chunkId: chunk.id, context: "Test Regulation › Chapter II › Article 2 — Records. Terms: operator, record." });
    const chainOnly = new StructuralContextGenerator({ parts: ["chain", "section"] });
    expect(chainOnly.contextFor({ document: { ...document, title: undefined }, chunk })).toBe("Chapter II › Article 2 — Records");
  });
});
