import { afterAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, SAMPLE } from "./run-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "hierdoc-exit-guard-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("hierdoc never exits 0 with its command unfinished", () => {
  it("an ingest whose pending work vanishes (nothing left keeping the process alive) exits 1 with an internal error, not 0 with no index", async () => {
    // A preload makes every read of the corpus files a promise that never settles and holds nothing open: the event
    // loop empties with the ingest still waiting — what an unref'd ingest worker did under load.
    const hang = join(tmp, "hang.mjs");
    writeFileSync(
      hang,
      `import fsp from "node:fs/promises";\nimport { syncBuiltinESMExports } from "node:module";\nconst readFile = fsp.readFile;\n` +
        `fsp.readFile = (path, ...rest) => (String(path).includes(process.env.HANG_ON) ? new Promise(() => {}) : readFile(path, ...rest));\n` +
        `syncBuiltinESMExports();\n`,
    );
    const index = join(tmp, "index");
    const res = await runCli(["ingest", SAMPLE, "--index", index, "--quiet"], { nodeArgs: ["--import", hang], env: { HANG_ON: SAMPLE }, timeoutMs: 120_000 });
    expect({ code: res.code, stderr: res.stderr }).toEqual({
      code: 1,
      stderr: "hierdoc: internal error: the process ran out of pending work before the command finished; its result is unknown\n",
    });
    expect(existsSync(join(index, "hierdoc.json"))).toBe(false);
  }, 150_000);
});
