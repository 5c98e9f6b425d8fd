import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { PAGE_CSP, startServer, type RunningServer } from "@hierdoc/server";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";
import { call, sampleTool, workspace } from "./helpers.js";
import { ensureUiBuilt } from "./ui-build.js";

const ws = workspace();
let tool: HierarchicalDocumentTool;
let server: RunningServer;
const TOKEN = "browse-token";

beforeAll(async () => {
  ensureUiBuilt();
  tool = await sampleTool(ws.index);
  server = await startServer({ tool, token: TOKEN, ingestRoots: [ws.docs], closeTool: false });
});

afterAll(async () => {
  await server?.close();
  await tool?.close();
  ws.cleanup();
});

describe("browsing routes", () => {
  it("GET /definitions lists every defined term, sorted by term", async () => {
    const { status, body } = await call(`${server.url}/definitions`);
    expect(status).toBe(200);
    expect(body.count).toBe(tool.listDefinitions().length);
    expect(body.definitions.length).toBeGreaterThan(1);
    const terms = body.definitions.map((d: { term: string }) => d.term);
    expect(terms).toEqual([...terms].sort((a: string, b: string) => a.localeCompare(b, "en", { sensitivity: "base" })));
    const port = body.definitions.find((d: { term: string }) => d.term.toLowerCase() === "port record");
    expect(port.definition_text).toMatch(/identifies a vessel/);
    expect(port.source_section).toMatch(/Section 2/);
  });

  it("GET /documents lists each document once, with counts that add up to the index", async () => {
    const { status, body } = await call(`${server.url}/documents`);
    expect(status).toBe(200);
    const paths = body.documents.map((d: { source_path: string }) => d.source_path.split("/").pop());
    expect(paths.sort()).toEqual(["community-garden-rules.txt", "harbour-data-act.md", "pumpstation-manual.md"]);
    expect(body.documents.reduce((n: number, d: { chunks: number }) => n + d.chunks, 0)).toBe(tool.chunkCount);
    for (const d of body.documents) {
      expect(d.sections).toBeGreaterThan(0);
      expect((await call(`${server.url}/sections/${encodeURIComponent(d.first_section_id)}`)).status).toBe(200);
    }
  });

  it("GET /outline gives a document's sections in document order with their heading chains", async () => {
    const docs = (await call(`${server.url}/documents`)).body.documents;
    const act = docs.find((d: { source_path: string }) => d.source_path.endsWith("harbour-data-act.md"));
    const { status, body } = await call(`${server.url}/outline?source=${encodeURIComponent(act.source_path)}`);
    expect(status).toBe(200);
    expect(body.title).toBe(act.title);
    const starts = body.sections.map((s: { start: number }) => s.start);
    expect(starts).toEqual([...starts].sort((a: number, b: number) => a - b));
    const ids = body.sections.map((s: { section_id: string }) => s.section_id);
    for (const id of ["Section 2", "Section 3", "Section 4"]) expect(ids.some((x: string) => x.startsWith(id))).toBe(true);
    expect(ids.findIndex((x: string) => x.startsWith("Section 2"))).toBeLessThan(ids.findIndex((x: string) => x.startsWith("Section 4")));
    const s4 = body.sections.find((s: { section_id: string }) => s.section_id.startsWith("Section 4"));
    const record = (await call(`${server.url}/sections/${encodeURIComponent(s4.section_id)}`)).body.chunks[0];
    expect(s4.parent_chain).toEqual(record.parent_chain);
    expect(body.sections.reduce((n: number, s: { chunks: number }) => n + s.chunks, 0)).toBe(act.chunks);
  });

  it("GET /outline: 400 without `source`, 404 for a document not in the index", async () => {
    const missing = await call(`${server.url}/outline`);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/source/);
    const unknown = await call(`${server.url}/outline?source=${encodeURIComponent("/nowhere/else.md")}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("E_NOT_FOUND");
  });

  it("GET /stats reports the index in snake_case with its documents", async () => {
    const { status, body } = await call(`${server.url}/stats`);
    expect(status).toBe(200);
    const s = await tool.stats();
    expect(body).toMatchObject({ files: 3, chunks: tool.chunkCount, definitions: s.definitions, keyword_docs: s.keywordDocs, store: s.store, dimensions: 256 });
    expect(body.documents).toHaveLength(3);
  });

  it("an ingest through the API refreshes the outlines", async () => {
    writeFileSync(join(ws.docs, "tide-tables.md"), "# Tide Tables Act\n\n## Section 1 — Publication\n\nThe harbour master publishes tide tables.\n\n## Section 2 — Errors\n\nAn error in a tide table is corrected within a day.\n");
    const before = (await call(`${server.url}/documents`)).body.documents.length;
    const res = await call(`${server.url}/ingest`, { json: { paths: ["tide-tables.md"] }, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const docs = (await call(`${server.url}/documents`)).body.documents;
    expect(docs.length).toBe(before + 1);
    const tide = docs.find((d: { source_path: string }) => d.source_path.endsWith("tide-tables.md"));
    const outline = (await call(`${server.url}/outline?source=${encodeURIComponent(tide.source_path)}`)).body;
    expect(outline.sections.map((s: { section_id: string }) => s.section_id)).toEqual(expect.arrayContaining(["Section 1", "Section 2"]));
  });
});

describe("the search page", () => {
  it("serves the page at /, /s/ID, /terms and /info with a strict CSP and no inline script or style", async () => {
    for (const path of ["/", `/s/${encodeURIComponent("Section 4")}`, "/terms", "/info"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("content-security-policy")).toBe(PAGE_CSP);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const html = await res.text();
      expect(html).toMatch(/<form id="search"/);
      for (const tag of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []) expect(tag).toMatch(/^<script\b[^>]*\bsrc="\/assets\/[^"]+"[^>]*><\/script>$/);
      expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    }
    expect(PAGE_CSP).toContain("default-src 'self'");
    expect(PAGE_CSP).not.toContain("unsafe-inline");
  });

  it("every asset the page references is served with its type, and unchanged assets answer 304", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(expect.arrayContaining(["/assets/main.js", "/assets/app.css", "/assets/icon.svg"]));
    for (const ref of refs) {
      const res = await fetch(`${server.url}${ref}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(ref.endsWith(".js") ? /javascript/ : ref.endsWith(".css") ? /text\/css/ : /svg/);
      const again = await fetch(`${server.url}${ref}`, { headers: { "if-none-match": res.headers.get("etag") ?? "" } });
      expect(again.status).toBe(304);
    }
    // Every module the entry imports is served too.
    const main = await (await fetch(`${server.url}/assets/main.js`)).text();
    for (const m of main.matchAll(/from "\.\/([\w-]+\.js)"/g)) expect((await fetch(`${server.url}/assets/${m[1]}`)).status).toBe(200);
    expect((await call(`${server.url}/assets/nope.js`)).status).toBe(404);
    expect((await call(`${server.url}/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  it("the page's own requests pass the Origin check under either loopback name; foreign origins still get 403", async () => {
    const http = await import("node:http");
    const post = (host: string, origin: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(`${server.url}/search`, { method: "POST", headers: { host, origin, "content-type": "application/json" } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end(JSON.stringify({ query: "port record" }));
      });
    expect(await post(`localhost:${server.port}`, `http://localhost:${server.port}`)).toBe(200);
    expect(await post(`127.0.0.1:${server.port}`, `http://127.0.0.1:${server.port}`)).toBe(200);
    expect(await post(`127.0.0.1:${server.port}`, "http://evil.example")).toBe(403);
    expect(await post(`127.0.0.1:${server.port}`, `http://localhost:${server.port}`)).toBe(403);
  });

  it("ui: false turns the page off (JSON 404) and leaves the API", async () => {
    const plain = await startServer({ tool, ui: false, closeTool: false });
    try {
      const res = await call(`${plain.url}/`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("E_NOT_FOUND");
      expect((await call(`${plain.url}/assets/main.js`)).status).toBe(404);
      expect((await call(`${plain.url}/definitions`)).status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
