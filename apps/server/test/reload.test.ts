// A running server sees an ingest made by another process into its index folder: it notices within about a
// second, opens the new state in the background while the old one answers, swaps, and logs one line saying why.
// It waits while another process holds the index lock, and does not reload its own ingests.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { LogEntry, RunningServer, ServeHandle, ServedTool } from "@hierdoc/server";
import { call, ensureBuilt, gate, openTool, PACKAGE_DIR, sampleTool, until, workspace } from "./helpers.js";

const CLI = resolve(PACKAGE_DIR, "../cli/bin/hierdoc.js");
const HOLDING_FIXTURE = join(PACKAGE_DIR, "test/fixtures/ingest-holding-lock.mjs");
const NEW_DOC = "# Lighthouse Keeping Act\n\n## Section 1. Beacons\n\nEvery zephyrine beacon shall be lit from dusk to dawn by the keeper on duty.\n";

let ws: ReturnType<typeof workspace>;
let newDoc: string;
const children: ChildProcess[] = [];
const servers: Array<ServeHandle | RunningServer> = [];

// `@hierdoc/server` resolves to the built package: build it when `src` is newer, then load it.
let serve: typeof import("@hierdoc/server").serve;
let startServer: typeof import("@hierdoc/server").startServer;
beforeAll(async () => {
  ensureBuilt();
  ({ serve, startServer } = await import("@hierdoc/server"));
});

beforeEach(async () => {
  ws = workspace();
  const tool = await sampleTool(ws.index);
  await tool.close();
  mkdirSync(join(ws.dir, "more"));
  newDoc = join(ws.dir, "more", "lighthouse.md");
  writeFileSync(newDoc, NEW_DOC);
});

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close().catch(() => {});
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  ws?.cleanup();
});

/** Starts a child process (killed in afterEach if the test does not end it). */
function child(args: string[]): ChildProcess {
  const c = spawn(process.execPath, args, { cwd: ws.dir, env: { ...process.env, HIERDOC_CACHE_DIR: join(ws.dir, "cache"), NODE_OPTIONS: "" }, stdio: ["pipe", "pipe", "pipe"] });
  children.push(c);
  return c;
}

/** Runs `hierdoc ingest FILE --index INDEX` (the built CLI) to completion; rejects on a non-zero exit. */
async function cliIngest(file: string): Promise<void> {
  const c = child([CLI, "ingest", file, "--index", ws.index, "--quiet"]);
  let stderr = "";
  c.stderr!.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((r) => c.once("exit", r));
  if (code !== 0) throw new Error(`hierdoc ingest exited with ${code}: ${stderr}`);
}

/** Source paths of a keyword search for the new document's word. */
async function lighthouseHits(url: string): Promise<{ status: number; sources: string[] }> {
  const res = await call(`${url}/search`, { json: { query: "zephyrine beacon", mode: "keyword", top_k: 3 } });
  return { status: res.status, sources: res.status === 200 ? res.body.results.map((r: { source_path: string }) => r.source_path) : [] };
}

const hasLighthouse = (sources: string[]) => sources.some((s) => s.endsWith("lighthouse.md"));

/** `promise`, or a rejection after `ms`. */
function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `fn` until it returns true (every 20 ms, at most `ms`); returns the time it took. */
async function within(ms: number, fn: () => Promise<boolean>): Promise<number> {
  const t0 = Date.now();
  while (!(await fn())) {
    if (Date.now() - t0 > ms) throw new Error(`not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - t0;
}

describe("reloading after another process's ingest", () => {
  it("answers with a document `hierdoc ingest` added in another process within about a second, and logs one line", async () => {
    const logs: LogEntry[] = [];
    const h = await serve({ index: ws.index, handleSignals: false, logger: (e) => logs.push(e) });
    servers.push(h);
    const before = await call(`${h.url}/health`);
    expect(before.body.index).toMatchObject({ watching: true, reloads: 0, reloading: false, waiting_for_lock: null, last_reload: null });
    expect(hasLighthouse((await lighthouseHits(h.url!)).sources)).toBe(false);

    await cliIngest(newDoc);
    const ms = await within(5_000, async () => hasLighthouse((await lighthouseHits(h.url!)).sources));
    process.stdout.write(`reload: new document answered ${ms} ms after \`hierdoc ingest\` exited (interval 1,000 ms)\n`);
    expect(ms).toBeLessThan(2_500);

    const health = await call(`${h.url}/health`);
    const manifest = JSON.parse(readFileSync(join(ws.index, "hierdoc.json"), "utf8"));
    expect(health.body.chunks).toBe(health.body.index.last_reload.chunks_after);
    expect(health.body.index).toMatchObject({ reloads: 1, updated_at: manifest.updatedAt, last_error: null });
    expect(health.body.index.last_reload.chunks_after).toBeGreaterThan(health.body.index.last_reload.chunks_before);
    const reloaded = logs.filter((e) => e.msg === "index reloaded");
    expect(reloaded).toHaveLength(1);
    expect(reloaded[0]).toMatchObject({ level: "info", reason: expect.stringMatching(/hierdoc\.json changed \(an ingest by another process finished/) });
    // The section, outline and definitions routes see the new state too.
    expect((await call(`${h.url}/sections/${encodeURIComponent("Section 1")}`)).status).toBe(200);
    const docs = await call(`${h.url}/documents`);
    expect(docs.body.documents.map((d: { source_path: string }) => d.source_path).some((s: string) => s.endsWith("lighthouse.md"))).toBe(true);
  });

  it("does not reload an ingest made through the server itself", async () => {
    const logs: LogEntry[] = [];
    const h = await serve({ index: ws.index, handleSignals: false, logger: (e) => logs.push(e), token: "t", ingestRoots: [join(ws.dir, "more")], reload: { intervalMs: 20 } });
    servers.push(h);
    const res = await call(`${h.url}/ingest`, { json: { paths: ["lighthouse.md"] }, headers: { authorization: "Bearer t" } });
    expect(res.status).toBe(200);
    expect(hasLighthouse((await lighthouseHits(h.url!)).sources)).toBe(true);
    // Ten check intervals: a reload of the server's own ingest would have happened by now.
    await new Promise((r) => setTimeout(r, 200));
    expect((await call(`${h.url}/health`)).body.index.reloads).toBe(0);
    expect(logs.filter((e) => e.msg === "index reloaded")).toHaveLength(0);
  });

  it("reuses the loaded embedder on reload, and does not reload after another process's ingest that found every file unchanged", async () => {
    const h = await serve({ index: ws.index, handleSignals: false, logger: () => undefined, reload: { intervalMs: 20 } });
    servers.push(h);
    const embedderOf = (t: unknown) => (t as { embedder: unknown }).embedder;
    const [firstTool, firstEmbedder] = [h.tool, embedderOf(h.tool)];
    await cliIngest(newDoc);
    await within(5_000, async () => (await call(`${h.url}/health`)).body.index.reloads === 1);
    // The reloaded tool is new, its embedder the one already loaded (same embedding settings).
    expect(h.tool).not.toBe(firstTool);
    expect(embedderOf(h.tool)).toBe(firstEmbedder);
    const manifest = readFileSync(join(ws.index, "hierdoc.json"), "utf8");
    await cliIngest(newDoc);
    // Ten check intervals after the no-op ingest exited: a reload would have happened by now.
    await new Promise((r) => setTimeout(r, 200));
    expect(readFileSync(join(ws.index, "hierdoc.json"), "utf8")).toBe(manifest);
    expect((await call(`${h.url}/health`)).body.index).toMatchObject({ reloads: 1, reloading: false });
  });

  it("loads another process's ingest before an ingest through the server, so that one does not write over it", async () => {
    const h = await serve({ index: ws.index, handleSignals: false, logger: () => {}, token: "t", ingestRoots: [join(ws.dir, "more")], reload: { intervalMs: 60_000 } });
    servers.push(h);
    await cliIngest(newDoc);
    writeFileSync(join(ws.dir, "more", "second.md"), "# Second Act\n\n## Section 9. Quays\n\nA quay shall be swept weekly.\n");
    const res = await call(`${h.url}/ingest`, { json: { paths: ["second.md"] }, headers: { authorization: "Bearer t" } });
    expect(res.status).toBe(200);
    expect(hasLighthouse((await lighthouseHits(h.url!)).sources)).toBe(true);
    expect((await call(`${h.url}/health`)).body.index).toMatchObject({ reloads: 1, last_reload: { reason: expect.stringMatching(/before an ingest through this server/) } });
    await h.close();
    // What is on disk holds both documents.
    const reopened = await openTool(ws.index);
    try {
      expect(reopened.sources().some((s) => s.endsWith("lighthouse.md"))).toBe(true);
      expect(reopened.sources().some((s) => s.endsWith("second.md"))).toBe(true);
    } finally {
      await reopened.close();
    }
  });

  it("does not reload while another process holds the index lock, and reloads once it is released", async () => {
    const logs: LogEntry[] = [];
    const h = await serve({ index: ws.index, handleSignals: false, logger: (e) => logs.push(e), logLevel: "debug", reload: { intervalMs: 20 } });
    servers.push(h);
    const manifestBefore = readFileSync(join(ws.index, "hierdoc.json"), "utf8");
    const writer = child([HOLDING_FIXTURE, ws.index, newDoc]);
    const out = createInterface({ input: writer.stdout! })[Symbol.asyncIterator]();
    let stderr = "";
    writer.stderr!.on("data", (d) => (stderr += d));
    const first = await Promise.race([out.next(), new Promise((_, reject) => writer.once("exit", (code) => reject(new Error(`fixture exited ${code}: ${stderr}`))))]);
    expect((first as IteratorResult<string>).value).toBe("holding");
    // The other process has rewritten the manifest and still holds the lock.
    expect(readFileSync(join(ws.index, "hierdoc.json"), "utf8")).not.toBe(manifestBefore);
    expect(readFileSync(join(ws.index, "lock"), "utf8").trim()).toBe(String(writer.pid));

    await within(2_000, async () => (await call(`${h.url}/health`)).body.index.waiting_for_lock === writer.pid);
    // Twenty check intervals with the change in sight: still the old state, still answering.
    await new Promise((r) => setTimeout(r, 400));
    const held = await lighthouseHits(h.url!);
    expect(held.status).toBe(200);
    expect(hasLighthouse(held.sources)).toBe(false);
    expect((await call(`${h.url}/health`)).body.index.reloads).toBe(0);

    writer.stdin!.write("go\n");
    expect((await out.next()).value).toBe("done");
    await within(3_000, async () => hasLighthouse((await lighthouseHits(h.url!)).sources));
    const health = await call(`${h.url}/health`);
    expect(health.body.index).toMatchObject({ reloads: 1, waiting_for_lock: null });
    expect(health.body.index.last_reload.reason).toContain(`waited for process ${writer.pid} to release the index lock`);
    expect(logs.filter((e) => e.msg === "index reloaded")).toHaveLength(1);
  });

  it("reloads in the MCP stdio server too (`hierdoc serve --mcp`)", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [join(PACKAGE_DIR, "dist/mcp-stdio-main.js"), "--index", ws.index], cwd: ws.dir, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: "hierdoc-test", version: "0.0.0" });
    const search = async () => {
      const r = (await client.callTool({ name: "search_documents", arguments: { query: "zephyrine beacon", mode: "keyword", top_k: 3 } })) as { content: Array<{ text: string }> };
      return (JSON.parse(r.content[0].text).results as Array<{ source: string }>).map((x) => x.source);
    };
    try {
      await client.connect(transport);
      expect(hasLighthouse(await search())).toBe(false);
      await cliIngest(newDoc);
      await within(5_000, async () => hasLighthouse(await search()));
      await within(1_000, async () => stderr.includes('"msg":"index reloaded"'));
    } finally {
      const pid = transport.pid;
      await client.close().catch(() => {});
      if (pid) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
    }
  });

  it("answers reads from the old state while the new one opens, swaps without a failed read, and closes the old tool after its last read", async () => {
    const first = await openTool(ws.index);
    let firstClosed = false;
    const held = gate();
    const heldStarted = gate();
    // The first tool, with a search that waits for the test (a read in flight across the swap).
    const served: ServedTool = {
      get chunkCount() {
        return first.chunkCount;
      },
      store: first.store,
      search: async (query, options) => {
        if (query === "hold me") {
          heldStarted.open();
          await held.wait;
        }
        return first.search(query, options);
      },
      section: (id) => first.section(id),
      define: (term) => first.define(term),
      listDefinitions: () => first.listDefinitions(),
      refs: (id) => first.refs(id),
      stats: () => first.stats(),
      ingest: (sources, options) => first.ingest(sources, options),
      close: async () => {
        firstClosed = true;
        await first.close();
      },
    };
    const opening = gate();
    const finishOpen = gate();
    const server = await startServer({
      tool: served,
      logger: () => {},
      reload: {
        indexDir: ws.index,
        intervalMs: 20,
        open: async () => {
          opening.open();
          await finishOpen.wait;
          return openTool(ws.index);
        },
      },
    });
    servers.push(server);

    await cliIngest(newDoc);
    await bounded(opening.wait, 3_000, "the reload's open");
    expect((await call(`${server.url}/health`)).body.index.reloading).toBe(true);
    const during = await Promise.all([1, 2, 3].map(() => lighthouseHits(server.url)));
    for (const r of during) {
      expect(r.status).toBe(200);
      expect(hasLighthouse(r.sources)).toBe(false);
    }

    // A read in flight on the old tool when the swap happens, and a stream of reads across it.
    const inFlight = call(`${server.url}/search`, { json: { query: "hold me", mode: "keyword" } });
    await bounded(heldStarted.wait, 3_000, "the held search");
    const statuses: number[] = [];
    let streaming = true;
    const stream = Promise.all(
      [1, 2, 3, 4].map(async () => {
        while (streaming) statuses.push((await lighthouseHits(server.url)).status);
      }),
    );
    finishOpen.open();
    await within(3_000, async () => hasLighthouse((await lighthouseHits(server.url)).sources));
    streaming = false;
    await stream;
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(server.tool).not.toBe(served);
    // The old tool is still in use by the held read: not closed until it finishes.
    expect(firstClosed).toBe(false);
    held.open();
    expect((await inFlight).status).toBe(200);
    await until(() => firstClosed, 2_000);
  });
});
