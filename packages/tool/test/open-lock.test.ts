// The writes an open makes in passing (a converted bm25.bin rewritten, a scanned derived state or a rebuilt
// keyword index saved) take the index lock ingest takes: while another process holds it they are skipped
// (the open serves what it built and says why, with ingest's E_INDEX_LOCKED message); a stale lock is taken over.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DERIVED_FILE_NAME, type HierarchicalDocumentTool } from "@hierdoc/tool";
import { toBm25Format3 } from "./bm25-format3.js";
import { openTool, workspace } from "./helpers.js";

const FORMAT_4 = "HDBM25\u0000\u0004";

describe("writes made while opening an index take the index lock", () => {
  let ws: ReturnType<typeof workspace>;
  let holder: ChildProcess | undefined;
  const opened: HierarchicalDocumentTool[] = [];
  let bm25: string;
  let lock: string;

  beforeEach(async () => {
    ws = workspace();
    const tool = await openTool(ws.index);
    await tool.ingest([ws.docs]);
    await tool.close();
    bm25 = join(ws.index, "keyword", "bm25.bin");
    lock = join(ws.index, "lock");
    writeFileSync(bm25, toBm25Format3(readFileSync(bm25)));
  });
  afterEach(async () => {
    holder?.kill("SIGKILL");
    holder = undefined;
    for (const t of opened.splice(0)) await t.close().catch(() => undefined);
    ws.cleanup();
  });

  /** Starts a live process and writes its pid into the index's lock file, as a running ingest does. */
  function holdLock(): number {
    holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    writeFileSync(lock, String(holder.pid));
    return holder.pid!;
  }

  async function open(warnings: string[] = []): Promise<HierarchicalDocumentTool> {
    const tool = await openTool(ws.index, {}, (m) => warnings.push(m));
    opened.push(tool);
    return tool;
  }

  it("while a live process holds the lock, a converted bm25.bin is served but not rewritten, with ingest's message", async () => {
    const pid = holdLock();
    const before = readFileSync(bm25);
    const warnings: string[] = [];
    const tool = await open(warnings);
    const ingestError = await tool.ingest([ws.docs]).then(() => null, (err: Error & { code?: string }) => err);
    expect(ingestError?.code).toBe("E_INDEX_LOCKED");
    expect(ingestError?.message).toContain(String(pid));
    expect(tool.openInfo.keyword).toEqual({ state: "converted", reason: `format 3 converted on load, not rewritten: ${ingestError?.message}` });
    expect(warnings.join("\n")).toContain(ingestError!.message);
    expect(readFileSync(bm25).equals(before)).toBe(true);
    expect(readFileSync(lock, "utf8")).toBe(String(pid));
    expect((await tool.search("pump station", { mode: "keyword" })).results.length).toBeGreaterThan(0);
  });

  it("while a live process holds the lock, a scanned derived state and a rebuilt keyword index are not saved", async () => {
    const pid = holdLock();
    rmSync(join(ws.index, DERIVED_FILE_NAME));
    rmSync(bm25);
    const tool = await open();
    expect(tool.openInfo.derived).toBe("scanned");
    expect(tool.openInfo.reason).toMatch(new RegExp(`; not saved: .*being written by process ${pid}`));
    expect(tool.openInfo.keyword?.state).toBe("rebuilt");
    expect(tool.openInfo.keyword?.reason).toMatch(new RegExp(`; not saved: .*being written by process ${pid}`));
    expect(existsSync(join(ws.index, DERIVED_FILE_NAME))).toBe(false);
    expect(existsSync(bm25)).toBe(false);
    expect(readFileSync(lock, "utf8")).toBe(String(pid));
    expect((await tool.search("pump station", { mode: "keyword" })).results.length).toBeGreaterThan(0);
  });

  it("a stale lock (its process has exited) is taken over as ingest does: the file is rewritten and the lock released", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(lock, String(dead));
    const tool = await open();
    expect(tool.openInfo.keyword).toEqual({ state: "converted", reason: "format 3 converted on load, rewritten in the current format" });
    expect(readFileSync(bm25).subarray(0, 8).toString("latin1")).toBe(FORMAT_4);
    expect(existsSync(lock)).toBe(false);
    writeFileSync(lock, String(dead));
    await expect(tool.ingest([ws.docs])).resolves.toBeDefined();
    expect(existsSync(lock)).toBe(false);
  });
});
