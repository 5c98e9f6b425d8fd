import { StructuralContextGenerator } from "@hierdoc/contextualizer";
import { makeDocument } from "./fake-llm-server.js";

describe("StructuralContextGenerator", () => {
  it("writes title › parent chain › section and the terms, capped at maxTerms, without network", async () => {
    const { document, chunks } = makeDocument(2);
    const chunk = { ...chunks[1]!, parentChain: ["Chapter II"], sectionTitle: "Article 2 — Records" };
    const gen = new StructuralContextGenerator({ termsFor: () => ["operator", "record", "authority"], maxTerms: 2 });
    const [r] = await gen.generate([{ document, chunk }]);
    expect(r).toEqual({ chunkId: chunk.id, context: "Test Regulation › Chapter II › Article 2 — Records. Terms: operator, record." });
    expect(new StructuralContextGenerator().contextFor({ document: { ...document, title: undefined }, chunk: chunks[0]! })).toBe("Test Regulation › Article 1");
  });
});
