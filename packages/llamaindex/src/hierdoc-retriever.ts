import type { SearchMode } from "@hierdoc/core";
import { passageJson, type PassageJson, type SearchableTool } from "@hierdoc/agent-tools";
import type { QueryBundle } from "@llamaindex/core/query-engine";
import { BaseRetriever } from "@llamaindex/core/retriever";
import { NodeRelationship, TextNode, type NodeWithScore } from "@llamaindex/core/schema";
import { extractText } from "@llamaindex/core/utils";

/** Metadata of a {@link HierdocRetriever} node: the passage's provenance, scores and attached knowledge. */
export type HierdocNodeMetadata = Omit<PassageJson, "content"> & {
  context: string;
  scores: { semantic: number | null; keyword: number | null; exact: number | null };
};

/** The metadata keys an LLM sees with a node's text (`MetadataMode.LLM`): enough to cite it. */
export const LLM_METADATA_KEYS = ["citation", "section_id"] as const;

/** Options of {@link HierdocRetriever}. */
export interface HierdocRetrieverOptions {
  /** An open `HierarchicalDocumentTool` (or anything with its `search`, `section` and `define`). */
  tool: SearchableTool;
  /** Nodes per query; default 5, at most 100. */
  topK?: number;
  /** Retrieval mode; default hybrid. */
  mode?: SearchMode;
}

/**
 * A LlamaIndex.TS retriever over a hierdoc index: `retrieve(query)` returns `NodeWithScore`s of `TextNode`s whose
 * text is the chunk (`startCharIdx`/`endCharIdx` = its offsets in the converted source), whose metadata holds the
 * section id, parent chain, quotable `citation`, scores, definitions and cross-references, and whose SOURCE
 * relationship is the document's path. An LLM sees the text with its citation and section id only. Search
 * errors (`HierdocError`) reject `retrieve`. Works with `RetrieverQueryEngine` and any response synthesizer.
 */
export class HierdocRetriever extends BaseRetriever {
  private readonly tool: SearchableTool;
  readonly topK: number;
  readonly mode: SearchMode | undefined;

  constructor(options: HierdocRetrieverOptions) {
    super();
    this.tool = options.tool;
    this.topK = options.topK ?? 5;
    this.mode = options.mode;
  }

  async _retrieve(params: QueryBundle): Promise<NodeWithScore<HierdocNodeMetadata>[]> {
    const res = await this.tool.search(extractText(params.query), { topK: this.topK, mode: this.mode });
    return res.results.map((r) => {
      const { content, ...passage } = passageJson(r);
      const metadata: HierdocNodeMetadata = { ...passage, context: r.context, scores: r.scores };
      const hidden = Object.keys(metadata).filter((k) => !(LLM_METADATA_KEYS as readonly string[]).includes(k));
      const node = new TextNode<HierdocNodeMetadata>({
        id_: r.id,
        text: content,
        startCharIdx: r.start,
        endCharIdx: r.end,
        metadata,
        excludedLlmMetadataKeys: hidden,
        excludedEmbedMetadataKeys: Object.keys(metadata),
        relationships: { [NodeRelationship.SOURCE]: { nodeId: r.sourcePath, metadata } },
      });
      return { node, score: r.score };
    });
  }
}
