// GET /refs/:id answers from a per-index-state cache: computed once per section, shared by concurrent and
// timed-out requests, dropped by an ingest (refs of a large section take tens of seconds at 1M chunks).
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startServer, type RunningServer } from "@hierdoc/server";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";
import { call, gate, instrumented, openTool, workspace } from "./helpers.js";

const TOKEN = "tok-refs-cache";
const ws = workspace();
let tool: HierarchicalDocumentTool;
let server: RunningServer;
let slow: RunningServer;
const counts = { refs: 0 };
let hold: { wait: Promise<void>; open: () => void } | undefined;

beforeAll(async () => {
  tool = await openTool(ws.index);
  await tool.ingest([ws.docs]);
  const served = {
    ...instrumented(tool),
    refs: async (id: string) => {
      counts.refs++;
      await hold?.wait;
      return tool.refs(id);
    },
  };
  server = await startServer({ tool: served, token: TOKEN, ingestRoots: [ws.docs], closeTool: false });
  slow = await startServer({ tool: served, limits: { requestTimeoutMs: 100 }, closeTool: false });
});

afterAll(async () => {
  hold?.open();
  await server?.close();
  await slow?.close();
  await tool?.close();
  ws.cleanup();
});

const refs = (url: string, id: string) => call(`${url}/refs/${encodeURIComponent(id)}`);
const citing = (body: { incoming: Array<{ from_section_id: string }> }) => body.incoming.map((x) => x.from_section_id).sort();

describe("GET /refs/:id cache", () => {
  it("computes a section's references once and answers repeats from the cache", async () => {
    const before = counts.refs;
    const first = await refs(server.url, "Section 9");
    const second = await refs(server.url, "Section 9");
    expect(first.status).toBe(200);
    expect(citing(first.body)).toContain("Section 5");
    expect(second.body).toEqual(first.body);
    expect(counts.refs - before).toBe(1);
  });

  it("shares one computation between concurrent requests", async () => {
    const before = counts.refs;
    const answers = await Promise.all([1, 2, 3].map(() => refs(server.url, "Section 4")));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(citing(answers[0].body)).toContain("Section 5");
    expect(counts.refs - before).toBe(1);
  });

  it("keeps the work of a request that timed out for the next request", async () => {
    hold = gate();
    const before = counts.refs;
    const late = await refs(slow.url, "Section 8");
    expect(late.status).toBe(503);
    hold.open();
    const again = await refs(slow.url, "Section 8");
    expect(again.status).toBe(200);
    expect(again.body.section_id).toBe("Section 8");
    expect(counts.refs - before).toBe(1);
    hold = undefined;
  });

  it("an ingest drops the cache: new citations appear", async () => {
    const before = counts.refs;
    appendFileSync(join(ws.docs, "harbour-data-act.md"), "\n### Section 10 — Review\n\nThe Commissioner reviews the offences under Section 9 every year.\n");
    const ingested = await call(`${server.url}/ingest`, { json: { paths: [ws.docs] }, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ingested.status).toBe(200);
    const after = await refs(server.url, "Section 9");
    expect(citing(after.body)).toEqual(expect.arrayContaining(["Section 5", "Section 10"]));
    expect(counts.refs - before).toBe(1);
  });
});
