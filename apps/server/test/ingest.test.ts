import { mkdirSync, symlinkSync, writeFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startServer, type RunningServer } from "@hierdoc/server";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";
import { call, openTool, workspace } from "./helpers.js";

const TOKEN = "tok-7f3a9c1e";
const ws = workspace();
const trap = join(ws.dir, "trap");
let tool: HierarchicalDocumentTool;
let server: RunningServer;
let noToken: RunningServer;

const ingest = (json: unknown, token: string | null = TOKEN, url = server.url) =>
  call(`${url}/ingest`, { json, headers: token === null ? {} : { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  mkdirSync(join(trap, "folder"), { recursive: true });
  writeFileSync(join(trap, "folder", "ok.md"), "# Fine\n\n## Section 1 — Fine\n\nA fine rule.\n");
  symlinkSync(join(ws.outside, "secret-rules.txt"), join(trap, "folder", "escape.txt"));
  symlinkSync(join(ws.outside, "secret-rules.txt"), join(trap, "link-out.txt"));
  symlinkSync(ws.outside, join(trap, "dir-out"));
  tool = await openTool(ws.index);
  server = await startServer({ tool, token: TOKEN, ingestRoots: [ws.docs, trap], closeTool: false });
  noToken = await startServer({ tool, ingestRoots: [ws.docs], closeTool: false });
});

afterAll(async () => {
  await server?.close();
  await noToken?.close();
  await tool?.close();
  ws.cleanup();
});

describe("POST /ingest authentication", () => {
  it.each([
    ["no Authorization header", null],
    ["a wrong token", "tok-7f3a9c1f"],
    ["a prefix of the token", "tok-7f3a"],
    ["an empty token", ""],
  ])("401 with %s", async (_name, token) => {
    const res = await ingest({ paths: ["."] }, token);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("E_UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(tool.chunkCount).toBe(0);
  });

  it("401 for Basic credentials", async () => {
    const res = await call(`${server.url}/ingest`, { json: { paths: ["."] }, headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` } });
    expect(res.status).toBe(401);
  });

  it("401 when the server has no token configured, whatever the client sends", async () => {
    const res = await ingest({ paths: ["."] }, "anything", noToken.url);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/none configured/);
  });
});

describe("POST /ingest path checks", () => {
  it.each([
    ["a .. escape", () => "../outside/secret-rules.txt"],
    ["a .. that comes back inside", () => "../docs/harbour-data-act.md"],
    ["an absolute path outside the roots", () => join(ws.outside, "secret-rules.txt")],
    ["/etc/passwd", () => "/etc/passwd"],
    ["a file symlink pointing out", () => join(trap, "link-out.txt")],
    ["a folder symlink pointing out", () => join(trap, "dir-out")],
    ["a folder holding a symlink that points out", () => join(trap, "folder")],
    ["the whole root holding links out", () => trap],
  ])("403 for %s", async (_name, path) => {
    const res = await ingest({ paths: [path()] });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("E_FORBIDDEN");
    expect(tool.chunkCount).toBe(0);
  });

  it("404 for a path under a root that does not exist", async () => {
    const res = await ingest({ paths: ["no-such-file.md"] });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("E_INPUT_NOT_FOUND");
  });

  it.each([[{ paths: [] }], [{ paths: ["*.md"] }], [{ paths: "docs" }], [{ paths: ["."], force: "yes" }], [{}]])("400 for %j", async (json) => {
    const res = await ingest(json);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("E_INVALID_ARGUMENT");
  });
});

describe("POST /ingest", () => {
  it("ingests a root incrementally; the new chunks are searchable", async () => {
    const first = await ingest({ paths: ["."] });
    expect(first.status).toBe(200);
    expect(first.body.files.map((f: { outcome: string }) => f.outcome)).toEqual(["added", "added", "added"]);
    expect(first.body.total_chunks).toBe(tool.chunkCount);
    expect(first.body.chunks_written).toBe(tool.chunkCount);
    const search = await call(`${server.url}/search`, { json: { query: "erase a port record", top_k: 3 } });
    expect(search.body.results[0].source_path).toContain("harbour-data-act.md");

    appendFileSync(join(ws.docs, "pumpstation-manual.md"), "\n\n## 99 Zanzibar valves\n\nThe zanzibar valve is inspected weekly.\n");
    const second = await ingest({ paths: [ws.docs] });
    expect(second.status).toBe(200);
    const outcomes = Object.fromEntries(second.body.files.map((f: { source_path: string; outcome: string }) => [f.source_path.split("/").pop(), f.outcome]));
    expect(outcomes).toEqual({ "community-garden-rules.txt": "unchanged", "harbour-data-act.md": "unchanged", "pumpstation-manual.md": "updated" });
    const found = await call(`${server.url}/search`, { json: { query: "zanzibar valve", mode: "keyword", top_k: 1 } });
    expect(found.body.results[0].content).toMatch(/zanzibar valve/i);
  });

  it("accepts a file inside a second root and never indexed anything outside the roots", async () => {
    const res = await ingest({ paths: [join(trap, "folder", "ok.md")] });
    expect(res.status).toBe(200);
    expect(res.body.files[0].outcome).toBe("added");
    const sources = (await tool.stats()).files;
    expect(sources).toBe(4);
    const leak = await call(`${server.url}/search`, { json: { query: "secret rules garden", top_k: 100 } });
    expect(leak.body.results.every((r: { source_path: string }) => !r.source_path.includes("outside") && !r.source_path.includes("escape"))).toBe(true);
  });
});
