import { openIndex } from "@hierdoc/runtime";
import { HierdocRetriever } from "@hierdoc/llamaindex";
import type { LLM } from "@llamaindex/core/llms";
import { RetrieverQueryEngine } from "@llamaindex/core/query-engine";
import { getResponseSynthesizer } from "@llamaindex/core/response-synthesizers";

// indexDir: built with `npx hierdoc ingest gdpr_2016_679.md --index <indexDir>`; llm: any LlamaIndex.TS LLM
export async function llamaIndexExample(indexDir: string, llm: LLM) {
  const tool = await openIndex({ index: indexDir }, { mustExist: true, env: (name) => process.env[name] });
  try {
    const retriever = new HierdocRetriever({ tool, topK: 3 });
    const nodes = await retriever.retrieve("right to erasure");
    // nodes[0].node.metadata.section_id === "Article 17"; .citation === "… › Article 17 — Right to erasure (…) (gdpr_2016_679.md)"

    // In a query engine, the LLM reads each passage with its citation and section id.
    const engine = new RetrieverQueryEngine(retriever, getResponseSynthesizer("compact", { llm }));
    const response = await engine.query({ query: "Which article gives the right to erasure?" });
    return { nodes, answer: response.message.content, sources: response.sourceNodes ?? [] };
  } finally {
    await tool.close();
  }
}
