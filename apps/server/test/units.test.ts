import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { ClientLimiter, HttpError, ReadWriteLock, checkIngestPaths, requireBearer, resolveIngestRoots, safeEqual, withTimeout } from "@hierdoc/server";
import { sleep } from "./helpers.js";

describe("safeEqual / requireBearer", () => {
  it("equals exactly when the strings are equal", () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => safeEqual(a, b) === (a === b)));
    expect(safeEqual("token", "token")).toBe(true);
    expect(safeEqual("token", "token ")).toBe(false);
  });

  it("accepts only `Bearer <the token>`", () => {
    expect(() => requireBearer("Bearer abc", "abc")).not.toThrow();
    expect(() => requireBearer("bearer   abc", "abc")).not.toThrow();
    for (const h of [undefined, "", "Bearer", "Bearer abcd", "Token abc", "Bearer abc extra"]) {
      expect(() => requireBearer(h, "abc")).toThrow(HttpError);
    }
    expect(() => requireBearer("Bearer abc", undefined)).toThrow(/none configured/);
  });
});

describe("ClientLimiter", () => {
  it("counts per client and frees a slot once per release", () => {
    const l = new ClientLimiter(2);
    const a1 = l.acquire("a");
    l.acquire("a");
    l.acquire("b");
    expect(() => l.acquire("a")).toThrow(/limit 2/);
    a1();
    a1();
    expect(l.count("a")).toBe(1);
    expect(() => l.acquire("a")).not.toThrow();
  });
});

describe("ReadWriteLock", () => {
  it("runs readers together, a writer alone, and lets a waiting writer go before new readers", async () => {
    const lock = new ReadWriteLock();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`${name}+`);
      await sleep(ms);
      log.push(`${name}-`);
    };
    const r1 = lock.read(task("r1", 30));
    const r2 = lock.read(task("r2", 30));
    const w = lock.write(task("w", 20));
    const r3 = lock.read(task("r3", 5));
    await Promise.all([r1, r2, w, r3]);
    expect(log.slice(0, 2).sort()).toEqual(["r1+", "r2+"]);
    const wStart = log.indexOf("w+");
    expect(log.indexOf("r1-")).toBeLessThan(wStart);
    expect(log.indexOf("r2-")).toBeLessThan(wStart);
    expect(log[wStart + 1]).toBe("w-");
    expect(log.indexOf("r3+")).toBeGreaterThan(log.indexOf("w-"));
  });

  it("releases the hold when the work throws", async () => {
    const lock = new ReadWriteLock();
    await expect(lock.write(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(lock.read(() => 42)).resolves.toBe(42);
    expect(lock.writing).toBe(false);
  });
});

describe("withTimeout", () => {
  it("passes results through and times out slow work with E_TIMEOUT", async () => {
    await expect(withTimeout(Promise.resolve(1), 50, "x")).resolves.toBe(1);
    await expect(withTimeout(sleep(200), 20, "slow")).rejects.toMatchObject({ status: 503, apiCode: "E_TIMEOUT" });
  });
});

describe("checkIngestPaths", () => {
  const dir = mkdtempSync(join(tmpdir(), "hierdoc-paths-"));
  const root = join(dir, "root");
  mkdirSync(join(root, "sub"), { recursive: true });
  writeFileSync(join(root, "sub", "a.md"), "# A\n");
  writeFileSync(join(dir, "out.md"), "# Out\n");
  symlinkSync(join(root, "sub", "a.md"), join(root, "inside-link.md"));
  symlinkSync(root, join(dir, "root-link"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("accepts relative and absolute paths inside, and links that stay inside", async () => {
    const roots = await resolveIngestRoots([root]);
    const out = await checkIngestPaths(["sub/a.md", join(root, "sub"), "inside-link.md", "."], roots, "/");
    expect(out).toEqual([join(root, "sub/a.md").slice(1), join(root, "sub").slice(1), join(root, "inside-link.md").slice(1), root.slice(1)]);
  });

  it("a root given through a symlink accepts paths under its real location", async () => {
    const roots = await resolveIngestRoots([join(dir, "root-link")]);
    await expect(checkIngestPaths([join(root, "sub", "a.md")], roots)).resolves.toHaveLength(1);
  });

  it("refuses traversal, outside paths, NUL bytes and globs; drops missing roots", async () => {
    const missing: string[] = [];
    const roots = await resolveIngestRoots([root, join(dir, "nope")], (r) => missing.push(r));
    expect(missing).toEqual([join(dir, "nope")]);
    await expect(checkIngestPaths(["sub/../sub/a.md"], roots)).rejects.toMatchObject({ status: 403 });
    await expect(checkIngestPaths([join(dir, "out.md")], roots)).rejects.toMatchObject({ status: 403 });
    await expect(checkIngestPaths([`${root}-sibling/x.md`], roots)).rejects.toMatchObject({ status: 403 });
    await expect(checkIngestPaths(["a\0.md"], roots)).rejects.toMatchObject({ status: 400 });
    await expect(checkIngestPaths(["**/*.md"], roots)).rejects.toMatchObject({ status: 400 });
    await expect(checkIngestPaths(["sub/a.md"], { lexical: [], real: [] })).rejects.toMatchObject({ status: 403 });
  });
});
