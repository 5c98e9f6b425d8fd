import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startServer, type LogEntry } from "@hierdoc/server";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";
import { call, gate, instrumented, sampleTool, sleep, until, workspace } from "./helpers.js";

const ws = workspace();
let tool: HierarchicalDocumentTool;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  tool = await sampleTool(ws.index);
});

afterAll(async () => {
  for (const c of cleanups) await c().catch(() => {});
  await tool?.close();
  ws.cleanup();
});

/** A gate that is opened in afterAll too, so a failing test cannot leave a request (and the server) hanging. */
function heldGate() {
  const g = gate();
  cleanups.unshift(async () => g.open());
  return g;
}

async function serverWith(options: Parameters<typeof startServer>[0]) {
  const s = await startServer({ closeTool: false, shutdownGraceMs: 2_000, ...options });
  cleanups.push(() => s.close());
  return s;
}

const search = (url: string, query = "port record") => call(`${url}/search`, { json: { query, top_k: 2 } });

describe("per-client concurrency", () => {
  it("429 above the limit, health stays reachable, held requests finish", async () => {
    const g = heldGate();
    const served = instrumented(tool, { search: () => g.wait });
    const s = await serverWith({ tool: served, limits: { perClientConcurrency: 2 } });
    const held = [search(s.url), search(s.url)];
    await until(() => served.counts.searches === 2);
    const third = await search(s.url);
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe("E_RATE_LIMITED");
    expect(third.headers.get("retry-after")).toBe("1");
    expect((await call(`${s.url}/health`)).status).toBe(200);
    g.open();
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
    expect((await search(s.url)).status).toBe(200);
  });
});

describe("timeouts", () => {
  it("503 E_TIMEOUT when a read outlasts requestTimeoutMs", async () => {
    const served = instrumented(tool, { search: () => sleep(1_000) });
    const s = await serverWith({ tool: served, limits: { requestTimeoutMs: 150 } });
    const t0 = Date.now();
    const res = await search(s.url);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("E_TIMEOUT");
    expect(Date.now() - t0).toBeLessThan(900);
  });
});

describe("ingest is exclusive", () => {
  it("reads wait for a running ingest; a second ingest gets 409", async () => {
    const g = heldGate();
    const served = instrumented(tool, { ingest: () => g.wait });
    const s = await serverWith({ tool: served, token: "t", ingestRoots: [ws.docs] });
    const auth = { authorization: "Bearer t" };
    const first = call(`${s.url}/ingest`, { json: { paths: ["harbour-data-act.md"] }, headers: auth });
    await until(() => served.counts.ingests === 1);
    let searchDone = false;
    const during = search(s.url).then((r) => ((searchDone = true), r));
    await sleep(100);
    expect(searchDone).toBe(false);
    const second = await call(`${s.url}/ingest`, { json: { paths: ["harbour-data-act.md"] }, headers: auth });
    expect(second.status).toBe(409);
    expect((await call(`${s.url}/health`)).body.ingesting).toBe(true);
    g.open();
    expect((await first).status).toBe(200);
    expect((await during).status).toBe(200);
  });
});

describe("graceful shutdown", () => {
  it("stops accepting, finishes in-flight requests, then closes the tool", async () => {
    const g = heldGate();
    const served = instrumented(tool, { search: () => g.wait });
    const s = await startServer({ tool: served });
    cleanups.push(() => s.close());
    const inflight = search(s.url);
    await until(() => served.counts.searches === 1);
    const closing = s.close();
    await sleep(50);
    await expect(fetch(`${s.url}/health`)).rejects.toThrow();
    expect(served.counts.closed).toBe(false);
    g.open();
    const res = await inflight;
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBeGreaterThan(0);
    await closing;
    expect(served.counts.closed).toBe(true);
  });
});

describe("CORS", () => {
  it("is answered for configured origins only", async () => {
    const s = await serverWith({ tool, cors: { origins: ["https://app.example"] } });
    const pre = await fetch(`${s.url}/search`, { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "POST" } });
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const ok = await call(`${s.url}/health`, { headers: { origin: "https://app.example" } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect((await call(`${s.url}/health`, { headers: { origin: "https://other.example" } })).status).toBe(403);
  });
});

describe("logs", () => {
  it("hold no token, query text or document text at the default level; debug adds paths", async () => {
    const entries: LogEntry[] = [];
    const s = await serverWith({ tool, token: "tok-SECRET-42", ingestRoots: [ws.docs], logger: (e) => entries.push(e) });
    await search(s.url, "zebra-unique-query-term vessel");
    await call(`${s.url}/sections/${encodeURIComponent("Section 2")}`);
    await call(`${s.url}/definitions/${encodeURIComponent("port record")}`);
    await call(`${s.url}/ingest`, { json: { paths: ["harbour-data-act.md"] }, headers: { authorization: "Bearer tok-SECRET-42" } });
    await call(`${s.url}/ingest`, { json: { paths: ["harbour-data-act.md"] }, headers: { authorization: "Bearer wrong-SECRET-43" } });
    const text = JSON.stringify(entries);
    expect(entries.filter((e) => e.msg === "request").map((e) => `${e.route} ${e.status}`)).toEqual([
      "/search 200",
      "/sections/:id 200",
      "/definitions/:term 200",
      "/ingest 200",
      "/ingest 401",
    ]);
    for (const secret of ["tok-SECRET-42", "wrong-SECRET-43", "zebra-unique-query-term", "Section 2", "port record", "identifies a vessel"]) expect(text).not.toContain(secret);
    expect(entries.every((e) => e.level !== "debug")).toBe(true);

    const debug: LogEntry[] = [];
    const d = await serverWith({ tool, logger: (e) => debug.push(e), logLevel: "debug" });
    await call(`${d.url}/sections/${encodeURIComponent("Section 2")}`);
    expect(debug.some((e) => e.level === "debug" && e.path === "/sections/Section%202")).toBe(true);
  });
});

describe("options", () => {
  it("refuses bad limits and missing tool", async () => {
    await expect(startServer({ tool, limits: { topK: 101 } })).rejects.toThrow(/topK is at most 100/);
    await expect(startServer({ tool, limits: { bodyBytes: 0 } })).rejects.toThrow(/bodyBytes/);
    await expect(startServer({})).rejects.toThrow(/tool/);
  });

  it("limits.topK lowers the top_k ceiling", async () => {
    const s = await serverWith({ tool, limits: { topK: 5 } });
    expect((await call(`${s.url}/search`, { json: { query: "port", top_k: 6 } })).status).toBe(400);
    expect((await call(`${s.url}/search`, { json: { query: "port", top_k: 5 } })).status).toBe(200);
  });
});
