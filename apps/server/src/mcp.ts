import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import {
  AGENT_DEFAULT_TOP_K,
  citationOf,
  definitionJson as citedDefinitionJson,
  getSectionSpec,
  lookupDefinitionSpec,
  searchDocumentsSpec,
  sectionJson,
} from "@hierdoc/agent-tools";
import { HttpError, toErrorResponse } from "./http-errors.js";
import { definitionJson, recordJson, responseJson, resultJson } from "./json-format.js";
import { registerSectionResources } from "./mcp-resources.js";
import { IndexWatcher, type ReloadOptions } from "./index-watcher.js";
import { ReadGate } from "./read-gate.js";
import { DEFAULT_LIMITS, type ServedTool, type ServerLimits, type ServerLogger } from "./types.js";

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
 * Builds an MCP server over a {@link ReadGate}: the three hierdoc tools (descriptions written for an agent, from
 * `@hierdoc/agent-tools`), the section resources `hierdoc://<file>/<section id>` (template + list) and the
 * `answer_with_citations` prompt. Tool results are the HTTP API's JSON (text content) plus a quotable `citation`
 * (parent chain › section title (file)) and the section's resource `uri`; search returns 5 results unless `top_k` says
 * otherwise. Tool failures come back as `isError` results with `{error: {code, message}}`.
 */
export function createMcpServer(gate: ReadGate, limits: Pick<ServerLimits, "topK" | "queryChars"> = DEFAULT_LIMITS): McpServer {
  const server = new McpServer(SERVER_INFO);
  const text = z.string().trim().min(1).max(limits.queryChars);
  server.registerTool(
    "search_documents",
    {
      title: searchDocumentsSpec.title,
      description: searchDocumentsSpec.description,
      inputSchema: {
        query: text.describe("A question, keywords, or a section id such as \"Article 17\" or \"§ 478.11\""),
        top_k: z.number().int().min(1).max(limits.topK).optional().describe(`How many passages to return (default ${AGENT_DEFAULT_TOP_K}, at most ${limits.topK})`),
        mode: z.enum(["hybrid", "semantic", "keyword", "exact"]).optional().describe("Retrieval mode (default hybrid)"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, top_k, mode }) => {
      try {
        const res = await gate.read("search", (tool) => tool.search(query, { topK: top_k ?? AGENT_DEFAULT_TOP_K, mode }));
        const results = res.results.map((r) => {
          const c = citationOf(r);
          return { citation: c.text, uri: c.uri, source: c.source, ...resultJson(r) };
        });
        return ok({ ...responseJson(query, mode ?? "hybrid", res), results });
      } catch (err) {
        return fail(err);
      }
    },
  );
  server.registerTool(
    "get_section",
    {
      title: getSectionSpec.title,
      description: getSectionSpec.description.replace("`found: false` when no section has that id (search instead)", "an E_NOT_FOUND error when no section has that id (search instead)"),
      inputSchema: { id: text.describe("Section id or alias") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id }) => {
      try {
        const records = await gate.read("section", (tool) => tool.section(id));
        if (records.length === 0) return fail(notFound(`no section "${id}" in the index`));
        const s = sectionJson(records);
        return ok({ query: id, found: true, citation: s.citation, uri: s.uri, section_id: s.section_id, parent_chain: s.parent_chain, source: s.source, chunks: records.map(recordJson) });
      } catch (err) {
        return fail(err);
      }
    },
  );
  server.registerTool(
    "lookup_definition",
    {
      title: lookupDefinitionSpec.title,
      description: lookupDefinitionSpec.description.replace("`found: false` when the term is not defined", "an E_NOT_FOUND error when the term is not defined"),
      inputSchema: { term: text.describe("The term, e.g. \"personal data\"") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ term }) => {
      try {
        const entries = await gate.read("definition", (tool) => tool.define(term));
        if (entries.length === 0) return fail(notFound(`"${term}" is not a defined term in the index`));
        return ok({ term, found: true, definitions: entries.map((d) => ({ ...definitionJson(d), citation: citedDefinitionJson(d).citation })) });
      } catch (err) {
        return fail(err);
      }
    },
  );
  registerSectionResources(server, gate, limits);
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
  /** The served tool (after a reload, the new one). */
  readonly tool: ServedTool;
  /** Closes the MCP connection and stops reloading (the served tool stays open: close {@link tool} yourself). */
  close(): Promise<void>;
}

/**
 * Serves the MCP tools over this process's stdin/stdout (for agents that spawn `hierdoc serve --mcp`).
 * Nothing else may write to stdout while it runs; log to stderr. With `reload`, an ingest another process
 * makes into the index folder is loaded as in the HTTP server (the replaced tools, the first one included,
 * are closed once idle).
 */
export async function startMcpStdio(
  tool: ServedTool,
  options: { limits?: Partial<ServerLimits>; stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream; reload?: ReloadOptions; logger?: ServerLogger } = {},
): Promise<McpStdioHandle> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const gate = new ReadGate(tool, limits.requestTimeoutMs);
  const logger = options.logger ?? (() => {});
  const watcher = options.reload ? new IndexWatcher(gate, options.reload, { log: (e) => logger({ time: new Date().toISOString(), ...e }) }) : undefined;
  await watcher?.start();
  const server = createMcpServer(gate, limits);
  const transport = new StdioServerTransport(options.stdin as never, options.stdout as never);
  await server.connect(transport);
  return {
    get tool() {
      return gate.tool;
    },
    close: async () => {
      await watcher?.close();
      await server.close();
    },
  };
}
