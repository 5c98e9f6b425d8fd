import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { startServer, type RunningServer } from "@hierdoc/server";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";
import { call, sampleTool, workspace } from "./helpers.js";

const ws = workspace();
let tool: HierarchicalDocumentTool;
let server: RunningServer;

beforeAll(async () => {
  tool = await sampleTool(ws.index);
  server = await startServer({ tool, token: "s3cret-token", ingestRoots: [ws.docs], closeTool: false });
});

afterAll(async () => {
  await server?.close();
  await tool?.close();
  ws.cleanup();
});

describe("POST /search", () => {
  it("answers with the CLI's RESULT JSON (snake_case), ranked, with provenance", async () => {
    const { status, body } = await call(`${server.url}/search`, { json: { query: "erase a port record", top_k: 3 } });
    expect(status).toBe(200);
    expect(body.query).toBe("erase a port record");
    expect(body.mode).toBe("hybrid");
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.length).toBeLessThanOrEqual(3);
    const r = body.results[0];
    for (const key of ["id", "rank", "score", "content", "source_path", "start", "end", "section_id", "parent_chain", "chunk_type", "scores", "definitions", "cross_references"]) {
      expect(r).toHaveProperty(key);
    }
    expect(r.rank).toBe(1);
    expect(body.results.map((x: { rank: number }) => x.rank)).toEqual(body.results.map((_: unknown, i: number) => i + 1));
    expect(body.results.some((x: { section_id: string }) => /Section 4/.test(x.section_id))).toBe(true);
  });

  it("finds a section by exact id in exact mode and honours filters", async () => {
    const { status, body } = await call(`${server.url}/search`, { json: { query: "Section 2", mode: "exact", top_k: 5, filters: { source: "**/harbour-data-act.md" } } });
    expect(status).toBe(200);
    expect(body.results[0].section_id).toMatch(/Section 2\b/);
    expect(body.results.every((x: { source_path: string }) => x.source_path.endsWith("harbour-data-act.md"))).toBe(true);
  });

  it.each([
    [{ query: "x", top_k: 101 }, "top_k"],
    [{ query: "x", top_k: 0 }, "top_k"],
    [{ query: "x", top_k: 2.5 }, "top_k"],
    [{ query: "   " }, "query"],
    [{ query: "x", mode: "fuzzy" }, "mode"],
    [{ query: "x", extra: 1 }, "extra"],
    [{ top_k: 3 }, "query"],
  ])("400 for %j", async (json, field) => {
    const { status, body } = await call(`${server.url}/search`, { json });
    expect(status).toBe(400);
    expect(body.error.code).toBe("E_INVALID_ARGUMENT");
    expect(body.error.message).toContain(field);
  });

  it("400 for a body that is not JSON", async () => {
    const { status, body } = await call(`${server.url}/search`, { method: "POST", body: "{not json", headers: { "content-type": "application/json" } });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/not valid JSON/);
  });

  it("413 for a body over the limit", async () => {
    const { status, body } = await call(`${server.url}/search`, { json: { query: "a".repeat(70_000) } });
    expect(status).toBe(413);
    expect(body.error.code).toBe("E_INPUT_TOO_LARGE");
  });
});

describe("lookups", () => {
  it("GET /sections/:id returns the section's chunks in order", async () => {
    const { status, body } = await call(`${server.url}/sections/${encodeURIComponent("Section 4")}`);
    expect(status).toBe(200);
    expect(body.found).toBe(true);
    expect(body.chunks[0].section_id).toMatch(/Section 4/);
    expect(body.chunks[0].content).toMatch(/erase a port record/);
    expect(body.chunks[0]).toHaveProperty("parent_chain");
  });

  it("GET /sections/:id 404 for an unknown section", async () => {
    const { status, body } = await call(`${server.url}/sections/${encodeURIComponent("Section 999")}`);
    expect(status).toBe(404);
    expect(body.error.code).toBe("E_NOT_FOUND");
  });

  it("GET /definitions/:term returns the corpus' own definition (plural-aware)", async () => {
    const { status, body } = await call(`${server.url}/definitions/${encodeURIComponent("port records")}`);
    expect(status).toBe(200);
    expect(body.definitions[0].term.toLowerCase()).toBe("port record");
    expect(body.definitions[0].definition_text).toMatch(/identifies a vessel/);
    expect(body.definitions[0].source_section).toMatch(/Section 2/);
  });

  it("GET /definitions/:term 404 for an undefined term", async () => {
    const { status, body } = await call(`${server.url}/definitions/zebra-crossing`);
    expect(status).toBe(404);
    expect(body.error.code).toBe("E_NOT_FOUND");
  });

  it("GET /refs/:id lists outgoing references", async () => {
    const { status, body } = await call(`${server.url}/refs/${encodeURIComponent("Section 3")}`);
    expect(status).toBe(200);
    expect(body.section_id).toMatch(/Section 3/);
    expect(Array.isArray(body.outgoing)).toBe(true);
    expect(Array.isArray(body.incoming)).toBe(true);
    expect(body.outgoing.some((x: { text: string }) => /Schedule 1|subsection/.test(x.text))).toBe(true);
  });

  it("GET /refs/:id 404 for an unknown section", async () => {
    expect((await call(`${server.url}/refs/nowhere-at-all`)).status).toBe(404);
  });

  it("404 JSON for an unknown route", async () => {
    const { status, body } = await call(`${server.url}/nope`);
    expect(status).toBe(404);
    expect(body.error.code).toBe("E_NOT_FOUND");
  });
});

describe("operations", () => {
  it("GET /health reports the index size", async () => {
    const { status, body } = await call(`${server.url}/health`);
    expect(status).toBe(200);
    expect(body.status).toBe("ok");
    expect(body.chunks).toBe(tool.chunkCount);
    expect(body.chunks).toBeGreaterThan(0);
  });

  it("GET /metrics has request counts by route and status, a latency histogram and the chunk count", async () => {
    await call(`${server.url}/sections/${encodeURIComponent("Section 999")}`);
    const { status, body, headers } = await call(`${server.url}/metrics`);
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/text\/plain/);
    expect(body).toMatch(/hierdoc_http_requests_total\{method="GET",route="\/sections\/:id",status="404"\} [1-9]/);
    expect(body).toMatch(/hierdoc_http_requests_total\{method="POST",route="\/search",status="200"\} [1-9]/);
    expect(body).toMatch(/hierdoc_http_request_duration_seconds_bucket\{le="0.1",method="POST",route="\/search"\} \d+/);
    expect(body).toContain(`hierdoc_index_chunks ${tool.chunkCount}`);
    expect(body).not.toMatch(/Section 999/);
  });

  it("GET /openapi.json is an OpenAPI 3.1 document describing every route", async () => {
    const { status, body } = await call(`${server.url}/openapi.json`);
    expect(status).toBe(200);
    expect(body.openapi).toBe("3.1.0");
    expect(Object.keys(body.paths).sort()).toEqual(
      ["/", "/definitions", "/definitions/{term}", "/documents", "/health", "/ingest", "/mcp", "/metrics", "/openapi.json", "/outline", "/refs/{id}", "/search", "/sections/{id}", "/stats"].sort(),
    );
    const search = body.components.schemas.SearchRequest;
    expect(search.required).toEqual(["query"]);
    expect(search.properties.top_k.maximum).toBe(100);
    expect(body.paths["/ingest"].post.security).toEqual([{ bearer: [] }]);
    const refs = JSON.stringify(body).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const ref of new Set(refs)) expect(body.components.schemas).toHaveProperty(ref.split("/").pop()!);
  });

  it("sends no CORS headers and refuses foreign origins by default", async () => {
    const res = await call(`${server.url}/health`, { headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses a foreign Host header on loopback (DNS rebinding)", async () => {
    const http = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.url}/health`, { headers: { host: "attacker.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe("hostile input", () => {
  it("random JSON bodies to /search get 200 or 400, never 5xx", async () => {
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ query: fc.string(), top_k: fc.oneof(fc.integer(), fc.double(), fc.string()), mode: fc.string() }, { requiredKeys: [] }),
      fc.record({ query: fc.string({ minLength: 1 }), filters: fc.record({ source: fc.string(), section_prefix: fc.string(), chunk_type: fc.string() }, { requiredKeys: [] }) }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (json) => {
        const { status, body: res } = await call(`${server.url}/search`, { json });
        expect([200, 400]).toContain(status);
        if (status === 400) expect(res.error.code).toBe("E_INVALID_ARGUMENT");
      }),
      { numRuns: 150 },
    );
  });

  it("random ids and terms in the path get 200, 400 or 404, never 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("sections", "definitions", "refs"), fc.string({ minLength: 1, maxLength: 80 }), async (route, id) => {
        const { status } = await call(`${server.url}/${route}/${encodeURIComponent(id)}`);
        expect([200, 400, 404]).toContain(status);
      }),
      { numRuns: 150 },
    );
  });
});
