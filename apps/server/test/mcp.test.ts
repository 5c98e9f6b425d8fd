import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MCP_TOOL_NAMES, startServer, type RunningServer } from "@hierdoc/server";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";
import { PACKAGE_DIR, ensureBuilt, sampleTool, workspace } from "./helpers.js";

type TextResult = { isError?: boolean; content: Array<{ type: string; text: string }> };
const parse = (r: unknown) => JSON.parse((r as TextResult).content[0].text);

const ws = workspace();
let tool: HierarchicalDocumentTool;
let server: RunningServer | undefined;
let stdioTransport: StdioClientTransport | undefined;
const clients: Client[] = [];

beforeAll(async () => {
  ensureBuilt();
  tool = await sampleTool(ws.index);
  server = await startServer({ tool, closeTool: false });
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  const pid = stdioTransport?.pid;
  if (pid) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
  await server?.close();
  await tool?.close();
  ws.cleanup();
});

async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
  const search = tools.find((t) => t.name === "search_documents")!;
  expect(search.inputSchema.required).toEqual(["query"]);
  expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(["mode", "query", "top_k"]);

  const res = parse(await client.callTool({ name: "search_documents", arguments: { query: "erase a port record", top_k: 3 } }));
  expect(res.results.length).toBeGreaterThan(0);
  expect(res.results.length).toBeLessThanOrEqual(3);
  expect(res.results[0]).toHaveProperty("section_id");
  expect(res.results.some((r: { section_id: string }) => /Section 4/.test(r.section_id))).toBe(true);

  const section = parse(await client.callTool({ name: "get_section", arguments: { id: "Section 2" } }));
  expect(section.chunks[0].content).toMatch(/port record/);
  const def = parse(await client.callTool({ name: "lookup_definition", arguments: { term: "data subject" } }));
  expect(def.definitions[0].definition_text).toMatch(/natural person/);

  const missing = (await client.callTool({ name: "get_section", arguments: { id: "Section 999" } })) as TextResult;
  expect(missing.isError).toBe(true);
  expect(JSON.parse(missing.content[0].text).error.code).toBe("E_NOT_FOUND");
  const bad = (await client.callTool({ name: "search_documents", arguments: { query: "x", top_k: 500 } })) as TextResult;
  expect(bad.isError).toBe(true);
}

describe("MCP over stdio (the built dist/mcp-stdio-main.js entry as a subprocess)", () => {
  it("lists the three tools and answers search_documents, get_section, lookup_definition", async () => {
    stdioTransport = new StdioClientTransport({
      command: process.execPath,
      args: [join(PACKAGE_DIR, "dist/mcp-stdio-main.js"), "--index", ws.index],
      cwd: PACKAGE_DIR,
      stderr: "pipe",
    });
    const client = new Client({ name: "hierdoc-test", version: "0.0.0" });
    clients.push(client);
    await client.connect(stdioTransport);
    await exercise(client);
  }, 60_000);
});

describe("MCP over Streamable HTTP (/mcp)", () => {
  it("lists the three tools and answers search_documents, get_section, lookup_definition", async () => {
    const client = new Client({ name: "hierdoc-test", version: "0.0.0" });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server!.url}/mcp`)));
    await exercise(client);
  });

  it("counts /mcp requests in the metrics", async () => {
    const metrics = await (await fetch(`${server!.url}/metrics`)).text();
    expect(metrics).toMatch(/hierdoc_http_requests_total\{method="POST",route="\/mcp",status="200"\} [1-9]/);
  });
});
