import { afterAll, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HierdocError, fileIdentity, readTextIfExists } from "@hierdoc/core";

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

describe("fileIdentity", () => {
  it("is inode:size:mtime-ns, changes when the file is rewritten or replaced by a rename, and is null when missing", async () => {
    const file = join(dir, "manifest.json");
    writeFileSync(file, "{}");
    const st = statSync(file, { bigint: true });
    const first = await fileIdentity(file);
    expect(first).toBe(`${st.ino}:${st.size}:${st.mtimeNs}`);
    expect(await fileIdentity(file)).toBe(first);
    writeFileSync(file, '{"a": 1}');
    const rewritten = await fileIdentity(file);
    expect(rewritten).not.toBe(first);
    writeFileSync(join(dir, "next.json"), '{"a": 1}');
    renameSync(join(dir, "next.json"), file);
    expect(await fileIdentity(file)).not.toBe(rewritten);
    await expect(fileIdentity(join(dir, "missing.json"))).resolves.toBeNull();
  });

  it("throws other stat errors (a path through a file)", async () => {
    const file = join(dir, "plain.txt");
    writeFileSync(file, "x");
    await expect(fileIdentity(join(file, "inside"))).rejects.toMatchObject({ code: "ENOTDIR" });
  });
});
