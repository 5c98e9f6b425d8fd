import { basename, join } from "node:path";
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

  expect(search.description).toMatch(/Use it first/);
  expect(search.description).toMatch(/Quote `citation`/);
  expect(tools.find((t) => t.name === "get_section")!.description).toMatch(/E_NOT_FOUND error when no section has that id/);
  expect(tools.find((t) => t.name === "lookup_definition")!.description).toMatch(/E_NOT_FOUND error when the term is not defined/);

  const res = parse(await client.callTool({ name: "search_documents", arguments: { query: "erase a port record", top_k: 3 } }));
  expect(res.results.length).toBeGreaterThan(0);
  expect(res.results.length).toBeLessThanOrEqual(3);
  expect(res.results[0]).toHaveProperty("section_id");
  const erase = res.results.find((r: { section_id: string }) => /Section 4/.test(r.section_id));
  expect(erase).toBeDefined();
  expect(erase.citation).toBe(`${[...erase.parent_chain, erase.section_title].join(" › ")} (${erase.source})`);
  expect(erase.uri).toBe(`hierdoc://${encodeURIComponent(erase.source)}/${encodeURIComponent(erase.section_id)}`);
  const defaultK = parse(await client.callTool({ name: "search_documents", arguments: { query: "record" } }));
  expect(defaultK.results).toHaveLength(5);

  const section = parse(await client.callTool({ name: "get_section", arguments: { id: "Section 2" } }));
  expect(section.chunks[0].content).toMatch(/port record/);
  expect(section.citation).toMatch(/› Section 2\b.*\(.*\.md\)$/);
  expect(section.uri).toMatch(/^hierdoc:\/\/.*\/Section%202$/);
  const def = parse(await client.callTool({ name: "lookup_definition", arguments: { term: "data subject" } }));
  expect(def.definitions[0].definition_text).toMatch(/natural person/);
  expect(def.definitions[0].citation).toBe(`${def.definitions[0].source_section} (${basename(def.definitions[0].source_path)})`);

  // Sections as resources: a template, a list from the outlines, and reads by URI.
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["hierdoc://{source}/{section}"]);
  const { resources } = await client.listResources();
  const listed = resources.find((r) => r.uri === section.uri);
  expect(listed).toMatchObject({ mimeType: "text/markdown", description: section.citation });
  expect(resources.length).toBeGreaterThan(10);
  const read = await client.readResource({ uri: section.uri });
  const content = read.contents[0] as { uri: string; text: string; mimeType: string; _meta: { citation: string; section_id: string } };
  expect(content.uri).toBe(section.uri);
  expect(content.text).toContain(section.chunks[0].content.trim());
  expect(content._meta).toMatchObject({ citation: section.citation, section_id: "Section 2" });
  await expect(client.readResource({ uri: section.uri.replace(/Section%202$/, "Section%20999") })).rejects.toThrow(/no section "Section 999"/);

  // The prompt embeds the best sections as resources and asks for their citations.
  const { prompts } = await client.listPrompts();
  expect(prompts.map((p) => p.name)).toEqual(["answer_with_citations"]);
  expect(prompts[0].arguments?.map((a) => a.name)).toEqual(["question"]);
  const prompt = await client.getPrompt({ name: "answer_with_citations", arguments: { question: "can a port record be erased?" } });
  const [instructions, ...embedded] = prompt.messages;
  expect(instructions.content).toMatchObject({ type: "text" });
  expect((instructions.content as { text: string }).text).toMatch(/cite the passage.*\[.* › .*\]/s);
  expect((instructions.content as { text: string }).text).toContain("Question: can a port record be erased?");
  expect(embedded.length).toBeGreaterThan(0);
  const embeddedUris = embedded.map((m) => (m.content as { resource: { uri: string } }).resource.uri);
  expect(embeddedUris.some((u) => /\/Section%204/.test(u))).toBe(true);
  expect((embedded[0].content as { resource: { text: string } }).resource.text).toMatch(/^\[.* › .*\]\n\n/);

  const missing = (await client.callTool({ name: "get_section", arguments: { id: "Section 999" } })) as TextResult;
  expect(missing.isError).toBe(true);
  expect(JSON.parse(missing.content[0].text).error.code).toBe("E_NOT_FOUND");
  const bad = (await client.callTool({ name: "search_documents", arguments: { query: "x", top_k: 500 } })) as TextResult;
  expect(bad.isError).toBe(true);
}

describe("MCP over stdio (the built dist/mcp-stdio-main.js entry as a subprocess)", () => {
  it("lists the three tools, answers them with citations, serves sections as resources and the cite prompt", async () => {
    stdioTransport = new StdioClientTransport({
      command: process.execPath,
      args: [join(PACKAGE_DIR, "dist/mcp-stdio-main.js"), "--index", ws.index],
      cwd: PACKAGE_DIR,
      stderr: "pipe",
    });
    let stderr = "";
    stdioTransport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: "hierdoc-test", version: "0.0.0" });
    clients.push(client);
    try {
      await client.connect(stdioTransport);
      await exercise(client);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nserver stderr:\n${stderr}`, { cause: err });
    }
  }, 60_000);
});

describe("MCP over Streamable HTTP (/mcp)", () => {
  it("lists the three tools, answers them with citations, serves sections as resources and the cite prompt", async () => {
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
