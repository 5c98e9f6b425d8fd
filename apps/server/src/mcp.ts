import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { HttpError, toErrorResponse } from "./http-errors.js";
import { definitionJson, recordJson, responseJson } from "./json-format.js";
import { ReadGate } from "./read-gate.js";
import { DEFAULT_LIMITS, type ServedTool, type ServerLimits } from "./types.js";

/** Names of the MCP tools the server exposes. */
export const MCP_TOOL_NAMES = ["search_documents", "get_section", "lookup_definition"] as const;

const SERVER_INFO = { name: "hierdoc", version: "0.1.0" };

function ok(value: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }] };
}

function fail(err: unknown): CallToolResult {
  const { body } = toErrorResponse(err);
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

/**
 * Builds an MCP server with the three hierdoc tools over a {@link ReadGate}. Results are the same JSON as the
 * HTTP API (text content). Tool failures come back as `isError` results with `{error: {code, message}}`.
 */
export function createMcpServer(gate: ReadGate, limits: Pick<ServerLimits, "topK" | "queryChars"> = DEFAULT_LIMITS): McpServer {
  const server = new McpServer(SERVER_INFO);
  const text = z.string().trim().min(1).max(limits.queryChars);
  server.registerTool(
    "search_documents",
    {
      title: "Search documents",
      description:
        "Searches the indexed documents by meaning, keywords and exact section ids (e.g. \"Article 17\", \"Section 203(a)(1)\"). " +
        "Each result has the chunk text, its section id and parent chain, the definitions of terms it uses and its cross-references.",
      inputSchema: {
        query: text.describe("Question, keywords or a section id"),
        top_k: z.number().int().min(1).max(limits.topK).optional().describe(`Results to return (default 10, at most ${limits.topK})`),
        mode: z.enum(["hybrid", "semantic", "keyword", "exact"]).optional().describe("Retrieval mode (default hybrid)"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, top_k, mode }) => {
      try {
        const res = await gate.read("search", (tool) => tool.search(query, { topK: top_k, mode }));
        return ok(responseJson(query, mode ?? "hybrid", res));
      } catch (err) {
        return fail(err);
      }
    },
  );
  server.registerTool(
    "get_section",
    {
      title: "Get a section",
      description: "Returns the full text of a section by its id or an alias (\"Article 4\", \"§ 478.11\", \"9.3\"), chunk by chunk, with its parent chain.",
      inputSchema: { id: text.describe("Section id or alias") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }) => {
      try {
        const records = await gate.read("section", (tool) => tool.section(id));
        if (records.length === 0) return fail(notFound(`no section "${id}" in the index`));
        return ok({ query: id, found: true, chunks: records.map(recordJson) });
      } catch (err) {
        return fail(err);
      }
    },
  );
  server.registerTool(
    "lookup_definition",
    {
      title: "Look up a defined term",
      description: "Returns how the indexed documents themselves define a term (plural-aware, case-insensitive), with the defining section.",
      inputSchema: { term: text.describe("The term, e.g. \"personal data\"") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ term }) => {
      try {
        const entries = await gate.read("definition", (tool) => tool.define(term));
        if (entries.length === 0) return fail(notFound(`"${term}" is not a defined term in the index`));
        return ok({ term, found: true, definitions: entries.map(definitionJson) });
      } catch (err) {
        return fail(err);
      }
    },
  );
  return server;
}

function notFound(message: string): HttpError {
  return new HttpError(404, "E_NOT_FOUND", message);
}

/**
 * Answers one Streamable HTTP request (stateless mode, JSON responses): a fresh MCP server and transport per
 * request, closed when the response is ready.
 */
export async function handleMcpHttp(gate: ReadGate, limits: ServerLimits, request: Request): Promise<Response> {
  const server = createMcpServer(gate, limits);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: limits.bodyBytes,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close().catch(() => {});
  }
}

/** A running stdio MCP server. */
export interface McpStdioHandle {
  /** Closes the MCP connection (the tool stays open; close it yourself). */
  close(): Promise<void>;
}

/**
 * Serves the MCP tools over this process's stdin/stdout (for agents that spawn `hierdoc serve --mcp`).
 * Nothing else may write to stdout while it runs; log to stderr.
 */
export async function startMcpStdio(tool: ServedTool, options: { limits?: Partial<ServerLimits>; stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {}): Promise<McpStdioHandle> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const server = createMcpServer(new ReadGate(tool, limits.requestTimeoutMs), limits);
  const transport = new StdioServerTransport(options.stdin as never, options.stdout as never);
  await server.connect(transport);
  return { close: () => server.close() };
}
