import { afterAll, afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ConverterLimitsConfigSchema, isHierdocError } from "@hierdoc/core";
import { ConvertPool } from "@hierdoc/tool";
import { spinningPdf } from "./hostile-pdf.js";

// The real-worker test runs the built worker (packages/tool/dist/convert-worker.js): `npm test` builds first.
const tmp = mkdtempSync(join(tmpdir(), "hierdoc-pool-prefetch-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const text = (s: string) => new Uint8Array(Buffer.from(s));

describe("ConvertPool sends a worker its next file before the current one is done", () => {
  let pool: ConvertPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it("a worker that answers its first file only once the second has arrived gets both (no wait for this thread between files)", async () => {
    // Speaks the worker protocol; holds the first reply until a second task is received, then answers both in order.
    const script = join(tmp, "holding-worker.mjs");
    writeFileSync(
      script,
      `import { parentPort } from "node:worker_threads";\n` +
        `const got = [];\n` +
        `const value = (t) => ({ document: { sourcePath: t.path, fileType: "text", format: "text", text: "" }, sections: [], chunks: [], definitions: [], references: [], timingsMs: { seen: got.length } });\n` +
        `parentPort.on("message", (t) => { got.push(t); if (got.length === 2) for (const x of got) parentPort.postMessage({ id: x.id, ok: true, value: value(x) }); });\n` +
        `parentPort.postMessage({ ready: true, heapMb: 0, externalMb: 0 });\n`,
    );
    pool = new ConvertPool({ size: 1, limits: ConverterLimitsConfigSchema.parse({ timeout_seconds: 20 }), maxChunkTokens: 800, script: pathToFileURL(script) });
    const [a, b] = await Promise.all([pool.run("a.txt", text("a")), pool.run("b.txt", text("b"))]);
    expect([a.document.sourcePath, b.document.sourcePath]).toEqual(["a.txt", "b.txt"]);
    expect(pool.running).toBe(1);
  }, 30_000);

  it("a file over the time cap fails alone: the file sent after it to the same worker converts on the replacement worker", async () => {
    pool = new ConvertPool({ size: 1, limits: ConverterLimitsConfigSchema.parse({ timeout_seconds: 2 }), maxChunkTokens: 800 });
    const spinning = pool.run("spin.pdf", new Uint8Array(spinningPdf(200_000))).then(
      () => new Error("expected a rejection"),
      (err: unknown) => err as Error,
    );
    const next = pool.run("next.md", text("# Next\n\nStill here after the spin\n"));
    const err = await spinning;
    expect(isHierdocError(err, "E_TIMEOUT") && err.message).toMatch(/spin\.pdf.*timeout_seconds/);
    expect((await next).document.text).toContain("Still here after the spin");
  }, 60_000);
});
