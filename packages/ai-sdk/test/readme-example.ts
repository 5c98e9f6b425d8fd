import { openIndex } from "@hierdoc/runtime";
import { aiSdkToolPicker, hierdocToolSet } from "@hierdoc/ai-sdk";
import { generateText, stepCountIs, type LanguageModel } from "ai";

// indexDir: built with `npx hierdoc ingest gdpr_2016_679.md --index <indexDir>`; model: any AI SDK model
export async function aiSdkExample(indexDir: string, model: LanguageModel) {
  const tool = await openIndex({ index: indexDir }, { mustExist: true, env: (name) => process.env[name] });
  try {
    const tools = hierdocToolSet(tool); // search_documents, get_section, lookup_definition
    const question = "Which article gives the right to erasure?";
    // With many tools, let @hierdoc/tool-filter choose the ones this turn needs.
    const activeTools = await (await aiSdkToolPicker(tools)).activeTools(question, { topK: 2 });
    const { text, steps } = await generateText({
      model,
      tools,
      activeTools,
      stopWhen: stepCountIs(3),
      system: "Answer from the documents only and quote the citation of every passage you use.",
      prompt: question,
    });
    return { text, steps, activeTools };
  } finally {
    await tool.close();
  }
}
