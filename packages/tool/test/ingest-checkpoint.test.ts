import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type { HierdocError } from "@hierdoc/core";
import { loadToolConfig } from "@hierdoc/tool";
import { openTool, workspace } from "./helpers.js";

let ws: ReturnType<typeof workspace>;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.cleanup());

/** `count` small markdown files in a fresh folder; returns the folder. */
function manuals(count: number): string {
  const dir = join(ws.dir, "manuals");
  mkdirSync(dir);
  for (let f = 0; f < count; f++) {
    writeFileSync(join(dir, `m-${String(f).padStart(2, "0")}.md`), `# Manual ${f}\n\n## Section 1\n\nPump ${f} is inspected weekly.\n\n## Section 2\n\nValve ${f} is closed at night.\n`);
  }
  return dir;
}

/** The store's durable state on disk: manifest generation and record count (0 / 0 before the first flush). */
function onDisk(): { generation: number; count: number } {
  const path = join(ws.index, "store", "manifest.json");
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as { generation: number; count: number }) : { generation: 0, count: 0 };
}

describe("ingest checkpoints (ingest.checkpoint)", () => {
  it("flushes the store every `files` files during the run, so the files before the last checkpoint are durable", async () => {
    const dir = manuals(7);
    const tool = await openTool(ws.index, { ingest: { workers: 0, checkpoint: { files: 3, seconds: 3600 } } });
    const seen: Array<{ file: number; generation: number; count: number; manifest: boolean }> = [];
    const report = await tool.ingest([dir], {
      onProgress: (e) => (e.stage === "done" ? seen.push({ file: e.file, ...onDisk(), manifest: existsSync(join(ws.index, "hierdoc.json")) }) : undefined),
    });
    await tool.close();
    const perFile = report.files[0].chunks;
    expect(report.files.every((f) => f.outcome === "added" && f.chunks === perFile)).toBe(true);
    // Seen as each file finishes, before its own checkpoint: files 1-3 in memory only, then 3 durable, then 6.
    expect(seen.map((s) => s.count)).toEqual([0, 0, 0, 3, 3, 3, 6].map((n) => n * perFile));
    expect(seen.map((s) => s.generation)).toEqual([0, 0, 0, 1, 1, 1, 2]);
    // The index manifest is written at the first checkpoint: from then on the folder opens as an index.
    expect(seen.map((s) => s.manifest)).toEqual([false, false, false, true, true, true, true]);
    expect(onDisk()).toMatchObject({ generation: 3, count: 7 * perFile });
  });

  it("with checkpoint: false the store is flushed only at the end", async () => {
    const dir = manuals(4);
    const tool = await openTool(ws.index, { ingest: { workers: 0, checkpoint: false } });
    const seen: number[] = [];
    await tool.ingest([dir], { onProgress: (e) => (e.stage === "done" ? seen.push(onDisk().generation) : undefined) });
    await tool.close();
    expect(seen).toEqual([0, 0, 0, 0]);
    expect(onDisk().generation).toBe(1);
  });

  it("reads ingest.checkpoint from YAML and names a bad value by its path", () => {
    const yaml = (block: string) => `tools:\n  - name: docs\n    type: hierarchical_document\n    source: ./docs\n    ingest: ${block}\n`;
    expect(loadToolConfig(yaml("{ checkpoint: { files: 5, seconds: 30 } }"), { file: "agent.yaml" }).ingest.checkpoint).toEqual({ files: 5, seconds: 30 });
    expect(loadToolConfig(yaml("{ checkpoint: false }"), { file: "agent.yaml" }).ingest.checkpoint).toBe(false);
    let err: HierdocError | undefined;
    try {
      loadToolConfig(yaml("{ checkpoint: { files: 0 } }"), { file: "agent.yaml" });
    } catch (e) {
      err = e as HierdocError;
    }
    expect(err?.code).toBe("E_CONFIG");
    expect(err?.message).toContain("ingest.checkpoint");
  });
});
