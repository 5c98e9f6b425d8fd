import { afterEach, describe, expect, it } from "@jest/globals";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConverterLimitsConfigSchema, isHierdocError, type ConverterLimitsConfig } from "@hierdoc/core";
import { ConvertPool } from "@hierdoc/tool";
import { balloonPdf, plainPdf, spinningPdf } from "./hostile-pdf.js";
import { perTestScratch } from "./helpers.js";

// The pool runs the built worker (packages/tool/dist/convert-worker.js): `npm test` builds first.
const limits = (over: Partial<ConverterLimitsConfig> = {}): ConverterLimitsConfig => ConverterLimitsConfigSchema.parse(over);
const bytes = (b: Buffer) => new Uint8Array(b);

async function rejection(p: Promise<unknown>): Promise<Error & { code?: string; details?: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

describe("ConvertPool: conversion in worker threads under time and memory caps", () => {
  let pool: ConvertPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it("stops a PDF that makes the converter spin at the time cap, with one error naming the file and the cap; the next file converts", async () => {
    pool = new ConvertPool({ size: 1, limits: limits({ timeout_seconds: 2 }), maxChunkTokens: 800 });
    const err = await rejection(pool.run("spin.pdf", bytes(spinningPdf())));
    expect(isHierdocError(err, "E_TIMEOUT")).toBe(true);
    expect(err.message).toBe("spin.pdf: converting took longer than 2 s (limits.timeout_seconds); stopped");
    expect(err.details).toMatchObject({ file: "spin.pdf", limit: "timeout_seconds" });
    const ok = await pool.run("ok.pdf", bytes(plainPdf("Section 1. Scope of these rules")));
    expect(ok.document.text).toContain("Section 1. Scope of these rules");
    expect(ok.chunks.length).toBeGreaterThan(0);
  }, 60_000);

  it("stops a PDF that balloons the parser's heap at the memory cap; the next file converts in a fresh worker", async () => {
    pool = new ConvertPool({ size: 1, limits: limits({ max_memory_mb: 64, timeout_seconds: 120 }), maxChunkTokens: 800 });
    const bomb = balloonPdf();
    expect(bomb.length).toBeLessThan(200_000);
    const err = await rejection(pool.run("balloon.pdf", bytes(bomb)));
    expect(isHierdocError(err, "E_INPUT_TOO_LARGE")).toBe(true);
    expect(err.message).toBe("balloon.pdf: converting needed more than 64 MB of memory (limits.max_memory_mb); stopped");
    const ok = await pool.run("ok.pdf", bytes(plainPdf("Still converting after a crash")));
    expect(ok.document.text).toContain("Still converting after a crash");
  }, 90_000);

  it("returns a converter's typed error as is (the worker survives it) and applies the configured limits", async () => {
    pool = new ConvertPool({ size: 1, limits: limits({ max_file_mb: 0.001 }), maxChunkTokens: 800 });
    const broken = await rejection(pool.run("broken.pdf", bytes(Buffer.from("%PDF-1.4\nthis is not a pdf body"))));
    expect(isHierdocError(broken, "E_PARSE")).toBe(true);
    expect(broken.message).toMatch(/^broken\.pdf: /);
    const big = await rejection(pool.run("big.md", bytes(Buffer.alloc(2000, "a"))));
    expect(isHierdocError(big, "E_INPUT_TOO_LARGE")).toBe(true);
    expect(big.message).toContain("the limit is 1048");
    expect(pool.running).toBe(1);
  }, 60_000);

  it("passes max_xml_entities to the XML converters: a DOCTYPE with more entities fails naming the file", async () => {
    const xml = Buffer.from(
      '<?xml version="1.0"?>\n<!DOCTYPE rfc [<!ENTITY a "alpha"><!ENTITY b "beta"><!ENTITY c "gamma">]>\n' +
        '<rfc><front><title>T</title></front><middle><section title="Intro"><t>&a; &b; &c;</t></section></middle></rfc>\n',
    );
    pool = new ConvertPool({ size: 1, limits: limits({ max_xml_entities: 2 }), maxChunkTokens: 800 });
    const err = await rejection(pool.run("ent.xml", bytes(xml)));
    expect(err.message).toMatch(/^ent\.xml: .*more than 2 entity declarations/);
    await pool.close();
    pool = new ConvertPool({ size: 1, limits: limits({ max_xml_entities: 3 }), maxChunkTokens: 800 });
    expect((await pool.run("ent.xml", bytes(xml))).document.text).toContain("alpha beta gamma");
  }, 60_000);

  it("runs files on up to `size` workers at once and returns each file's own result", async () => {
    pool = new ConvertPool({ size: 2, limits: limits(), maxChunkTokens: 800 });
    const files = Array.from({ length: 6 }, (_, i) => [`doc-${i}.md`, `# Doc ${i}\n\n## ${i}.1 Rule\n\nThe operator of unit ${i} shall log it.\n`] as const);
    const runs = files.map(([p, text]) => pool!.run(p, bytes(Buffer.from(text))));
    expect(pool.running).toBe(2);
    const out = await Promise.all(runs);
    out.forEach((r, i) => {
      expect(r.document.sourcePath).toBe(`doc-${i}.md`);
      expect(r.sections.map((s) => s.title)).toContain(`${i}.1 Rule`);
    });
    expect(pool.running).toBe(2);
  }, 60_000);

  it("reports the CPU time of its worker threads (Linux /proc), growing with work and kept after close", async () => {
    pool = new ConvertPool({ size: 1, limits: limits(), maxChunkTokens: 800 });
    const text = Array.from({ length: 400 }, (_, i) => `## ${i + 1} Rule\n\n"Unit ${i}" means a pump. The operator of unit ${i} shall log it under Article ${i + 2}.\n`).join("\n");
    await pool.run("a.md", bytes(Buffer.from(text)));
    const first = pool.workerCpuMs!;
    expect(first).toBeGreaterThan(0); // the converters' loading alone takes tens of ms of CPU
    await pool.run("b.md", bytes(Buffer.from(text)));
    const second = pool.workerCpuMs!;
    expect(second).toBeGreaterThanOrEqual(first);
    await pool.close();
    expect(pool.workerCpuMs).toBe(second);
  }, 60_000);

  it("fails queued and running files with E_CANCELLED when closed", async () => {
    pool = new ConvertPool({ size: 1, limits: limits(), maxChunkTokens: 800 });
    const running = rejection(pool.run("spin.pdf", bytes(spinningPdf(200_000))));
    const queued = rejection(pool.run("next.md", bytes(Buffer.from("# Next\n"))));
    await pool.close();
    expect(isHierdocError(await running, "E_CANCELLED")).toBe(true);
    expect(isHierdocError(await queued, "E_CANCELLED")).toBe(true);
    expect(isHierdocError(await rejection(pool.run("late.md", bytes(Buffer.from("# Late\n")))), "E_CANCELLED")).toBe(true);
    expect(pool.running).toBe(0);
  });
});

describe("ingest with hostile files in the folder", () => {
  const scratch = perTestScratch();

  it("one bad PDF is one failed file naming the cap; the rest of the folder ingests and nothing already indexed is lost", async () => {
    const ws = scratch.workspace();
    const tool = await scratch.open(ws.index, { limits: { max_memory_mb: 64, timeout_seconds: 60 } });
    const first = await tool.ingest([ws.docs], { workers: 2 });
    expect(first.files.map((f) => f.outcome)).toEqual(["added", "added", "added"]);
    const before = tool.chunkCount;
    writeFileSync(join(ws.docs, "a-balloon.pdf"), balloonPdf());
    writeFileSync(join(ws.docs, "notice.pdf"), plainPdf("Notice 1. Harbour fees are due monthly"));
    const report = await tool.ingest([ws.docs], { workers: 2 });
    const outcome = Object.fromEntries(report.files.map((f) => [f.sourcePath.slice(ws.docs.length + 1), f.outcome]));
    expect(outcome).toEqual({
      "a-balloon.pdf": "failed",
      "community-garden-rules.txt": "unchanged",
      "harbour-data-act.md": "unchanged",
      "notice.pdf": "added",
      "pumpstation-manual.md": "unchanged",
    });
    const failed = report.files.find((f) => f.outcome === "failed")!;
    expect(failed.error?.code).toBe("E_INPUT_TOO_LARGE");
    expect(failed.error?.message).toContain("limits.max_memory_mb");
    expect(tool.chunkCount).toBe(before + 1);
    const hits = await tool.search("harbour fees due monthly", { mode: "keyword" });
    expect(hits.results[0].sourcePath).toBe(join(ws.docs, "notice.pdf"));
  }, 120_000);

  it("converts in this thread with workers: 0 (same outcome for good files)", async () => {
    const ws = scratch.workspace();
    const tool = await scratch.open(ws.index, { ingest: { workers: 0 } });
    const report = await tool.ingest([ws.docs]);
    expect(report.files.map((f) => f.outcome)).toEqual(["added", "added", "added"]);
    expect(report.timingsMs.prepare).toBeGreaterThan(0);
    expect(report.timingsMs.wait).toBeUndefined();
  });
});
