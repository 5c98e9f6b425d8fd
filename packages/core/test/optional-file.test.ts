import { afterAll, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HierdocError, readTextIfExists } from "@hierdoc/core";

const dir = mkdtempSync(join(tmpdir(), "hierdoc-optional-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readTextIfExists", () => {
  it("returns the file's UTF-8 text", async () => {
    const file = join(dir, "state.json");
    writeFileSync(file, '{"größe": 1}');
    await expect(readTextIfExists(file)).resolves.toBe('{"größe": 1}');
  });

  it("returns null when the file (or its folder) does not exist", async () => {
    await expect(readTextIfExists(join(dir, "missing.json"))).resolves.toBeNull();
    await expect(readTextIfExists(join(dir, "no-folder", "missing.json"))).resolves.toBeNull();
  });

  it("throws E_INDEX_CORRUPT naming the file when it exists but cannot be read", async () => {
    const file = join(dir, "a-folder.json");
    mkdirSync(file);
    const err = await readTextIfExists(file).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(HierdocError);
    expect(err).toMatchObject({ code: "E_INDEX_CORRUPT", details: { file } });
    expect((err as Error).message).toBe(`cannot read ${file}: EISDIR: illegal operation on a directory, read`);
    expect((err as HierdocError).cause).toMatchObject({ code: "EISDIR" });
  });
});
