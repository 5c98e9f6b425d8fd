import { HashEmbedder, cosineSimilarity } from "@hierdoc/embeddings";

describe("HashEmbedder", () => {
  it("is deterministic, L2-normalised and sized as configured", async () => {
    const a = new HashEmbedder({ dimensions: 64 });
    const b = new HashEmbedder({ dimensions: 64 });
    const [v] = await a.embedDocuments(["The controller shall erase personal data."]);
    expect(v).toHaveLength(64);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect(Array.from(await b.embedQuery("The controller shall erase personal data."))).toEqual(Array.from(v));
    expect(a.id).toBe("hash:fnv1a:64:v1");
  });

  it("scores texts that share words above texts that do not", async () => {
    const e = new HashEmbedder();
    const [q, same, other] = await e.embedDocuments([
      "erasure of personal data",
      "the right to erasure of personal data",
      "highway bridge construction funds",
    ]);
    expect(cosineSimilarity(q, same)).toBeGreaterThan(0.5);
    expect(cosineSimilarity(q, other)).toBeLessThan(cosineSimilarity(q, same));
  });

  it("gives a zero vector for text without words and rejects bad dimensions", async () => {
    const v = await new HashEmbedder({ dimensions: 8 }).embedQuery("!!! ???");
    expect(Array.from(v)).toEqual(new Array(8).fill(0));
    expect(() => new HashEmbedder({ dimensions: 0 })).toThrow(expect.objectContaining({ code: "E_CONFIG" }));
  });
});
