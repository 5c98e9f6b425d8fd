import { openIndex } from "@hierdoc/runtime";
import { HierdocRetriever, hierdocTools, langChainToolPicker } from "@hierdoc/langchain";

// indexDir: built with `npx hierdoc ingest gdpr_2016_679.md --index <indexDir>`
export async function langChainExample(indexDir: string) {
  const tool = await openIndex({ index: indexDir }, { mustExist: true, env: (name) => process.env[name] });
  try {
    // A retriever: Documents with section id, parent chain, citation, offsets, scores, definitions, references.
    const retriever = new HierdocRetriever({ tool, topK: 3 });
    const docs = await retriever.invoke("right to erasure");
    // docs[0].metadata.section_id === "Article 17"; docs[0].metadata.citation === "… › Article 17 — Right to erasure (…) (gdpr_2016_679.md)"

    // Agent tools for model.bindTools(): search_documents, get_section, lookup_definition (JSON with citations).
    const tools = hierdocTools(tool);
    // With many tools, bind only the relevant ones (@hierdoc/tool-filter over the LangChain tools).
    const picker = await langChainToolPicker(tools);
    const [best] = await picker.pick("what does the term controller mean?", { topK: 1 }); // lookup_definition
    const answer = JSON.parse(await best.invoke({ term: "controller" }));
    return { docs, picked: best.name, definition: answer.definitions[0] };
  } finally {
    await tool.close();
  }
}
