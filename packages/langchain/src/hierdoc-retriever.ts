import type { SearchMode } from "@hierdoc/core";
import { passageJson, type PassageJson, type SearchableTool } from "@hierdoc/agent-tools";
import type { CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import { Document } from "@langchain/core/documents";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";

/** Metadata of a {@link HierdocRetriever} document: the passage's provenance, scores and attached knowledge. */
export type HierdocMetadata = Omit<PassageJson, "content"> & {
  /** hierdoc's chunk id. */
  chunk_id: string;
  /** The generated context the chunk was indexed with (structural or LLM). */
  context: string;
  /** Per-leg scores and ranks (semantic, keyword, exact; null when a leg did not find the chunk). */
  scores: { semantic: number | null; keyword: number | null; exact: number | null };
  ranks: { semantic: number | null; keyword: number | null; exact: number | null };
};

/** Options of {@link HierdocRetriever}. */
export interface HierdocRetrieverInput extends BaseRetrieverInput {
  /** An open `HierarchicalDocumentTool` (or anything with its `search`, `section` and `define`). */
  tool: SearchableTool;
  /** Documents per query; default 5, at most 100. */
  topK?: number;
  /** Retrieval mode; default hybrid. */
  mode?: SearchMode;
}

/**
 * A LangChain retriever over a hierdoc index: `invoke(query)` returns `Document`s whose `pageContent` is the
 * chunk text (equal to the source between `start` and `end`) and whose metadata carries the section id, parent
 * chain, quotable `citation`, offsets, scores, the definitions the chunk uses and its cross-references.
 * Search errors (`HierdocError`: E_INVALID_ARGUMENT, store errors) propagate from `invoke`.
 */
export class HierdocRetriever extends BaseRetriever<HierdocMetadata> {
  static override lc_name(): string {
    return "HierdocRetriever";
  }

  override lc_namespace = ["hierdoc", "retrievers"];
  private readonly tool: SearchableTool;
  readonly topK: number;
  readonly mode: SearchMode | undefined;

  constructor(fields: HierdocRetrieverInput) {
    super(fields);
    this.tool = fields.tool;
    this.topK = fields.topK ?? 5;
    this.mode = fields.mode;
  }

  override async _getRelevantDocuments(query: string, _runManager?: CallbackManagerForRetrieverRun): Promise<Document<HierdocMetadata>[]> {
    const res = await this.tool.search(query, { topK: this.topK, mode: this.mode });
    return res.results.map((r) => {
      const { content, ...passage } = passageJson(r);
      const metadata: HierdocMetadata = { ...passage, chunk_id: r.id, context: r.context, scores: r.scores, ranks: r.ranks };
      return new Document({ pageContent: content, metadata, id: r.id });
    });
  }
}
