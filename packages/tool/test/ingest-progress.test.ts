import { describe, expect, it } from "@jest/globals";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IngestProgress } from "@hierdoc/tool";
import { perTestScratch } from "./helpers.js";

/** A markdown file of `n` short sections: one chunk each. */
function manySections(n: number): string {
  return Array.from({ length: n }, (_, i) => `## Section ${i + 1}\n\nThe operator shall inspect valve ${i + 1} every ${i + 2} days.\n`).join("\n");
}

describe("ingest progress inside a large file", () => {
  const scratch = perTestScratch();

  it("reports embed progress per batch (stageDone/stageTotal) up to the file's chunk count", async () => {
    const ws = scratch.workspace();
    const big = join(ws.dir, "big.md");
    writeFileSync(big, manySections(200));
    const tool = await scratch.open(ws.index);
    const events: IngestProgress[] = [];
    const report = await tool.ingest([big], { onProgress: (e) => events.push(e) });
    const chunks = report.files[0]!.chunks;
    expect(chunks).toBeGreaterThan(64);
    const within = events.filter((e) => e.stage === "embed" && e.stageTotal !== undefined);
    expect(within.length).toBe(Math.ceil(chunks / 64));
    expect(within.every((e) => e.stageTotal === chunks)).toBe(true);
    expect(within.map((e) => e.stageDone)).toEqual([...within.map((e) => e.stageDone!)].sort((a, b) => a - b));
    expect(within.at(-1)!.stageDone).toBe(chunks);
  });

  it("stops between embedding batches when cancelled; files finished before are saved with their keyword index", async () => {
    const ws = scratch.workspace();
    let tool = await scratch.open(ws.index);
    await tool.ingest([ws.docs]); // a finished ingest: store and BM25 saved together
    const more = join(ws.dir, "more");
    mkdirSync(more);
    writeFileSync(join(more, "a-small.md"), "## Section 1\n\nThe lighthouse keeper shall log every beacon failure.\n");
    writeFileSync(join(more, "zz-big.md"), manySections(300));
    const controller = new AbortController();
    const run = tool.ingest([more], {
      signal: controller.signal,
      onProgress: (e) => {
        if (e.stage === "embed" && (e.stageDone ?? 0) >= 64) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: "E_CANCELLED" });
    await tool.close();
    const warnings: string[] = [];
    tool = await scratch.open(ws.index, {}, (m) => warnings.push(m)); // what a new process sees
    expect(warnings).toEqual([]); // the keyword index was saved with the store: nothing to rebuild
    const small = await tool.search("lighthouse beacon failure", { topK: 1, mode: "keyword" });
    expect(small.results[0]?.sourcePath).toContain("a-small.md");
    expect((await tool.search("Section 4(2)", { topK: 1 })).results[0]?.sourcePath).toContain("harbour-data-act.md");
    expect((await tool.search("valve 150", { topK: 5, mode: "keyword" })).results.every((r) => !r.sourcePath.endsWith("zz-big.md"))).toBe(true);
  });
});
