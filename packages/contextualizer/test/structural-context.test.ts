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

describe("StructuralContextGenerator in ingest workers (workerRecipe)", () => {
  it("a copy built from the recipe writes the same contexts; with terms (other files' definitions) there is no recipe", async () => {
    const { document, chunks } = makeDocument(3);
    const requests = chunks.map((chunk, i) => ({ document, chunk: { ...chunk, parentChain: ["Chapter II"], sectionTitle: `Article ${i + 1} — Duties` } }));
    for (const parts of [undefined, ["document", "chain", "section"] as const]) {
      const original = new StructuralContextGenerator(parts ? { parts: [...parts] } : {});
      const recipe = structuredClone(original.workerRecipe!);
      expect(recipe.module).toBe("@hierdoc/contextualizer");
      const mod = (await import(recipe.module)) as Record<string, (o: unknown) => StructuralContextGenerator>;
      const copy = mod[recipe.factory]!(recipe.options);
      expect(copy.id).toBe(original.id);
      const contexts = await copy.generate(requests);
      expect(contexts).toEqual(await original.generate(requests));
      expect(contexts[0]!.context).toContain("Article 1");
    }
    expect(new StructuralContextGenerator({ parts: ["section", "terms"], termsFor: () => ["operator"] }).workerRecipe).toBeUndefined();
  });
});
