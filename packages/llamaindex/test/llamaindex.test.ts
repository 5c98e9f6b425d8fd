import { describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { BaseRetriever } from "@llamaindex/core/retriever";
import { MetadataMode, NodeRelationship, TextNode } from "@llamaindex/core/schema";
import { HierdocRetriever } from "@hierdoc/llamaindex";
import { gdprSkipNote, hasGdpr, useGdprIndex } from "@hierdoc/core/testing";
import { openIndex } from "@hierdoc/runtime";

const suite = hasGdpr ? describe : describe.skip;
suite(`@hierdoc/llamaindex on the GDPR with LlamaIndex.TS's real classes${gdprSkipNote}`, () => {
  const gdpr = useGdprIndex(openIndex, { open: true });

  it("retrieve() returns NodeWithScore of TextNodes: Article 17 first, offsets into the source, hierdoc metadata", async () => {
    const retriever = new HierdocRetriever({ tool: gdpr.tool, topK: 4 });
    expect(retriever).toBeInstanceOf(BaseRetriever);
    const nodes = await retriever.retrieve("right to erasure");
    expect(nodes).toHaveLength(4);
    const top = nodes[0];
    expect(top.node).toBeInstanceOf(TextNode);
    const node = top.node as TextNode;
    expect(node.metadata.section_id).toBe("Article 17");
    expect(node.metadata.parent_chain).toEqual(["Regulation (EU) 2016/679 (General Data Protection Regulation)", "CHAPTER III — Rights of the data subject", "Section 3 — Rectification and erasure"]);
    expect(readFileSync(node.metadata.source_path, "utf8").slice(node.startCharIdx, node.endCharIdx)).toBe(node.text);
    expect(node.id_).toMatch(/_chunk_\d+$/);
    expect(node.relationships[NodeRelationship.SOURCE]).toMatchObject({ nodeId: node.metadata.source_path });
    expect(node.metadata.definitions.some((d: { term: string }) => d.term === "personal data")).toBe(true);
    expect(top.score).toBeGreaterThan(nodes[1].score!);
  });

  it("an LLM sees the text with citation and section id only; the embed view carries no metadata", async () => {
    const [top] = await new HierdocRetriever({ tool: gdpr.tool, topK: 1 }).retrieve({ query: "Article 17" });
    const forLlm = top.node.getContent(MetadataMode.LLM);
    expect(forLlm).toMatch(/^citation: .* › Article 17 — Right to erasure .*\(gdpr_2016_679\.md\)\nsection_id: Article 17\n\n#### Article 17/);
    expect(forLlm).not.toContain("parent_chain");
    expect(top.node.getContent(MetadataMode.EMBED)).toMatch(/^#### Article 17/);
  });

  it("rejects an empty query with the tool's E_INVALID_ARGUMENT", async () => {
    await expect(new HierdocRetriever({ tool: gdpr.tool }).retrieve(" ")).rejects.toMatchObject({ code: "E_INVALID_ARGUMENT" });
  });
});
