import { basename } from "node:path";
import { citationOf, parseSectionUri, passageJson, sectionJson, sectionUri, AGENT_DEFAULT_TOP_K } from "@hierdoc/agent-tools";
import type { ChunkRecord } from "@hierdoc/core";
import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { HttpError } from "./http-errors.js";
import { OutlineIndex } from "./outline-index.js";
import type { ReadGate } from "./read-gate.js";
import type { ServedTool } from "./types.js";

/** The URI template of section resources. */
export const SECTION_URI_TEMPLATE = "hierdoc://{source}/{section}";
/** Name of the MCP prompt that answers a question from cited sections. */
export const CITE_PROMPT_NAME = "answer_with_citations";

/** One outline per served tool, shared by the per-request MCP servers of Streamable HTTP (rebuilt when the chunk count changes). */
const outlines = new WeakMap<ServedTool, OutlineIndex>();
function outlineOf(tool: ServedTool): OutlineIndex {
  let o = outlines.get(tool);
  if (!o) outlines.set(tool, (o = new OutlineIndex(() => tool.store.scan(), () => tool.chunkCount)));
  return o;
}

/**
 * The chunks of the section a `hierdoc://<file>/<section id>` URI names: the tool's own section lookup when it lands
 * in that file, else a scan for that file's chunks of the section (two documents with the same section id).
 * @throws HttpError 404 E_NOT_FOUND when the index has no such section in that file; 400 for a malformed URI.
 */
async function sectionChunks(tool: ServedTool, uri: string): Promise<ChunkRecord[]> {
  let ref: { source: string; sectionId: string };
  try {
    ref = parseSectionUri(uri);
  } catch (err) {
    throw new HttpError(400, "E_INVALID_ARGUMENT", (err as Error).message);
  }
  const direct = await tool.section(ref.sectionId);
  if (direct.length > 0 && basename(direct[0].sourcePath) === ref.source) return direct;
  const chunks: ChunkRecord[] = [];
  for await (const r of tool.store.scan()) {
    if (r.sectionId === ref.sectionId && basename(r.sourcePath) === ref.source) chunks.push(r);
  }
  if (chunks.length === 0) throw new HttpError(404, "E_NOT_FOUND", `no section "${ref.sectionId}" in ${ref.source}`);
  return chunks.sort((a, b) => a.chunkIndex - b.chunkIndex);
}

/**
 * Registers the section resources (template `hierdoc://{source}/{section}`, listed from the documents' outlines,
 * read as markdown with the citation in `_meta`) and the `answer_with_citations` prompt on an MCP server.
 */
export function registerSectionResources(server: McpServer, gate: ReadGate, limits: { queryChars: number }): void {
  const template = new ResourceTemplate(SECTION_URI_TEMPLATE, {
    list: async () => {
      const docs = await gate.read("resources", (tool) => outlineOf(tool).documents());
      return {
        resources: docs.flatMap((d) =>
          d.sections.map((s) => {
            const c = citationOf({ sourcePath: d.sourcePath, sectionId: s.sectionId, sectionTitle: s.sectionTitle, parentChain: s.parentChain });
            return { uri: c.uri, name: `${c.source} ${s.sectionId}`, title: s.sectionTitle || s.sectionId, description: c.text, mimeType: "text/markdown" };
          }),
        ),
      };
    },
  });
  server.registerResource(
    "section",
    template,
    {
      title: "Document section",
      description: "One section of an indexed document, by file name and section id (hierdoc://gdpr.md/Article%2017), as markdown; `_meta.citation` says where it sits.",
      mimeType: "text/markdown",
    },
    async (uri): Promise<ReadResourceResult> => {
      const records = await gate.read("resource", (tool) => sectionChunks(tool, uri.href));
      const s = sectionJson(records);
      return {
        contents: [
          {
            uri: sectionUri(s.source_path, s.section_id),
            mimeType: "text/markdown",
            text: s.content,
            _meta: { citation: s.citation, section_id: s.section_id, parent_chain: s.parent_chain, source_path: s.source_path, start: s.start, end: s.end },
          },
        ],
      };
    },
  );

  server.registerPrompt(
    CITE_PROMPT_NAME,
    {
      title: "Answer with citations",
      description: "Searches the documents for a question and returns a prompt with the best sections embedded as resources and instructions to cite them.",
      argsSchema: { question: z.string().trim().min(1).max(limits.queryChars).describe("The question to answer from the documents") },
    },
    async ({ question }): Promise<GetPromptResult> => {
      const res = await gate.read("prompt", (tool) => tool.search(question, { topK: AGENT_DEFAULT_TOP_K }));
      const passages = res.results.map(passageJson);
      const instructions =
        `Answer the question below using only the ${passages.length} passages that follow. After every claim, cite the passage it ` +
        "comes from with its citation in square brackets, e.g. [" +
        (passages[0]?.citation ?? "parent chain › section title (file)") +
        "]. If the passages do not answer the question, say so; the search_documents and get_section tools can find more.\n\n" +
        `Question: ${question}`;
      return {
        description: `Cited answer to: ${question}`,
        messages: [
          { role: "user", content: { type: "text", text: instructions } },
          ...passages.map((p) => ({
            role: "user" as const,
            content: { type: "resource" as const, resource: { uri: p.uri, mimeType: "text/markdown", text: `[${p.citation}]\n\n${p.content}` } },
          })),
        ],
      };
    },
  );
}
