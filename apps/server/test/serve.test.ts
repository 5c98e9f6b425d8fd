import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { serve, type LogEntry, type ServeHandle } from "@hierdoc/server";
import { call, sampleTool, workspace } from "./helpers.js";

const ws = workspace();
const handles: ServeHandle[] = [];

beforeAll(async () => {
  const tool = await sampleTool(ws.index);
  await tool.close();
});

afterAll(async () => {
  for (const h of handles) await h.close().catch(() => {});
  ws.cleanup();
});

describe("serve()", () => {
  it("opens an index folder the way the CLI does and serves it; the token comes from HIERDOC_SERVER_TOKEN", async () => {
    const logs: LogEntry[] = [];
    const h = await serve({
      index: ws.index,
      ingestRoots: [ws.docs],
      env: { HIERDOC_SERVER_TOKEN: "env-token" },
      handleSignals: false,
      logger: (e) => logs.push(e),
    });
    handles.push(h);
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await call(`${h.url}/search`, { json: { query: "Section 4", mode: "exact", top_k: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.results[0].section_id).toMatch(/Section 4/);
    const denied = await call(`${h.url}/ingest`, { json: { paths: ["."] }, headers: { authorization: "Bearer nope" } });
    expect(denied.status).toBe(401);
    const ok = await call(`${h.url}/ingest`, { json: { paths: ["harbour-data-act.md"] }, headers: { authorization: "Bearer env-token" } });
    expect(ok.status).toBe(200);
    expect(logs.some((e) => e.msg === "listening")).toBe(true);
    await h.close();
    await h.closed;
    await expect(fetch(`${h.url}/health`)).rejects.toThrow();
  });

  it("refuses a folder without an index when ingest is not enabled", async () => {
    await expect(serve({ index: `${ws.dir}/empty`, handleSignals: false, logger: () => {} })).rejects.toMatchObject({ code: "E_INDEX_MISSING" });
  });
});
