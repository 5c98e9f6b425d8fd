// readIndexFolderState: what a server polls to notice another process's ingest (the manifest's identity and
// the live holder of the index lock), checked against the real lock and a real ingest.
import { afterEach, describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { acquireIndexLock, readIndexFolderState } from "@hierdoc/tool";
import { openTool, workspace } from "./helpers.js";

describe("readIndexFolderState", () => {
  let ws: ReturnType<typeof workspace>;
  afterEach(() => ws.cleanup());

  it("is empty for a folder without an index", async () => {
    ws = workspace();
    expect(await readIndexFolderState(ws.index)).toEqual({ manifest: null, lockedBy: null });
  });

  it("changes its manifest identity with every ingest, and names the lock holder while one runs", async () => {
    ws = workspace();
    const tool = await openTool(ws.index);
    try {
      await tool.ingest([join(ws.docs, "harbour-data-act.md")]);
      const first = await readIndexFolderState(ws.index);
      expect(first.manifest).toMatch(/^\d+:\d+:\d+$/);
      expect(first.lockedBy).toBeNull();

      await tool.ingest([join(ws.docs, "community-garden-rules.txt")]);
      const second = await readIndexFolderState(ws.index);
      expect(second.manifest).not.toBe(first.manifest);

      const lock = await acquireIndexLock(ws.index);
      expect((await readIndexFolderState(ws.index)).lockedBy).toBe(process.pid);
      await lock.release();
      expect((await readIndexFolderState(ws.index)).lockedBy).toBeNull();
    } finally {
      await tool.close();
    }
  });

  it("keeps its manifest identity across an ingest where every file was unchanged, unless the config changed", async () => {
    ws = workspace();
    const harbour = join(ws.docs, "harbour-data-act.md");
    let tool = await openTool(ws.index);
    try {
      await tool.ingest([ws.docs]);
      const before = await readIndexFolderState(ws.index);
      const manifest = readFileSync(join(ws.index, "hierdoc.json"), "utf8");
      const noop = await tool.ingest([ws.docs]);
      expect(noop.files.every((f) => f.outcome === "unchanged")).toBe(true);
      expect(await readIndexFolderState(ws.index)).toEqual(before);
      expect(readFileSync(join(ws.index, "hierdoc.json"), "utf8")).toBe(manifest);

      writeFileSync(harbour, readFileSync(harbour, "utf8") + "\n\n## Section 99 Late addition\n\nA new rule.\n");
      await tool.ingest([ws.docs]);
      const changed = await readIndexFolderState(ws.index);
      expect(changed.manifest).not.toBe(before.manifest);
      await tool.close();

      // Nothing to ingest, but the index is now served under another config: the manifest records it.
      tool = await openTool(ws.index, { name: "renamed" });
      await tool.ingest([ws.docs]);
      expect((await readIndexFolderState(ws.index)).manifest).not.toBe(changed.manifest);
      expect(JSON.parse(readFileSync(join(ws.index, "hierdoc.json"), "utf8")).config.name).toBe("renamed");
    } finally {
      await tool.close();
    }
  });

  it("takes a lock of a dead process for free, and a lock file without a pid yet for held", async () => {
    ws = workspace();
    const tool = await openTool(ws.index);
    await tool.close();
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    writeFileSync(join(ws.index, "lock"), dead.stdout);
    expect((await readIndexFolderState(ws.index)).lockedBy).toBeNull();
    writeFileSync(join(ws.index, "lock"), "");
    expect((await readIndexFolderState(ws.index)).lockedBy).toBe(0);
  });
});
