import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { openIndex } from "@hierdoc/runtime";
import { startServer, type RunningServer } from "@hierdoc/server";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";
import { PACKAGE_DIR, ensureBuilt } from "./helpers.js";

const GDPR = resolve(PACKAGE_DIR, "../../../shared/corpora/gdpr/gdpr_2016_679.md");
const hasGdpr = existsSync(GDPR);
const env = (name: string) => process.env[name];
type TextResult = { content: Array<{ type: string; text: string }> };

const suite = hasGdpr ? describe : describe.skip;
suite(`MCP on the GDPR: search, resources and the cite prompt over stdio and Streamable HTTP${hasGdpr ? "" : " (skipped: ../shared/corpora not present)"}`, () => {
  const root = mkdtempSync(join(tmpdir(), "hierdoc-mcp-gdpr-"));
  const index = join(root, "index");
  let tool: HierarchicalDocumentTool;
  let server: RunningServer | undefined;
  let stdio: StdioClientTransport | undefined;
  const clients: Client[] = [];

  beforeAll(async () => {
    ensureBuilt();
    const config = join(root, "agent.yaml");
    writeFileSync(config, `tools:\n  - name: gdpr\n    type: hierarchical_document\n    source: ${GDPR}\n    embedding: { provider: hash, dimensions: 256 }\n`);
    tool = await openIndex({ index, config, tool: "gdpr" }, { mustExist: false, env });
    await tool.ingest([GDPR]);
    server = await startServer({ tool, closeTool: false });
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    if (stdio?.pid) {
      try {
        process.kill(stdio.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    await server?.close();
    await tool?.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function exercise(client: Client): Promise<void> {
    const res = JSON.parse(((await client.callTool({ name: "search_documents", arguments: { query: "right to erasure" } })) as TextResult).content[0].text);
    expect(res.results[0].section_id).toBe("Article 17");
    expect(res.results[0].citation).toBe(
      "Regulation (EU) 2016/679 (General Data Protection Regulation) › CHAPTER III — Rights of the data subject › Section 3 — Rectification and erasure › Article 17 — Right to erasure (‘right to be forgotten’) (gdpr_2016_679.md)",
    );
    const { resources } = await client.listResources();
    expect(resources.filter((r) => /^hierdoc:\/\/gdpr_2016_679\.md\/Article%20\d+$/.test(r.uri))).toHaveLength(99);
    const read = await client.readResource({ uri: res.results[0].uri });
    expect((read.contents[0] as { text: string }).text).toMatch(/^#### Article 17 — Right to erasure[\s\S]*Article 89\(1\)/);
    const prompt = await client.getPrompt({ name: "answer_with_citations", arguments: { question: "right to erasure" } });
    expect((prompt.messages[1].content as { resource: { uri: string } }).resource.uri).toBe("hierdoc://gdpr_2016_679.md/Article%2017");
  }

  it("over stdio (the built entry as a subprocess): Article 17 first, 99 article resources, Article 17 readable, cited in the prompt", async () => {
    stdio = new StdioClientTransport({ command: process.execPath, args: [join(PACKAGE_DIR, "dist/mcp-stdio-main.js"), "--index", index], cwd: PACKAGE_DIR, stderr: "pipe" });
    let stderr = "";
    stdio.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: "hierdoc-test", version: "0.0.0" });
    clients.push(client);
    try {
      await client.connect(stdio);
      await exercise(client);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nserver stderr:\n${stderr}`, { cause: err });
    }
  }, 60_000);

  it("over Streamable HTTP (/mcp): the same", async () => {
    const client = new Client({ name: "hierdoc-test", version: "0.0.0" });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server!.url}/mcp`)));
    await exercise(client);
  }, 60_000);
});
